// Seeding an account with quotes and invoices for the reports' tests and benchmark: each document's
// commands are decided by the domain's documentDecider and its events appended through the store
// (so the inline projections write the report rows exactly as they do for the app), many
// documents per transaction. Returns the events as a log, for comparison with the in-memory replay.
import { randomUUID } from 'node:crypto';
import {
  currentVersion, documentDecider, documentStreamId, formatReference, linesSchema, nzDateOf,
  type ClientSnapshot, type DocumentCommand, type DocumentEvent, type DocumentState, type GstRounding, type LineInput, type LocalDate, type LoggedEvent,
} from '@tradie/domain';
import type { EventStore } from '@tradie/store';
import { toNewEvents } from '@tradie/api';

export interface SeedDocument {
  documentId?: string;
  type?: 'invoice' | 'quote';
  number: number;
  /** When it was drafted (ISO instant); the issue date defaults to that NZ calendar day. */
  at: string;
  issueDate?: LocalDate;
  client?: (Partial<ClientSnapshot> & { name: string }) | null;
  lines: LineInput[];
  gstRounding?: GstRounding;
  sent?: boolean;
  /** Marked issued by hand (handed over on site): it counts in the reports. Sending or a payment issues it too. */
  issued?: boolean;
  payments?: { amount: string; date: LocalDate; paymentId?: string }[];
  markPaidOn?: LocalDate;
  removePayments?: string[];
  /** When the payments were removed (ISO instant); default `at`. A removal is dated this NZ day in the reports. */
  removedAt?: string;
  voided?: boolean;
  /** When it was voided (ISO instant); default `at`. The reversal is dated this NZ day in the reports. */
  voidedAt?: string;
  deleted?: boolean;
}

export function clientSnapshot(c: Partial<ClientSnapshot> & { name: string }): ClientSnapshot {
  return {
    id: c.id ?? null, name: c.name, email: c.email ?? '', phone: c.phone ?? '', address: c.address ?? '',
    is_business: c.is_business ?? 'false', business_name: c.business_name ?? '', company_number: c.company_number ?? '', gst_number: c.gst_number ?? '',
  };
}

/** The commands for one seed document, in the order a person would give them, each with its time. */
function commandsOf(d: SeedDocument, documentId: string): { command: DocumentCommand; at: string }[] {
  const type = d.type ?? 'invoice';
  const timed = (cmds: DocumentCommand[], at = d.at) => cmds.map((command) => ({ command, at }));
  const cmds: DocumentCommand[] = [
    {
      type: 'DraftDocument',
      data: {
        documentId, type, number: d.number, reference: formatReference(type, d.number),
        client: d.client ? clientSnapshot(d.client) : null, lines: linesSchema.parse(d.lines), gstRounding: d.gstRounding ?? 'total',
        issueDate: d.issueDate ?? nzDateOf(d.at), paymentTerms: '7 days',
      },
    },
  ];
  const issueDate = d.issueDate ?? nzDateOf(d.at);
  const payments = (d.payments ?? []).map((p, i): DocumentCommand & { data: { date: LocalDate } } => ({
    type: 'RecordPayment', data: { paymentId: p.paymentId ?? `${documentId}-p${i + 1}`, amount: p.amount, date: p.date, method: 'bank_transfer', reference: '' },
  }));
  // Deposits dated before the invoice are taken on the draft, in date order, before it is sent
  // or issued (once issued, a payment is never dated before its time of supply).
  const deposits = payments.filter((p) => p.data.date < issueDate).sort((a, b) => (a.data.date < b.data.date ? -1 : a.data.date > b.data.date ? 1 : 0));
  cmds.push(...deposits);
  if (d.sent) cmds.push({ type: 'SendDocument', data: { to: ['client@example.nz'], cc: [], bcc: [], subject: `${formatReference(type, d.number)}` } });
  // A deposit issued it already.
  if (d.issued && deposits.length === 0) cmds.push({ type: 'MarkIssued' });
  cmds.push(...payments.filter((p) => p.data.date >= issueDate));
  if (d.markPaidOn) cmds.push({ type: 'MarkPaid', data: { paymentId: `${documentId}-paid`, date: d.markPaidOn, method: 'bank_transfer', reference: '' } });
  const removals: DocumentCommand[] = (d.removePayments ?? []).map((paymentId) => ({ type: 'RemovePayment', data: { paymentId } }));
  const ending: DocumentCommand[] = [];
  if (d.voided) ending.push({ type: 'VoidDocument', data: { reason: 'Raised in error' } });
  if (d.deleted) ending.push({ type: 'DeleteDraft' });
  return [...timed(cmds), ...timed(removals, d.removedAt), ...timed(ending, d.voidedAt)];
}

/** Decides and appends every document for the account; `perTransaction` documents per store transaction. */
export async function seedDocuments(store: EventStore, accountId: string, docs: readonly SeedDocument[], perTransaction = 500): Promise<LoggedEvent[]> {
  const log: LoggedEvent[] = [];
  for (let start = 0; start < docs.length; start += perTransaction) {
    const batch = docs.slice(start, start + perTransaction).map((d) => {
      const documentId = d.documentId ?? randomUUID();
      let state: DocumentState = documentDecider.initialState();
      const events: { event: DocumentEvent; at: string }[] = [];
      for (const { command, at } of commandsOf(d, documentId)) {
        for (const e of documentDecider.decide(command, state)) {
          events.push({ event: e, at });
          state = documentDecider.evolve(state, { ...e, meta: { at } });
        }
      }
      return { streamId: documentStreamId(documentId), events };
    });
    await store.transaction(async (tx) => {
      for (const b of batch) {
        const recorded = b.events.flatMap(({ event, at }) => toNewEvents([event], { accountId, at }));
        await tx.append(b.streamId, 0, recorded, []);
      }
    });
    for (const b of batch) for (const { event: e, at } of b.events) log.push({ stream: b.streamId, type: e.type, version: currentVersion(e.type), data: e.data, meta: { at, accountId } });
  }
  return log;
}
