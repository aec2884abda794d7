// The deposit a quote asks for, invoiced the moment the client accepts it through its link: the
// quote's deposit stage is recorded, its invoice drafted (due on receipt), issued, and given its
// own link, so the client goes straight on to pay it (Pay now, or the bank details with the
// invoice's reference). It is its own transaction after the acceptance's: an acceptance is never
// lost to a deposit that cannot be issued now (the business's GST details, a payment claim's
// missing details). Then the quote page says the business will send the deposit invoice, and the
// tradie's quote says it is not invoiced yet, with the stage form ready to invoice it.
import { type DocumentView, DUE_ON_RECEIPT, DomainError, centsToString, depositStageRequest, documentFigures, formatNzd } from '@tradie/domain';
import type { PublicBankDetails, PublicQuotePage } from '@tradie/contracts';
import type { Sql, StoreTx } from '@tradie/store';
import type { AppDeps } from '../deps.ts';
import { invoiceStageIn } from '../documents/commands/stages.ts';
import { type CommandPorts, runDocumentCommand } from '../documents/commands/run.ts';
import { loadDocument } from '../documents/repository.ts';
import { AppError } from '../errors.ts';
import { paymentOfferFor } from '../payments/offer.ts';
import { type BusinessSettings, gstRegistrationOf, loadBusinessSettings } from '../settings/repository.ts';
import { activeLinkOf, ensureLinkIn } from './links.ts';

/** The stage that invoiced the quote's deposit, while its invoice stands. */
export const depositStageOf = (d: Pick<DocumentView, 'stages'>) => d.stages.find((s) => s.kind === 'deposit') ?? null;

/** A quote accepted with a deposit asked for and not invoiced yet. */
export const depositOwed = (d: Pick<DocumentView, 'type' | 'status' | 'deposit' | 'stages'>): boolean =>
  d.type === 'quote' && d.status === 'accepted' && d.deposit !== null && depositStageOf(d) === null;

/**
 * After the client's acceptance: invoices and issues the deposit, with the invoice's link. Nothing
 * to do (none asked for, or invoiced already by a double tap) does nothing; a refusal is logged
 * and leaves the deposit to the business.
 */
export async function invoiceDepositOnAcceptance(ports: CommandPorts, actor: { accountId: string; userId: string }, quoteId: string): Promise<void> {
  try {
    await runDocumentCommand(ports, actor, {}, async (w) => {
      const d = (await w.load(quoteId)).state;
      if (!depositOwed(d) || !d.deposit) return;
      const invoice = await invoiceStageIn(w, ports, actor.accountId, quoteId, depositStageRequest(d.deposit), { paymentTerms: DUE_ON_RECEIPT });
      const gst = gstRegistrationOf(await loadBusinessSettings(w.tx, actor.accountId));
      await w.decide(invoice.view.id, { type: 'MarkIssued', data: { gst } });
      await ensureLinkIn(w, ports, actor.accountId, invoice.view.id);
    });
  } catch (e) {
    if (!(e instanceof AppError) && !(e instanceof DomainError)) throw e;
    ports.log('info', 'deposit not invoiced on acceptance', { accountId: actor.accountId, quoteId, reason: e.message });
  }
}

/** The business's bank account as the client's pages show it; null when none is given. */
export function bankDetailsOf(settings: BusinessSettings): PublicBankDetails {
  return [settings.bank_name, settings.bank_account_name, settings.bank_account_number].some((v) => v.trim() !== '')
    ? { bank_name: settings.bank_name, account_name: settings.bank_account_name, account_number: settings.bank_account_number }
    : null;
}

/** What the accepted quote's page says of its deposit invoice; null when there is none standing. */
export async function depositInvoiceOf(
  deps: Pick<AppDeps, 'store' | 'secrets' | 'config' | 'connect'>,
  sql: Sql,
  streams: Pick<StoreTx, 'readStream'>,
  accountId: string,
  quote: DocumentView,
  settings: BusinessSettings,
): Promise<PublicQuotePage['deposit_invoice']> {
  const stage = quote.type === 'quote' ? depositStageOf(quote) : null;
  if (!stage) return null;
  const invoice = (await loadDocument(streams, accountId, stage.invoiceId)).state;
  const link = await activeLinkOf(deps, sql, accountId, invoice);
  if (!link || invoice.status === 'draft' || invoice.status === 'void') return null;
  const f = documentFigures(invoice);
  const offer = f.balanceCents > 0n ? await paymentOfferFor(deps, accountId, centsToString(f.balanceCents), sql) : null;
  return {
    reference: invoice.reference,
    formatted: { total: formatNzd(f.totalCents), balance: formatNzd(f.balanceCents > 0n ? f.balanceCents : 0n) },
    due_date: invoice.dueDate,
    paid: f.balanceCents <= 0n,
    path: new URL(link.url).pathname,
    pay_by_card: offer !== null,
    bank: bankDetailsOf(settings),
  };
}
