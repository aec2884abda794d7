// Shared set-up for the reminder tests: an account with a client and an emailed invoice, and the
// reminder emails the test mailer kept.
import { documentStreamId } from '@tradie/domain';
import type { OutgoingMail } from '../../src/mail/index.ts';
import { sendDueReminders } from '../../src/reminders/sender.ts';
import { addClient, line } from '../documents/support.ts';
import type { signUp} from '../support/testApp.ts';
import { type MemoryMailer, type TestApp } from '../support/testApp.ts';

export type User = Awaited<ReturnType<typeof signUp>>;

/** An invoice for $230.00 (incl. GST) to a client with an email address, emailed now; due by its terms. */
export async function emailedInvoice(t: TestApp, u: User, options: { email?: string; dueDate?: string; clientName?: string } = {}): Promise<{ id: string; reference: string; clientId: string }> {
  const clientId = await addClient(t, u.userId, { name: options.clientName ?? 'Hēmi Walker', email: options.email ?? 'hemi@example.nz' });
  const created = await t.post('/invoices', { type: 'invoice', client_id: clientId, line_items: [line('Labour', 2, 100)], ...(options.dueDate ? { due_date: options.dueDate } : {}) }, u.token);
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
  const sent = await t.post(`/invoices/${created.json.id}/send`, undefined, u.token);
  if (sent.status !== 200 || sent.json.outcome !== 'delivered') throw new Error(`send failed: ${sent.status} ${sent.text}`);
  return { id: created.json.id, reference: created.json.reference, clientId };
}

/** The reminder emails kept by the test mailer for a document. */
export const remindersOf = (t: TestApp, id: string): OutgoingMail[] =>
  (t.mailer as MemoryMailer).sent.filter((m) => m.headers?.['X-Entity-Ref-ID']?.startsWith(`${id}/reminder/`));

/** Runs the sender once, as the API's timer would. */
export const runSender = (t: TestApp) => sendDueReminders(t.deps);

/** The reminder events on the document's stream. */
export async function reminderEvents(t: TestApp, id: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const s = await t.deps.store.readStream(documentStreamId(id));
  return s.events.filter((e) => e.type.startsWith('Reminder')).map((e) => ({ type: e.type, data: e.data }));
}
