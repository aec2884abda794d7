// Payment claims under the Construction Contracts Act 2002: set, cleared, the payment schedule, retention released.
import { clientDisplayName } from '../../clients/displayName.ts';
import { compareDates } from '../../dates/dates.ts';
import { conflict } from '../../errors.ts';
import { documentTotals } from '../../gst/gst.ts';
import { centsToString } from '../../money/money.ts';
import { CCA_FORM_1 } from '../ccaForm1.ts';
import type { DocumentEvent } from '../events.ts';
import { type DocumentFigures, documentFigures } from '../figures.ts';
import { type PaymentClaim, type PaymentClaimDetails, checkClaimDetails, chosenPaymentDueDate, siteOnOneLine, checkRetentionRelease, checkSchedule, claimNotReady, invoiceClaimCalculation, missingClaimElements, retentionCents, retentionHeldCents } from '../paymentClaims.ts';
import type { DocumentView, DocumentState } from '../view.ts';
import { requireExisting, requireInvoice, requireNotVoid, type CommandOf } from './guards.ts';

// ---- payment claims (Construction Contracts Act 2002) ------------------------------------

/** A payment claim is served only with every element s 20 requires; the refusal lists what is missing. */
export function requireClaimReady(d: DocumentView): void {
  if (!d.paymentClaim || d.paymentClaim.servedOn !== null) return;
  const missing = missingClaimElements(d.paymentClaim, { clientName: d.client ? clientDisplayName(d.client) : '', totalCents: documentTotals(d.lines, d.gstRounding).totalCents });
  if (missing.length > 0) claimNotReady(missing);
}

export function requireDraftInvoice(state: DocumentState, what: string): DocumentView {
  const d = requireExisting(state);
  requireInvoice(d, what);
  requireNotVoid(d);
  if (d.status !== 'draft') throw conflict('This invoice has been issued, so its payment claim details can no longer change. Credit it or void it and make a new claim.');
  return d;
}

export function decideSetPaymentClaim(command: CommandOf<'SetPaymentClaim'>, state: DocumentState): DocumentEvent[] {
  const d = requireDraftInvoice(state, 'be payment claims');
  const { dueDateChoice, today, ...given } = command.data;
  const details: PaymentClaimDetails = { ...given, site: siteOnOneLine(given.site), paymentDueDate: chosenPaymentDueDate(given, dueDateChoice ?? null, d.termsDueDate, compareDates(today, d.issueDate) > 0 ? today : d.issueDate) };
  checkClaimDetails(details, d.issueDate);
  return [{ type: 'PaymentClaimSet', data: { documentId: d.id, ...details, form1Version: CCA_FORM_1.version } }];
}

export function decideClearPaymentClaim(_command: CommandOf<'ClearPaymentClaim'>, state: DocumentState): DocumentEvent[] {
  const d = requireDraftInvoice(state, 'be payment claims');
  return d.paymentClaim ? [{ type: 'PaymentClaimCleared', data: { documentId: d.id } }] : [];
}

export function requireClaim(state: DocumentState): DocumentView & { paymentClaim: PaymentClaim } {
  const d = requireExisting(state);
  requireNotVoid(d);
  if (!d.paymentClaim) throw conflict('This invoice is not a payment claim under the Construction Contracts Act 2002');
  return d as DocumentView & { paymentClaim: PaymentClaim };
}

/** The retention withheld on this claim: its percent of the invoice's total. */
export const claimRetentionCents = (d: Pick<DocumentView, 'lines' | 'gstRounding'> & { paymentClaim: Pick<PaymentClaim, 'retentionPercent'> }): bigint =>
  retentionCents(documentTotals(d.lines, d.gstRounding).totalCents, d.paymentClaim.retentionPercent);

/**
 * What is owed now: the balance less any retention held back on a payment claim (owed, but not due
 * until released). Payment reminders chase this, never retention the payer is entitled to hold.
 */
export function amountDueNowCents(d: DocumentView, f: DocumentFigures = documentFigures(d)): bigint {
  if (!d.paymentClaim || f.balanceCents <= 0n) return f.balanceCents;
  const due = f.balanceCents - retentionHeldCents(d.paymentClaim, claimRetentionCents(d as DocumentView & { paymentClaim: PaymentClaim }));
  return due > 0n ? due : 0n;
}

export function decideRecordPaymentSchedule(command: CommandOf<'RecordPaymentSchedule'>, state: DocumentState): DocumentEvent[] {
  const d = requireClaim(state);
  const claimed = invoiceClaimCalculation(d, d.paymentClaim.retentionPercent).claimedCents;
  const cents = checkSchedule(command.data, d.paymentClaim, claimed);
  return [{ type: 'PaymentScheduleReceived', data: { documentId: d.id, receivedOn: command.data.receivedOn, scheduledAmount: centsToString(cents), reasons: command.data.reasons.trim() } }];
}

export function decideReleaseRetention(command: CommandOf<'ReleaseRetention'>, state: DocumentState): DocumentEvent[] {
  const d = requireClaim(state);
  if (d.paymentClaim.retentionReleases.some((r) => r.releaseId === command.data.releaseId)) return [];
  const held = retentionHeldCents(d.paymentClaim, claimRetentionCents(d));
  const cents = checkRetentionRelease(command.data.amount, command.data.date, held);
  return [{ type: 'RetentionReleased', data: { documentId: d.id, releaseId: command.data.releaseId, amount: centsToString(cents), date: command.data.date } }];
}
