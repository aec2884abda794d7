// Shared by the sending tests (sending.int.spec.ts on PGlite, sending.pg.spec.ts on PostgreSQL):
// an invoice ready to send, addresses to send it to, and the link in a confirmation email.
import type { OutgoingMail } from '../../src/mail/index.ts';
import { addClient, line } from '../documents/support.ts';
import type { TestApp } from '../support/testApp.ts';

export const CONFIRM_SUBJECT = 'Confirm your email address for Tradie Quotes';

/** A draft invoice for a client with an email address; answers its id. */
export async function invoiceToSend(t: TestApp, u: { userId: string; token: string }): Promise<string> {
  const client_id = await addClient(t, u.userId, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
  const r = await t.post('/invoices', { type: 'invoice', client_id, line_items: [line('Heat pump install', 1, 2400)] }, u.token);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.json.id as string;
}

/** `n` distinct addresses, for a send's To list. */
export const addresses = (n: number, tag = 'client'): string[] => Array.from({ length: n }, (_, i) => `${tag}${i + 1}@example.nz`);

/** The token in the newest confirmation email to `email`, or undefined. */
export function confirmationToken(sent: readonly OutgoingMail[], email: string): string | undefined {
  const mail = sent.filter((m) => m.subject === CONFIRM_SUBJECT && m.to.includes(email)).at(-1);
  const m = mail ? /\/confirm-email\?token=([^\s]+)/.exec(mail.text) : null;
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/** Emails about documents (not confirmation emails). */
export const documentMails = (sent: readonly OutgoingMail[]): OutgoingMail[] => sent.filter((m) => m.subject !== CONFIRM_SUBJECT);
