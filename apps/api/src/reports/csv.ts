// The CSV exports an accountant opens in a spreadsheet. RFC 4180 through csv-stringify (quoting,
// CRLF record ends), UTF-8 with a byte-order mark so Excel on Windows reads macrons (Kōwhai,
// Māori names) as UTF-8 rather than as Windows-1252. A header row, one row per invoice (or per
// payment on the payments basis), then the totals — and on the GST export the return boxes.
//
// Amounts go to the stringifier as whole cents (bigint) and come out as plain 2-decimal numbers
// ("1234.50": no currency symbol, no thousands separator). Text cells that begin with =, +, -, @,
// tab or carriage return (and their full-width forms) are neutralised with a leading ' by the
// stringifier's escape_formulas option, so a client named =HYPERLINK(…) stays text. Amounts are
// bigints, which the option leaves alone, so a number is never turned into text.
//
// Corrections are rows of their own, dated the day they were made, with negative amounts: an
// invoice voided in the range ('Voided <date>' in the status column), a payment removed in it
// ('Payment removed'), a credit note issued in it ('Credit note for INV-…', reference CN-…), money
// paid back on a credit note ('Refunded'), and on the payments basis the GST a credit note moves on
// money already received when it leaves nothing owed (CREDIT_ON_MONEY_HELD, no money). The totals
// are the net figures the report shows.
//
// On the invoice basis, invoices carried from a period already exported for the accountant follow
// the period's own rows under an 'Adjustments to carry' row, each saying where it comes from
// ('Carried from Jan–Feb 2027'); the totals include them, as the report's do.
import { NO_PURCHASES, centsToString, purchaseBoxesCents, salesBoxesCents, toCents, type DateRange, type GstBasis, type PurchaseAdjustments, type PurchaseSums } from '@tradie/domain';
import { GST_RETURN_LABELS } from '@tradie/contracts';
import { stringify } from 'csv-stringify/sync';
import type { InvoiceLine, PaymentLine } from './queries.ts';

export type Cell = string | bigint | null;

const OPTIONS = {
  bom: true,
  escape_formulas: true,
  record_delimiter: 'windows',
  cast: { bigint: (cents: bigint): string => centsToString(cents) },
} as const;

/** Rows as the exports write them (every CSV of the app and of the accountant's ZIP goes through here). */
export const toCsv = (rows: Cell[][]): string => stringify(rows, OPTIONS);

const status = (paid: boolean): string => (paid ? 'Paid' : 'Unpaid');
/** The status cell of a credit note's row, naming the invoice it corrects (here and in the accountant's invoices.csv). */
export const creditNoteStatus = (invoiceReference: string): string => `Credit note for ${invoiceReference}`;
/** The status cell of an invoice carried from an exported period. */
export const carriedStatus = (from: string): string => `Carried from ${from}`;
/** Paid / Unpaid; 'Voided <date>' for an invoice voided since; 'Reversal of void' for the correction row. */
const lineStatus = (i: InvoiceLine): string =>
  i.kind === 'void' ? 'Reversal of void'
  : i.kind === 'credit' ? creditNoteStatus(i.creditOf ?? '')
  : i.kind === 'carried' ? `${carriedStatus(i.carriedFrom ?? '')}, ${i.voidDate ? `voided ${i.voidDate}` : status(i.paid).toLowerCase()}`
  : i.voidDate ? `Voided ${i.voidDate}` : status(i.paid);

/** The row that heads the invoices carried into the range. */
export const ADJUSTMENTS_TO_CARRY = 'Adjustments to carry';
const ADJUSTMENTS_NOTE = 'Invoices that count in a GST period already exported, issued after that export: reported here';

/** '2 paid, 1 unpaid' or '2 paid, 1 unpaid, 1 voided' over the invoices counted (not the reversal rows). */
function paidSplit(items: readonly { paid: boolean; voided: boolean }[]): string {
  const paid = items.filter((i) => i.paid).length;
  const voided = items.filter((i) => i.voided).length;
  const unpaid = items.length - paid - voided;
  return `${paid} paid, ${unpaid} unpaid${voided > 0 ? `, ${voided} voided` : ''}`;
}
const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;
const sum = <T>(items: readonly T[], f: (x: T) => bigint): bigint => items.reduce((a, x) => a + f(x), 0n);

export const INVOICE_HEADER = ['Reference', 'Issue date', 'Client', 'Client GST number', 'Excl. GST', 'GST', 'Incl. GST', 'Paid/unpaid', 'Paid date'];
export const GST_INVOICE_HEADER = [...INVOICE_HEADER, 'Time of supply'];
export const GST_PAYMENT_HEADER = [
  'Reference', 'Payment date', 'Client', 'Client GST number', 'Received excl. GST', 'GST', 'Received incl. GST', 'Invoice paid/unpaid', 'Invoice paid date', 'Invoice issue date',
];

const invoiceCells = (i: InvoiceLine): Cell[] => [
  i.reference, i.issueDate, i.clientName, i.clientGstNumber, i.subtotalCents, i.gstCents, i.totalCents, lineStatus(i), i.kind === 'invoice' || i.kind === 'carried' ? i.paidDate : null,
];

/** '3 invoices', '3 invoices, 1 voided' or '3 invoices, 2 credit notes'. */
function invoiceCount(lines: readonly InvoiceLine[]): string {
  const voids = lines.filter((i) => i.kind === 'void').length;
  const credits = lines.filter((i) => i.kind === 'credit').length;
  const invoices = plural(lines.length - voids - credits, 'invoice');
  return `${invoices}${voids === 0 ? '' : `, ${voids} voided`}${credits === 0 ? '' : `, ${plural(credits, 'credit note')}`}`;
}

/**
 * Box rows: GST-inclusive amounts (5–7, 11) in the Incl. GST column, GST (8–10, 12–15) in the GST
 * column; the purchases boxes from the same function as the report's.
 */
function boxRows(salesCents: bigint, zeroRatedCents: bigint, width: number, purchases: PurchaseSums = NO_PURCHASES, debitAdjustmentsCents = 0n): Cell[][] {
  const { box7, box8, box9, box10 } = salesBoxesCents(salesCents, zeroRatedCents, debitAdjustmentsCents);
  const p = purchaseBoxesCents(purchases, box10);
  const row = (box: keyof typeof GST_RETURN_LABELS, gst: bigint | null, incl: bigint | null): Cell[] => {
    const cells: Cell[] = [`Box ${box.slice(3)}`, null, GST_RETURN_LABELS[box], null, null, gst, incl];
    while (cells.length < width) cells.push(null);
    return cells;
  };
  return [
    row('box5', null, salesCents),
    row('box6', null, zeroRatedCents),
    row('box7', null, box7),
    row('box8', box8, null),
    row('box9', box9, null),
    row('box10', box10, null),
    row('box11', null, p.box11),
    row('box12', p.box12, null),
    row('box13', p.box13, null),
    row('box14', p.box14, null),
    row('box15', p.box15, null),
  ];
}

/** The GST report on the invoice basis: one row per invoice supplied in the range, and per invoice voided in it. */
export function gstInvoiceCsv(lines: readonly InvoiceLine[], purchases: PurchaseSums & { adjustments?: PurchaseAdjustments } = NO_PURCHASES, debitAdjustmentsCents = 0n): string {
  const invoices = lines.filter((i) => i.kind === 'invoice' || i.kind === 'carried').map((i) => ({ paid: i.paid, voided: i.voidDate !== null }));
  const sales = sum(lines, (i) => i.totalCents);
  const zero = sum(lines, (i) => i.zeroRatedCents);
  const carried = lines.filter((i) => i.kind === 'carried');
  const row = (i: InvoiceLine): Cell[] => [...invoiceCells(i), i.kind === 'void' ? i.voidDate : i.supplyDate];
  return toCsv([
    GST_INVOICE_HEADER,
    ...lines.filter((i) => i.kind !== 'carried').map(row),
    ...(carried.length === 0 ? [] : [[ADJUSTMENTS_TO_CARRY, null, ADJUSTMENTS_NOTE, null, null, null, null, null, null, null], ...carried.map(row)]),
    ['Total', null, invoiceCount(lines), null, sum(lines, (i) => i.subtotalCents), sum(lines, (i) => i.gstCents), sales, paidSplit(invoices), null, null],
    ...boxRows(sales, zero, GST_INVOICE_HEADER.length, purchases, debitAdjustmentsCents),
    ...purchaseAdjustmentRows(purchases.adjustments?.lines ?? [], GST_INVOICE_HEADER.length),
  ]);
}

/** The row that heads the cost changes carried into the range (after the Boxes, which include them). */
export const PURCHASE_ADJUSTMENTS = 'Purchase adjustments to carry';
const PURCHASE_ADJUSTMENTS_NOTE = 'Costs recorded, changed or deleted after their GST period was exported: in Boxes 11 and 12 above';

/** A row per carried cost line: its supplier and own date, what it adds to Box 11 (Incl. GST), where it comes from, and the day it counts on. */
function purchaseAdjustmentRows(lines: PurchaseAdjustments['lines'], width: number): Cell[][] {
  if (lines.length === 0) return [];
  const pad = (cells: Cell[]): Cell[] => [...cells, ...Array<Cell>(Math.max(0, width - cells.length)).fill(null)];
  return [
    pad([PURCHASE_ADJUSTMENTS, null, PURCHASE_ADJUSTMENTS_NOTE]),
    ...lines.map((l) =>
      pad([
        l.change === 'added' ? 'Cost added' : 'Cost taken back', l.date, l.supplier, null, null, null, toCents(String(l.claimed)),
        `${carriedStatus(l.exported_period)}${l.claimed === 0 && l.amount !== 0 ? ', GST not claimed' : ''}`, null, l.carried_to,
      ]),
    ),
  ];
}

/** What a payments-basis row is: a correction's own words, or the invoice's status for a payment. */
const paymentLineStatus = (p: PaymentLine): string =>
  p.kind === 'removal' ? 'Payment removed'
  : p.kind === 'refund' ? 'Refunded'
  : p.kind === 'credit' ? CREDIT_ON_MONEY_HELD
  : p.invoiceVoided ? 'Voided' : status(p.invoicePaid);

/**
 * A credit note that left nothing owed on money already received: a row of no money that moves
 * the GST (and zero-rated part) that money carries to what is left of the invoice.
 */
export const CREDIT_ON_MONEY_HELD = 'Credit note: GST on money received';

/** The GST report on the payments basis: one row per payment received in the range, and per payment removed in it. */
export function gstPaymentsCsv(payments: readonly PaymentLine[], purchases: PurchaseSums = NO_PURCHASES, debitAdjustmentsCents = 0n): string {
  const invoices = new Map<string, { paid: boolean; voided: boolean }>();
  const received = payments.filter((p) => p.kind === 'payment');
  for (const p of received) invoices.set(p.documentId, { paid: p.invoicePaid, voided: p.invoiceVoided });
  // A removed payment and money paid back are different things: each is named as what it is.
  const removed = payments.filter((p) => p.kind === 'removal').length;
  const refunds = payments.filter((p) => p.kind === 'refund').length;
  const net = sum(payments, (p) => p.amountCents);
  const gst = sum(payments, (p) => p.gstCents);
  const corrections = [...(removed > 0 ? [`${removed} removed`] : []), ...(refunds > 0 ? [plural(refunds, 'refund')] : [])];
  const counted = `${plural(received.length, 'payment')}${corrections.length > 0 ? ` (${corrections.join(', ')})` : ''} on ${plural(invoices.size, 'invoice')}`;
  return toCsv([
    GST_PAYMENT_HEADER,
    ...payments.map((p): Cell[] => [
      p.reference, p.date, p.clientName, p.clientGstNumber, p.amountCents - p.gstCents, p.gstCents, p.amountCents,
      paymentLineStatus(p), p.kind !== 'payment' ? null : p.paidDate, p.issueDate,
    ]),
    ['Total', null, counted, null, net - gst, gst, net, paidSplit([...invoices.values()]), null, null],
    ...boxRows(net, sum(payments, (p) => p.zeroRatedCents), GST_PAYMENT_HEADER.length, purchases, debitAdjustmentsCents),
  ]);
}

/**
 * The annual summary: one row per invoice issued in the tax year, per invoice voided in it and per
 * credit note issued in it, then Total, Paid and Unpaid (each row on the side of its invoice: a
 * credit note of a paid invoice lowers Paid), and apart: Credited (the credit notes' rows) and
 * Refunded (money paid back in the year, GST included, in the Incl. GST column).
 */
export function annualCsv(lines: readonly InvoiceLine[], refunded: { count: number; cents: bigint }): string {
  const invoices = lines.filter((i) => i.kind === 'invoice');
  const paid = lines.filter((i) => i.kind !== 'void' && i.paid);
  // Unpaid is what is left of the net total: unpaid invoices and their credit notes, less those voided in the year.
  const unpaid = lines.filter((i) => i.kind === 'void' || !i.paid);
  const credits = lines.filter((i) => i.kind === 'credit');
  const totals = (label: string, rows: readonly InvoiceLine[], state: string): Cell[] => [
    label, null, invoiceCount(rows), null, sum(rows, (i) => i.subtotalCents), sum(rows, (i) => i.gstCents), sum(rows, (i) => i.totalCents), state, null,
  ];
  return toCsv([
    INVOICE_HEADER,
    ...lines.map(invoiceCells),
    totals('Total', lines, paidSplit(invoices.map((i) => ({ paid: i.paid, voided: i.voidDate !== null })))),
    totals('Paid', paid, 'Paid'),
    totals('Unpaid', unpaid, 'Unpaid'),
    ['Credited', null, plural(credits.length, 'credit note'), null, sum(credits, (i) => i.subtotalCents), sum(credits, (i) => i.gstCents), sum(credits, (i) => i.totalCents), 'Credit notes', null],
    ['Refunded', null, plural(refunded.count, 'refund'), null, null, null, refunded.cents, 'Paid back to clients', null],
  ]);
}

export function gstCsvFileName(range: DateRange, basis: GstBasis): string {
  return `gst-report-${range.start}-to-${range.end}${basis === 'payments' ? '-payments-basis' : ''}.csv`;
}

/** annual-report-2025-26.csv for the tax year ending 31 March 2026. */
export const annualCsvFileName = (year: number): string => `annual-report-${year - 1}-${String(year).slice(2)}.csv`;
