// reminder_targets: the invoices payment reminders may be for — issued, emailed, not voided, with
// money owing — and what the reminder rule needs of each (the due date, the balance, when it was
// emailed and to whom, the reminders so far, whether they are paused). A row leaves the table
// when the invoice is paid, voided (here or in the accounting system) or deleted, so the scheduler reads only invoices still open.
import { amountDueNowCents, clientDisplayName, remindersStopped } from '@tradie/domain';
import { type Projection, column as c, nullableColumn as n } from '@tradie/store';
import { documentKey, figuresOf, foldDocumentStream, streamAccount } from './fold.ts';

export const reminderTargetsProjection: Projection = {
  name: 'reminder_targets',
  // 2: the balance is what is due now (less retention held on a payment claim).
  // 3: an invoice voided or deleted in the accounting system is no target (remindersStopped).
  version: 3,
  categories: ['document'],
  tables: [
    {
      name: 'reminder_targets',
      streamKey: 'document_id',
      primaryKey: ['document_id'],
      indexes: { reminder_targets_account: '(account_id)' },
      columns: [
        c('document_id'), c('account_id'), n('client_id'), c('reference'), c('client_name'), c('due_date', 'date'), c('balance_cents', 'bigint'),
        c('sent_at', 'timestamptz'), c('sent_to', 'jsonb'), c('paused', 'boolean'), c('reminders', 'jsonb'), c('stream_version', 'integer'),
      ],
    },
  ],
  key: documentKey,
  rows(stream) {
    const s = foldDocumentStream(stream.events);
    if (s.status === 'none' || s.type !== 'invoice' || s.status === 'deleted' || s.status === 'draft' || remindersStopped(s)) return {};
    const firstSend = s.sends.find((x) => x.at !== null);
    const lastSend = s.sends.at(-1);
    if (!firstSend || !lastSend) return {};
    // Retention held back on a payment claim is owed but not due: reminders chase what is due now.
    const balanceCents = amountDueNowCents(s, figuresOf(s));
    if (balanceCents <= 0n) return {};
    const name = s.client ? clientDisplayName(s.client) : '';
    return {
      reminder_targets: [
        {
          document_id: s.id, account_id: streamAccount(stream.events), client_id: s.client?.id ?? null, reference: s.reference, client_name: name,
          due_date: s.dueDate, balance_cents: balanceCents.toString(), sent_at: firstSend.at, sent_to: lastSend.to, paused: s.remindersPaused,
          reminders: s.reminders.map((r) => ({ stepId: r.stepId, at: r.at })), stream_version: stream.events.at(-1)!.streamVersion,
        },
      ],
    };
  },
};
