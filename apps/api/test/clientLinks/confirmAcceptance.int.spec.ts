// The email confirming a client's acceptance to them, through the SMTP mailer to a real SMTP
// server on loopback: sent to the quote's client once, with the signed PDF (the quote, the terms
// they accepted word for word, the certificate with their signature) and how to reach the
// business; written down as not sent, with why, when the server refuses the client's address.
import { documentStreamId } from '@tradie/domain';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@tradie/testkit/smtp-sink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer, type Mailer, type OutgoingMail } from '../../src/mail/index.ts';
import { acceptanceConfirmation } from '../../src/clientLinks/confirmAcceptance.ts';
import { addClient, line, pdfText, setSettings } from '../documents/support.ts';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { publicClient, signaturePng } from './support.ts';

let t: TestApp;
let sink: SmtpSink;
let smtp: Mailer;
const mailer: Mailer = {
  kind: 'smtp',
  send: (mail: OutgoingMail) => smtp.send(mail),
  close: () => smtp.close(),
};

beforeAll(async () => {
  sink = await startSmtpSink({ rejectRecipients: ['gone@example.nz'] });
  smtp = createSmtpMailer({ url: sink.url, connectionTimeout: 2_000, greetingTimeout: 2_000 });
  t = await createTestApp({ overrides: { mailer }, env: { MAIL_FROM: 'quotes@mail.tradie.test' } });
});
afterAll(async () => {
  await t.close();
  await mailer.close();
  await sink.stop();
});

const ref = (id: string, what: string) => (m: SinkMessage) => m.mail.headers.get('x-entity-ref-id') === `${id}${what}`;

/** A business with terms, a quote emailed to `clientEmail`, and the client's page. */
async function acceptedQuote(clientEmail: string) {
  const u = await signUp(t, 'Aroha Tamihana');
  await setSettings(t, u.userId, {
    business_name: 'Tāmaki Sparky', phone: '021 555 0199', email: 'office@tamakisparky.nz', address: '12 Rātā Street', city: 'Whangārei', postcode: '0110',
    gst_number: '49-091-850', quote_terms: 'A 30% deposit is due before work starts.',
  });
  const client_id = await addClient(t, u.userId, { name: 'Hēmi Walker', email: clientEmail });
  const q = (await t.post('/invoices', { type: 'quote', client_id, line_items: [line('Heat pump install', 1, 2400)] }, u.token)).json as { id: string; reference: string };
  expect((await t.post(`/invoices/${q.id}/send`, { to: ['office-copy@example.nz'] }, u.token)).status).toBe(200);
  const sent = await sink.waitFor(ref(q.id, ''));
  const token = /online: http:\/\/app\.test\/q\/([A-Za-z0-9_-]+)/.exec(sent.mail.text ?? '')![1]!;
  const c = publicClient(t);
  const page = (await c.get(`/quotes/${token}`)).json;
  const r = await c.post(`/quotes/${token}/accept`, { signer_name: 'Hēmi Walker', terms_accepted: true, signature_png: signaturePng(), shown_sha256: page.shown_sha256, version: page.version });
  expect(r.status).toBe(200);
  return { u, q };
}

const confirmations = (documentId: string) =>
  t.deps.store.db.query<{ outcome: string; detail: string | null; sent_to: string | null }>('SELECT outcome, detail, sent_to FROM client_acceptance_confirmations WHERE document_id = $1', [documentId]);

describe('the acceptance confirmation to the client', () => {
  it('emails the client once, with the signed PDF attached and how to reach the business', async () => {
    const { u, q } = await acceptedQuote('hemi@example.nz');
    const got = await sink.waitFor(ref(q.id, '/acceptance-confirmation'));
    expect(got.envelope.rcptTo).toEqual(['hemi@example.nz']);
    expect(got.mail.replyTo?.text).toContain('office@tamakisparky.nz');
    expect(got.mail.subject).toBe(`You accepted quote ${q.reference} from Tāmaki Sparky`);
    expect(got.mail.text).toContain(`Thank you for accepting quote ${q.reference} from Tāmaki Sparky on`);
    expect(got.mail.text).toContain('carrying your signature');
    expect(got.mail.text?.trimEnd()).toMatch(/--\nTāmaki Sparky\nPhone 021 555 0199 · office@tamakisparky\.nz\n12 Rātā Street, Whangārei, 0110$/);
    expect(got.mail.attachments).toHaveLength(1);
    const pdf = got.mail.attachments[0]!;
    expect(pdf.filename).toBe(`${q.reference}.pdf`);
    const text = pdfText(pdf.content).replace(/\s+/g, ' ');
    expect(text).toContain('Acceptance certificate');
    expect(text).toContain('Hēmi Walker');
    expect(text).toContain('Accepted, as follows: A 30% deposit is due before work starts.');
    expect(await confirmations(q.id)).toEqual([{ outcome: 'sent', detail: null, sent_to: 'hemi@example.nz' }]);

    // Run again (at least once): nothing more goes.
    const before = sink.messages.filter(ref(q.id, '/acceptance-confirmation')).length;
    const accepted = (await t.deps.store.readStream(documentStreamId(q.id))).events.find((e) => e.type === 'QuoteAcceptedByClient')!;
    await acceptanceConfirmation.handle(t.deps, { accountId: u.userId, streamId: documentStreamId(q.id), eventId: accepted.eventId, payload: accepted.data as Record<string, unknown> });
    expect(sink.messages.filter(ref(q.id, '/acceptance-confirmation'))).toHaveLength(before);
  });

  it("writes down that it was not sent, and why, when the mail server refuses the client's address", async () => {
    const { q } = await acceptedQuote('gone@example.nz');
    await expect.poll(async () => (await confirmations(q.id)).length).toBe(1);
    const [row] = await confirmations(q.id);
    expect(row).toMatchObject({ outcome: 'not_sent', sent_to: 'gone@example.nz' });
    expect(row!.detail).toContain('gone@example.nz');
    expect(sink.messages.filter(ref(q.id, '/acceptance-confirmation'))).toHaveLength(0);
  });
});
