// A payment claim as it reads: one function (claimFiguresOf) works out its dates, what is missing,
// its calculation, the payer's schedule and the retention held, and the screen (the API record),
// the PDF and the email are each made from its answer, so they state the same amounts and dates.
import type { PaymentClaimRecord } from '@tradie/contracts';
import {
  CCA_FORM_1, CCA_STATEMENT, type ClaimCalculation, type ClaimDates, type DocumentView, type DueDateChoice, type DueDateQuestion, type LocalDate, type MissingElement,
  type PaymentClaimDetails, addDays, centsToNumber, claimDates, clientDisplayName, compareDates, documentTotals, dueDateChosen, dueDateQuestion, formatNzDateLong, formatNzd,
  invoiceClaimCalculation, latestSchedule, missingClaimElements, nzDateOf, retentionHeldCents, siteOnOneLine, stageClaimCalculation, toCents,
} from '@tradie/domain';
import type { PdfClaim } from '@tradie/pdf';
import type { StoreTx } from '@tradie/store';
import { loadDocument } from '../documents/repository.ts';

/** The quote an invoice was invoiced from in stages, when it was (null for any other invoice). */
export async function stageQuoteOf(tx: Pick<StoreTx, 'readStream'>, accountId: string, d: DocumentView): Promise<DocumentView | null> {
  if (d.type !== 'invoice' || !d.convertedFrom) return null;
  const quote = await loadDocument(tx, accountId, d.convertedFrom).catch(() => null);
  return quote && quote.state.stages.some((s) => s.invoiceId === d.id) ? quote.state : null;
}

export interface ClaimFigures {
  details: PaymentClaimDetails;
  dates: ClaimDates;
  missing: MissingElement[];
  calculation: ClaimCalculation;
  schedule: { receivedOn: LocalDate; scheduledCents: bigint; reasons: string; differenceCents: bigint } | null;
  retentionHeldCents: bigint;
  scheduleStatus: string;
  /** The amounts include GST: false when the business was not registered for GST when the invoice was saved. */
  gstIncluded: boolean;
  /** Before service, when the Act's default due date and the invoice's own differ: the question, and which one the details stand for (null: not a claim yet). */
  dueDate: (DueDateQuestion & { chosen: DueDateChoice | 'contract' | null }) | null;
}

/** The claim's figures (or, for an invoice that is not a claim yet, what they would be with `details`). */
export function claimFiguresOf(d: DocumentView, quote: DocumentView | null, today: LocalDate, given: PaymentClaimDetails = d.paymentClaim!): ClaimFigures {
  const claim = d.paymentClaim;
  // The site's lines kept apart on one line, however it was stored (a claim saved before this rule).
  const details = { ...given, site: siteOnOneLine(given.site) };
  const dates = claimDates({ servedOn: claim?.servedOn ?? null, paymentDueDate: details.paymentDueDate, scheduleWorkingDays: details.scheduleWorkingDays }, today);
  const calculation = (quote && stageClaimCalculation(quote, d.id, details.retentionPercent, claim?.servedAt ?? null)) ?? invoiceClaimCalculation(d, details.retentionPercent);
  const totalCents = documentTotals(d.lines, d.gstRounding).totalCents;
  const missing = missingClaimElements(details, { clientName: d.client ? clientDisplayName(d.client) : '', totalCents });
  const last = claim ? latestSchedule(claim) : null;
  const schedule = last
    ? { receivedOn: last.receivedOn, scheduledCents: toCents(last.scheduledAmount), reasons: last.reasons, differenceCents: calculation.claimedCents - toCents(last.scheduledAmount) }
    : null;
  const held = claim ? retentionHeldCents(claim, calculation.retentionCents) : calculation.retentionCents;
  // As the decider asks it (documents dated ahead are served no earlier than their date).
  const question = claim?.servedOn ? null : dueDateQuestion(d.termsDueDate, compareDates(dates.servedOn, d.issueDate) >= 0 ? dates.servedOn : d.issueDate);
  const dueDate = question ? { ...question, chosen: d.paymentClaim ? dueDateChosen(details.paymentDueDate, d.termsDueDate) : null } : null;
  return {
    details, dates, missing, calculation, schedule, retentionHeldCents: held, scheduleStatus: scheduleStatusOf(dates, schedule, calculation.claimedCents, today), dueDate,
    gstIncluded: d.gstRegistered !== false,
  };
}

function scheduleStatusOf(dates: ClaimDates, schedule: ClaimFigures['schedule'], claimedCents: bigint, today: LocalDate): string {
  const by = formatNzDateLong(dates.scheduleDueBy);
  if (!dates.served) return `Payment schedule due by ${by} if the claim is served today (20 working days after service unless the contract says otherwise)`;
  if (schedule) {
    const got = `Payment schedule received ${formatNzDateLong(schedule.receivedOn)}: ${formatNzd(schedule.scheduledCents)} scheduled`;
    return schedule.differenceCents === 0n ? `${got}, the full claimed amount` : `${got}, ${formatNzd(schedule.differenceCents)} less than the ${formatNzd(claimedCents)} claimed`;
  }
  if (compareDates(today, dates.scheduleDueBy) > 0) return `No payment schedule received by ${by}: the claimed amount of ${formatNzd(claimedCents)} is due on ${formatNzDateLong(dates.paymentDue)}`;
  return `Payment schedule due by ${by}`;
}

const detailsRecord = (c: PaymentClaimDetails): PaymentClaimRecord['details'] => ({
  contract_reference: c.contractReference,
  contract_date: c.contractDate,
  site: c.site,
  work: c.work,
  period_from: c.periodFrom,
  period_to: c.periodTo,
  retention_percent: c.retentionPercent,
  payment_due_date: c.paymentDueDate,
  schedule_working_days: c.scheduleWorkingDays,
});

/**
 * The details suggested for an invoice that is not a claim yet: the contract of the claim before
 * it on the same quote (the next period starting the day after), or the quote itself.
 */
export function suggestedDetails(d: DocumentView, quote: DocumentView | null, previous: DocumentView | null): PaymentClaimDetails {
  const work = (quote ?? d).lines.map((l) => l.description.trim()).filter((x) => x !== '').join('; ').slice(0, 1000);
  const base: PaymentClaimDetails = {
    contractReference: quote ? `Quote ${quote.reference}` : '',
    contractDate: quote?.acceptedAt ? nzDateOf(quote.acceptedAt) : null,
    site: siteOnOneLine(d.client?.address ?? ''),
    work,
    periodFrom: quote?.acceptedAt ? nzDateOf(quote.acceptedAt) : null,
    periodTo: d.issueDate,
    retentionPercent: '0',
    paymentDueDate: null,
    scheduleWorkingDays: null,
  };
  const p = previous?.paymentClaim;
  if (!p) return base;
  return { ...base, contractReference: p.contractReference, contractDate: p.contractDate, site: p.site, work: p.work, retentionPercent: p.retentionPercent, scheduleWorkingDays: p.scheduleWorkingDays, periodFrom: p.periodTo ? addDays(p.periodTo, 1) : base.periodFrom };
}

export function claimRecordOf(d: DocumentView, version: number, f: ClaimFigures): PaymentClaimRecord {
  const c = f.calculation;
  return {
    invoice_id: d.id,
    reference: d.reference,
    active: d.paymentClaim !== null,
    editable: d.status === 'draft',
    details: detailsRecord(f.details),
    served_on: f.dates.served ? f.dates.servedOn : null,
    payment_due: f.dates.paymentDue,
    schedule_due_by: f.dates.scheduleDueBy,
    schedule_status: f.scheduleStatus,
    due_date_question: f.dueDate ? { act_due: f.dueDate.actDue, invoice_due: f.dueDate.invoiceDue, text: f.dueDate.text, chosen: f.dueDate.chosen } : null,
    missing: f.missing,
    calculation: {
      contract_sum: centsToNumber(c.contractSumCents),
      variations: centsToNumber(c.variationsCents),
      lines: c.lines.map((l) => ({
        description: l.description, value: centsToNumber(l.valueCents), percent_to_date: l.percentToDate, to_date: centsToNumber(l.toDateCents),
        previous: centsToNumber(l.previousCents), this_claim: centsToNumber(l.thisClaimCents), variation: l.variation,
      })),
      to_date: centsToNumber(c.toDateCents),
      previously_claimed: centsToNumber(c.previouslyClaimedCents),
      this_claim: centsToNumber(c.thisClaimCents),
      retention_percent: c.retentionPercent,
      retention: centsToNumber(c.retentionCents),
      claimed: centsToNumber(c.claimedCents),
      earlier: c.earlier.map((e) => ({ reference: e.reference, total: centsToNumber(e.totalCents) })),
    },
    schedule: f.schedule ? { received_on: f.schedule.receivedOn, scheduled_amount: centsToNumber(f.schedule.scheduledCents), reasons: f.schedule.reasons, difference: centsToNumber(f.schedule.differenceCents) } : null,
    retention_held: centsToNumber(f.retentionHeldCents),
    retention_releases: (d.paymentClaim?.retentionReleases ?? []).map((r) => ({ id: r.releaseId, amount: centsToNumber(toCents(r.amount)), date: r.date })),
    statement: CCA_STATEMENT,
    form1: { version: d.paymentClaim?.form1Version ?? CCA_FORM_1.version, source: CCA_FORM_1.source },
    version,
  };
}

const period = (c: PaymentClaimDetails): string => (c.periodFrom && c.periodTo ? `${formatNzDateLong(c.periodFrom)} to ${formatNzDateLong(c.periodTo)}` : '');

/** What the PDF prints for a claim: all text, made from the same figures as the screen. */
export function pdfClaimOf(f: ClaimFigures): PdfClaim {
  const c = f.calculation;
  return {
    statement: CCA_STATEMENT,
    contractReference: f.details.contractReference,
    contractDate: f.details.contractDate ? formatNzDateLong(f.details.contractDate) : '',
    site: f.details.site,
    work: f.details.work,
    period: period(f.details),
    claimedAmount: formatNzd(c.claimedCents),
    paymentDue: formatNzDateLong(f.dates.paymentDue),
    scheduleDueBy: formatNzDateLong(f.dates.scheduleDueBy),
    lines: c.lines.map((l) => ({
      description: l.variation ? `${l.description} (variation)` : l.description,
      value: formatNzd(l.valueCents),
      percentToDate: l.percentToDate === null ? '' : `${l.percentToDate} %`,
      previous: formatNzd(l.previousCents),
      thisClaim: formatNzd(l.thisClaimCents),
    })),
    contractSum: formatNzd(c.contractSumCents),
    variations: formatNzd(c.variationsCents),
    revisedSum: formatNzd(c.contractSumCents + c.variationsCents),
    toDate: formatNzd(c.toDateCents),
    previouslyClaimed: formatNzd(c.previouslyClaimedCents),
    thisClaim: formatNzd(c.thisClaimCents),
    retentionLabel: `Less retention withheld (${c.retentionPercent} %)`,
    retention: formatNzd(c.retentionCents),
    earlier: c.earlier.map((e) => `${e.reference} ${formatNzd(e.totalCents)}`),
    gstIncluded: f.gstIncluded,
    form1: CCA_FORM_1,
  };
}

/** The claim's paragraph in the email: the statement, the amount, the dates, and the Form 1 notice in full. */
export function claimEmailText(f: ClaimFigures, form1Text: string): string {
  return [
    CCA_STATEMENT,
    `Construction contract: ${f.details.contractReference}${f.details.contractDate ? ` (${formatNzDateLong(f.details.contractDate)})` : ''}, ${f.details.site}.`,
    `Work: ${f.details.work}. Period: ${period(f.details)}.`,
    `Claimed amount: ${formatNzd(f.calculation.claimedCents)}${f.gstIncluded ? ' (GST included)' : ''}, due for payment on ${formatNzDateLong(f.dates.paymentDue)}. The calculation is in the attached PDF.`,
    `Payment schedule due by ${formatNzDateLong(f.dates.scheduleDueBy)}.`,
    '',
    form1Text,
  ].join('\n');
}
