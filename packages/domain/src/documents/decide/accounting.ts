// What the accounting system (Xero) says of its copy: synced, its totals, voided there.
import { conflict } from '../../errors.ts';
import type { DocumentEvent } from '../events.ts';
import type { DocumentView, DocumentState } from '../view.ts';
import { requireExisting, requireInvoice, type CommandOf } from './guards.ts';

export function decideRecordAccountingSync(command: CommandOf<'RecordAccountingSync'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'be synced to accounting');
  if (d.sync) throw conflict('This invoice is already synced');
  return [{ type: 'SyncedToAccounting', data: { documentId: d.id, ...command.data } }];
}

export function decideRecordAccountingVoid(command: CommandOf<'RecordAccountingVoid'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (!d.sync || d.sync.provider !== command.data.provider) throw conflict("This invoice isn't synced to that accounting system.");
  if (d.status === 'void' || d.sync.voidedThere !== null) return [];
  return [{ type: 'AccountingVoidReported', data: { documentId: d.id, ...command.data } }];
}

/**
 * Whether payment reminders are over for the invoice: voided here, or its copy voided or deleted in
 * the accounting system (a client is never chased for an invoice the books no longer hold). Every
 * reminder path asks it: the reminder targets, the sender, and the reminder sent by hand.
 */
export const remindersStopped = (d: Pick<DocumentView, 'status' | 'sync'>): boolean => d.status === 'void' || d.sync?.voidedThere != null;

export function decideRecordAccountingTotals(command: CommandOf<'RecordAccountingTotals'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (!d.sync || d.sync.provider !== command.data.provider) throw conflict("This invoice isn't synced to that accounting system.");
  const was = d.sync.reported;
  const { subtotal, gst, total } = command.data;
  if (was && was.subtotal === subtotal && was.gst === gst && was.total === total) return [];
  return [{ type: 'AccountingTotalsReported', data: { documentId: d.id, ...command.data } }];
}
