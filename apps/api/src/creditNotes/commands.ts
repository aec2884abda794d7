// Crediting an issued invoice and paying money back against a credit note. A credit note is
// numbered on the account's CN- sequence (the lock taken before any append, as a new quote or
// invoice is) and recorded on the invoice's stream, so a refusal (a draft, a void invoice, more
// than is left to credit) writes nothing, not even a number. Each sets off the invoice's
// reactions (the copy to Xero).
import type { CreditNoteRecord, creditNoteInput, creditNoteRefundInput } from '@tradie/contracts';
import { type CreditNote, type CreditRequest, type DocumentView, parseDecimalInput } from '@tradie/domain';
import { invoiceIdOfCreditNote } from '@tradie/projections';
import type { Sql } from '@tradie/store';
import type { z } from 'zod';
import type { Actor } from '../commands.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from '../documents/commands/run.ts';
import { type LoadedDocument, loadDocument, plausibleId, reserveReference } from '../documents/repository.ts';
import { loadBusinessSettings } from '../settings/repository.ts';
import { creditNoteRecordOf } from './view.ts';
import { giveBackToQuote } from './giveBack.ts';
import { Invalid, NotFound } from '../errors.ts';

export const CREDIT_NOTE_NOT_FOUND = 'Credit note not found';

export type IssueCreditNote = z.output<typeof creditNoteInput>;
export type RecordCreditNoteRefund = z.output<typeof creditNoteRefundInput>;

/** A JSON number or numeric text as exact decimal text, or a 422 naming `what`. */
function decimalText(v: number | string, what: string): string {
  const d = parseDecimalInput(v);
  if (!d) throw new Invalid(`${what} must be a number`);
  return d.toFixed();
}

function creditRequestOf(input: IssueCreditNote): CreditRequest {
  if (input.amount !== undefined) return { kind: 'amount', amount: decimalText(input.amount, 'Amount') };
  return {
    kind: 'lines',
    lines: (input.lines ?? []).map((l) => ({ lineIndex: l.line_index, qty: l.qty === undefined ? undefined : decimalText(l.qty, `Line ${l.line_index + 1}: qty`) })),
  };
}

const noteOf = (d: DocumentView, id: string): CreditNote => {
  const note = d.creditNotes.find((n) => n.creditNoteId === id);
  if (!note) throw new Error(`Credit note ${id} was just decided but is not on the invoice`);
  return note;
};

/** POST /invoices/{id}/credit-notes: the new credit note (201). */
export function issueCreditNote(ports: CommandPorts, actor: Actor, invoiceId: string, input: IssueCreditNote, key: string | undefined): Promise<Answer<CreditNoteRecord>> {
  const credit = creditRequestOf(input);
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: `documents:credit-note:${invoiceId}`, key, request: input } }, async (w) => {
    const numbering = await reserveReference(w.tx, actor.accountId, 'credit_note');
    const settings = await loadBusinessSettings(w.tx, actor.accountId);
    const id = ports.ids.uuid();
    const allocated = await numbering.allocate(id);
    const meta = w.meta();
    const done = await w.decide(
      invoiceId,
      {
        type: 'IssueCreditNote',
        data: {
          creditNoteId: id,
          number: allocated.number,
          reference: allocated.reference,
          date: w.today(),
          reason: input.reason,
          supplier: { name: settings.business_name || settings.trading_as, gstNumber: settings.gst_number },
          credit,
        },
      },
      { meta },
    );
    await allocated.record(meta);
    const note = noteOf(done.view, id);
    await giveBackToQuote(w, done.view, note);
    return creditNoteRecordOf(done.view, note);
  });
}

/**
 * The invoice a credit note is on, from the credit_notes read model; another account's credit
 * note is "not found" like one that does not exist.
 */
export async function invoiceOfCreditNote(sql: Sql, accountId: string, creditNoteId: string): Promise<string> {
  const invoiceId = plausibleId(creditNoteId) ? await invoiceIdOfCreditNote(sql, accountId, creditNoteId) : null;
  if (invoiceId === null) throw new NotFound(CREDIT_NOTE_NOT_FOUND);
  return invoiceId;
}

/** A credit note with its invoice, for a read. */
export async function loadCreditNote(store: { db: Sql } & Parameters<typeof loadDocument>[0], accountId: string, creditNoteId: string): Promise<{ invoice: LoadedDocument; note: CreditNote }> {
  const invoiceId = await invoiceOfCreditNote(store.db, accountId, creditNoteId);
  const invoice = await loadDocument(store, accountId, invoiceId);
  const note = invoice.state.creditNotes.find((n) => n.creditNoteId === creditNoteId);
  if (!note) throw new NotFound(CREDIT_NOTE_NOT_FOUND);
  return { invoice, note };
}

/** POST /credit-notes/{id}/refunds: the credit note with the refund (201). */
export async function recordCreditNoteRefund(ports: CommandPorts, actor: Actor, creditNoteId: string, input: RecordCreditNoteRefund, key: string | undefined): Promise<Answer<CreditNoteRecord>> {
  const invoiceId = await invoiceOfCreditNote(ports.store.db, actor.accountId, creditNoteId);
  const amount = decimalText(input.amount, 'Amount');
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: `credit-notes:refund:${creditNoteId}`, key, request: input } }, async (w) => {
    const done = await w.decide(invoiceId, {
      type: 'RecordCreditNoteRefund',
      data: { creditNoteId, refundId: ports.ids.uuid(), amount, date: input.date ?? w.today(), method: input.method, reference: input.reference },
    });
    return creditNoteRecordOf(done.view, noteOf(done.view, creditNoteId));
  });
}
