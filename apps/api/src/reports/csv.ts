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
import { centsToString, roundReturnGst, type DateRange, type GstBasis } from '@tradie/domain';
import { GST_RETURN_LABELS } from '@tradie/contracts';
import { stringify } from 'csv-stringify/sync';
import type { InvoiceLine, PaymentLine } from './queries.ts';

type Cell = string | bigint | null;

const OPTIONS = {
  bom: true,
  escape_formulas: true,
  record_delimiter: 'windows',
  cast: { bigint: (cents: bigint): string => centsToString(cents) },
} as const;

const toCsv = (rows: Cell[][]): string => stringify(rows, OPTIONS);

const status = (paid: boolean): string => (paid ? 'Paid' : 'Unpaid');
const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;
const sum = <T>(items: readonly T[], f: (x: T) => bigint): bigint => items.reduce((a, x) => a + f(x), 0n);

export const INVOICE_HEADER = ['Reference', 'Issue date', 'Client', 'Client GST number', 'Excl. GST', 'GST', 'Incl. GST', 'Paid/unpaid', 'Paid date'];
export const GST_INVOICE_HEADER = [...INVOICE_HEADER, 'Time of supply'];
export const GST_PAYMENT_HEADER = [
  'Reference', 'Payment date', 'Client', 'Client GST number', 'Received excl. GST', 'GST', 'Received incl. GST', 'Invoice paid/unpaid', 'Invoice paid date', 'Invoice issue date',
];

const invoiceCells = (i: InvoiceLine): Cell[] => [
  i.reference, i.issueDate, i.clientName, i.clientGstNumber, i.subtotalCents, i.gstCents, i.totalCents, status(i.paid), i.paidDate,
];

/** Box rows: GST-inclusive sales (5–7) in the Incl. GST column, GST (8–10) in the GST column. */
function boxRows(salesCents: bigint, zeroRatedCents: bigint, width: number): Cell[][] {
  const box7 = salesCents - zeroRatedCents;
  const box8 = roundReturnGst(box7);
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
    row('box9', 0n, null),
    row('box10', box8, null),
  ];
}

/** The GST report on the invoice basis: one row per invoice supplied in the range. */
export function gstInvoiceCsv(invoices: readonly InvoiceLine[]): string {
  const paid = invoices.filter((i) => i.paid).length;
  const sales = sum(invoices, (i) => i.totalCents);
  const zero = sum(invoices, (i) => i.zeroRatedCents);
  return toCsv([
    GST_INVOICE_HEADER,
    ...invoices.map((i) => [...invoiceCells(i), i.supplyDate]),
    ['Total', null, plural(invoices.length, 'invoice'), null, sum(invoices, (i) => i.subtotalCents), sum(invoices, (i) => i.gstCents), sales, `${paid} paid, ${invoices.length - paid} unpaid`, null, null],
    ...boxRows(sales, zero, GST_INVOICE_HEADER.length),
  ]);
}

/** The GST report on the payments basis: one row per payment received in the range. */
export function gstPaymentsCsv(payments: readonly PaymentLine[]): string {
  const invoices = new Map<string, boolean>();
  for (const p of payments) invoices.set(p.documentId, p.invoicePaid);
  const paid = [...invoices.values()].filter(Boolean).length;
  const received = sum(payments, (p) => p.amountCents);
  const gst = sum(payments, (p) => p.gstCents);
  return toCsv([
    GST_PAYMENT_HEADER,
    ...payments.map((p): Cell[] => [
      p.reference, p.date, p.clientName, p.clientGstNumber, p.amountCents - p.gstCents, p.gstCents, p.amountCents, status(p.invoicePaid), p.paidDate, p.issueDate,
    ]),
    ['Total', null, `${plural(payments.length, 'payment')} on ${plural(invoices.size, 'invoice')}`, null, received - gst, gst, received, `${paid} paid, ${invoices.size - paid} unpaid`, null, null],
    ...boxRows(received, sum(payments, (p) => p.zeroRatedCents), GST_PAYMENT_HEADER.length),
  ]);
}

/** The annual summary: one row per invoice issued in the tax year, then Total, Paid and Unpaid. */
export function annualCsv(invoices: readonly InvoiceLine[]): string {
  const paid = invoices.filter((i) => i.paid);
  const unpaid = invoices.filter((i) => !i.paid);
  const totals = (label: string, rows: readonly InvoiceLine[], state: string): Cell[] => [
    label, null, plural(rows.length, 'invoice'), null, sum(rows, (i) => i.subtotalCents), sum(rows, (i) => i.gstCents), sum(rows, (i) => i.totalCents), state, null,
  ];
  return toCsv([
    INVOICE_HEADER,
    ...invoices.map(invoiceCells),
    totals('Total', invoices, `${paid.length} paid, ${unpaid.length} unpaid`),
    totals('Paid', paid, 'Paid'),
    totals('Unpaid', unpaid, 'Unpaid'),
  ]);
}

export function gstCsvFileName(range: DateRange, basis: GstBasis): string {
  return `gst-report-${range.start}-to-${range.end}${basis === 'payments' ? '-payments-basis' : ''}.csv`;
}

/** annual-report-2025-26.csv for the tax year ending 31 March 2026. */
export const annualCsvFileName = (year: number): string => `annual-report-${year - 1}-${String(year).slice(2)}.csv`;
