// Shared by the suites of the one door for mail (mailDoors.int.spec.ts on PGlite, mailDoors.pg.spec.ts
// on PostgreSQL with two apps): apps whose mail goes to a real SMTP server on loopback (or to a port
// where nothing listens, to play a mail server that is down), and what that server received.
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@tradie/testkit/smtp-sink';
import { createSmtpMailer, type Mailer } from '../../src/mail/index.ts';
import { addClient, line } from '../documents/support.ts';
import type { TestApp } from '../support/testApp.ts';

export interface MailRoute {
  sink: SmtpSink;
  /** The apps' mailer: the sink, or nothing listening while `down` is set. */
  mailer: Mailer;
  down: boolean;
  stop(): Promise<void>;
}

/** A real SMTP server on loopback, and a mailer (kind 'smtp': mail really leaves) that sends to it. */
export async function mailRoute(): Promise<MailRoute> {
  const sink = await startSmtpSink();
  const good = createSmtpMailer({ url: sink.url });
  // Port 9 (discard) on loopback: nothing listens, so the connection is refused at once.
  const dead = createSmtpMailer({ url: 'smtp://127.0.0.1:9', connectionTimeout: 1_000 });
  const route: MailRoute = {
    sink,
    down: false,
    mailer: { kind: 'smtp', send: (m) => (route.down ? dead : good).send(m), close: async () => {} },
    async stop() {
      await good.close();
      await dead.close();
      await sink.stop();
    },
  };
  return route;
}

const refOf = (m: SinkMessage): string => String(m.mail.headers.get('x-entity-ref-id') ?? '');

/** The reminders of an invoice the SMTP server received. */
export const reminderMails = (sink: SmtpSink, id: string): SinkMessage[] => sink.messages.filter((m) => refOf(m).startsWith(`${id}/reminder/`));

/** The notices of a quote's client answers the SMTP server received: to the tradie, naming the quote. */
export const noticeMails = (sink: SmtpSink, quote: { reference: string }, tradie: { email: string }): SinkMessage[] =>
  sink.messages.filter((m) => m.envelope.rcptTo.includes(tradie.email) && (m.mail.subject ?? '').toLowerCase().includes(`quote ${quote.reference.toLowerCase()}`));

/** The link in the newest email of a document the SMTP server received. */
export function linkIn(sink: SmtpSink, id: string): { url: string; token: string } {
  const mail = [...sink.messages].reverse().find((m) => refOf(m) === id);
  const found = mail ? /online: (http:\/\/app\.test\/[qi]\/([A-Za-z0-9_-]+))/.exec(mail.mail.text ?? '') : null;
  if (!found) throw new Error('no link in an email of the document');
  return { url: found[1]!, token: found[2]! };
}

/** A new invoice for a client with an email address ($230.00), as a draft; answers its id and reference. */
export async function draftInvoice(t: TestApp, u: { userId: string; token: string }, email = 'hemi@example.nz', body: Record<string, unknown> = {}): Promise<{ id: string; reference: string; clientId: string }> {
  const clientId = await addClient(t, u.userId, { name: 'Hēmi Walker', email });
  const r = await t.post('/invoices', { type: 'invoice', client_id: clientId, line_items: [line('Labour', 2, 100)], ...body }, u.token);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return { id: r.json.id, reference: r.json.reference, clientId };
}

/** A draft invoice marked issued (handed over without the app's email). */
export async function issuedInvoice(t: TestApp, u: { userId: string; token: string }, email?: string): Promise<{ id: string; reference: string; clientId: string }> {
  const inv = await draftInvoice(t, u, email);
  const r = await t.post(`/invoices/${inv.id}/issue`, undefined, u.token);
  if (r.status !== 200) throw new Error(`issue failed: ${r.status} ${r.text}`);
  return inv;
}

/** Statuses and details of a list of answers, counted: { '200': 1, '429 …': 59 }. */
export function tally(answers: readonly { status: number; json: { detail?: string } | undefined }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 200 ? '200' : `${a.status} ${a.json?.detail ?? ''}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}
