// "Export for my accountant": one ZIP holding a period's invoices, credit notes, payments and
// clients as CSV, the GST report and the annual summary exactly as their own CSV exports write
// them, the PDF of every invoice and credit note listed and a README that explains it all
// (docs/api/reports.md).
//
// Nothing is computed here. Invoice amounts, paid and balance are the projections' figures
// (report_invoices and documents_list, both written from the domain's documentFigures); a credit
// note's amounts are report_credits' (the figures stored on its CreditNoteIssued event, positive
// there, negated here as the GST report does); a payment's GST share is report_payments' (the
// domain's apportionCumulative, the payments basis); statuses are the domain's deriveStatus. The
// CSVs go through csv.ts's toCsv: csv-stringify, UTF-8 with a BOM, CRLF, formula-looking text
// neutralised, amounts as plain 2-dp numbers.
//
// Bounded: a period with more than ACCOUNTANT_EXPORT_MAX_INVOICES invoices and credit notes (each
// one PDF) is refused (422) before any work; at most ACCOUNTANT_EXPORTS_AT_ONCE exports run at once
// in a process (else 503); the PDFs are rendered one at a time (the existing PDF path: cache, then
// the worker pool; a credit note's in process, as its own route does), each only
// when the download has taken the bytes before it, and are stored as they are (a PDF is already
// compressed), so one request holds one PDF in memory and at most one worker slot.
import { loadReceipt } from '../costs/receipts.ts';
import {
  deriveStatus, formatNzDateLong, nzDateOf, PAYMENT_METHOD_LABELS, STATUS_LABELS,
  type DateRange, type GstBasis, type Lifecycle, type LocalDate, type PaymentMethod, type PaymentRowKind, type PaymentStatus,
} from '@tradie/domain';
import { domainEventOf } from '@tradie/projections';
import type { Sql } from '@tradie/store';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { AppDeps } from '../deps.ts';
import { renderCreditNoteFor } from '../creditNotes/pdf.ts';
import { pdfFileName, pdfFileOf } from '../documents/pdf.ts';
import { loadDocument } from '../documents/repository.ts';
import { loadBusinessSettings } from '../settings/repository.ts';
import { profitCsv, profitNamed, profitReportOf } from './profit.ts';
import { purchasesFor } from './purchases.ts';
import { costFilesOf } from './costsCsv.ts';
import { annualCsv, creditNoteStatus, CREDIT_ON_MONEY_HELD, gstInvoiceCsv, gstPaymentsCsv, toCsv, type Cell } from './csv.ts';
import { invoicesIssuedIn, invoicesSuppliedIn, paymentsReceivedIn, refundedIn } from './queries.ts';
import { Invalid, RetryLater } from '../errors.ts';

/**
 * The most documents one export holds: invoices (with a row in invoices.csv or a payment in
 * payments.csv) and credit notes (issued in the period) together — each is a PDF in the ZIP.
 */
export const ACCOUNTANT_EXPORT_MAX_INVOICES = 500;
/** Exports being made at once in one API process. */
export const ACCOUNTANT_EXPORTS_AT_ONCE = 2;

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;
export const tooManyInvoices = (invoices: number, creditNotes = 0): string =>
  creditNotes === 0
    ? `This period has ${invoices} invoices; one export can hold at most ${ACCOUNTANT_EXPORT_MAX_INVOICES}. Choose a shorter period (for example each GST period) and export each one.`
    : `This period has ${plural(invoices, 'invoice')} and ${plural(creditNotes, 'credit note')}; one export can hold at most ${ACCOUNTANT_EXPORT_MAX_INVOICES} together. Choose a shorter period (for example each GST period) and export each one.`;
export const EXPORT_BUSY = 'Another export is being made right now. Please try again in a minute.';

export const accountantZipFileName = (range: DateRange): string => `accountant-export-${range.start}-to-${range.end}.zip`;

// ---- rows -----------------------------------------------------------------------------------

/** One row of invoices.csv: an invoice issued in the range, the reversal of one voided in it, or a credit note issued in it. */
export type RegisterLine = InvoiceRegisterLine | CreditRegisterLine;

/** An invoice issued in the range, or the reversal of one voided in it (negative amounts). */
export interface InvoiceRegisterLine {
  kind: 'invoice' | 'void';
  documentId: string;
  reference: string;
  issueDate: LocalDate;
  dueDate: LocalDate;
  clientName: string;
  clientGstNumber: string;
  lifecycle: Lifecycle;
  paymentStatus: PaymentStatus;
  subtotalCents: bigint;
  gstCents: bigint;
  totalCents: bigint;
  paidCents: bigint;
  balanceCents: bigint;
  voidDate: LocalDate | null;
}

/**
 * A credit note issued in the range: a correction dated its own day, with negative amounts (a
 * credit reduces sales; report_credits stores them positive and the GST report subtracts them).
 */
export interface CreditRegisterLine {
  kind: 'credit';
  /** The invoice credited: the credit note's events are on its stream. */
  documentId: string;
  creditNoteId: string;
  /** The credit note's own reference, CN-0001. */
  reference: string;
  invoiceReference: string;
  date: LocalDate;
  clientName: string;
  clientGstNumber: string;
  subtotalCents: bigint;
  gstCents: bigint;
  totalCents: bigint;
}

/** The day a row counts on: the issue date, the day of the void, or the credit note's date. */
export const registerDayOf = (l: RegisterLine): LocalDate => (l.kind === 'credit' ? l.date : l.kind === 'void' ? (l.voidDate ?? l.issueDate) : l.issueDate);

type CreditTuple = [string, string, string, string, string, string, string, string, string, string];

type RegisterTuple = [string, string, string, string, string, string, string, string, string, string, string, string, string, string | null, 'invoice' | 'void'];

/**
 * The invoice register: invoices issued in the range (the annual summary's rule), reversals of
 * invoices voided in it (negative amounts, dated the day of the void) and credit notes issued in
 * it (negative amounts, dated their day), in date order — the rows of annualCsv with the list's
 * due date, paid and balance beside them. On one day: invoices, then reversals, then credit notes.
 * Indexes: report_invoices (account_id, issue_date), the partial (account_id, void_date);
 * documents_list's primary key; report_credits (account_id, date).
 */
export async function invoiceRegisterIn(sql: Sql, accountId: string, range: DateRange): Promise<RegisterLine[]> {
  const [invoices, credits] = await Promise.all([invoiceLinesIn(sql, accountId, range), creditLinesIn(sql, accountId, range)]);
  // Both lists are in date order; a stable sort keeps each one's own order among equal days.
  return [...invoices, ...credits].sort((a, b) => {
    const da = registerDayOf(a);
    const db = registerDayOf(b);
    return da < db ? -1 : da > db ? 1 : 0;
  });
}

/** Credit notes issued in the range, in date order. Index: report_credits (account_id, date). */
async function creditLinesIn(sql: Sql, accountId: string, range: DateRange): Promise<CreditRegisterLine[]> {
  const [row] = await sql.query<{ rows: string }>(
    `SELECT coalesce(json_agg(json_build_array(document_id, credit_note_id, reference, invoice_reference, date, client_name, client_gst_number,
              subtotal_cents::text, gst_cents::text, total_cents::text)
              ORDER BY date, reference COLLATE "C", credit_note_id), '[]')::text AS rows
       FROM report_credits
      WHERE account_id = $1 AND date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  const tuples = JSON.parse(row?.rows ?? '[]') as CreditTuple[];
  return tuples.map(([documentId, creditNoteId, reference, invoiceReference, date, clientName, clientGstNumber, subtotal, gst, total]) => ({
    kind: 'credit', documentId, creditNoteId, reference, invoiceReference, date, clientName, clientGstNumber,
    subtotalCents: -BigInt(subtotal), gstCents: -BigInt(gst), totalCents: -BigInt(total),
  }));
}

/** Invoices issued in the range and reversals of invoices voided in it, in date order. */
async function invoiceLinesIn(sql: Sql, accountId: string, range: DateRange): Promise<InvoiceRegisterLine[]> {
  const [row] = await sql.query<{ rows: string }>(
    `SELECT coalesce(json_agg(json_build_array(i.document_id, i.reference, i.issue_date, d.due_date, i.client_name, i.client_gst_number,
              d.lifecycle, d.payment_status, i.subtotal_cents::text, i.gst_cents::text, i.total_cents::text, d.paid_cents::text,
              d.balance_cents::text, i.void_date, k.kind)
              ORDER BY k.day, k.kind, i.issue_date, i.reference COLLATE "C", i.document_id), '[]')::text AS rows
       FROM (SELECT document_id, 'invoice' AS kind, issue_date AS day FROM report_invoices
              WHERE account_id = $1 AND issue_date BETWEEN $2::date AND $3::date
             UNION ALL
             SELECT document_id, 'void', void_date FROM report_invoices
              WHERE account_id = $1 AND void_date IS NOT NULL AND void_date BETWEEN $2::date AND $3::date) k
       JOIN report_invoices i ON i.document_id = k.document_id AND i.account_id = $1
       JOIN documents_list d ON d.id = i.document_id AND d.account_id = $1`,
    [accountId, range.start, range.end],
  );
  const tuples = JSON.parse(row?.rows ?? '[]') as RegisterTuple[];
  return tuples.map(([documentId, reference, issueDate, dueDate, clientName, clientGstNumber, lifecycle, paymentStatus, subtotal, gst, total, paid, balance, voidDate, kind]) => {
    const sign = kind === 'void' ? -1n : 1n;
    return {
      kind, documentId, reference, issueDate, dueDate, clientName, clientGstNumber,
      lifecycle: lifecycle as Lifecycle, paymentStatus: paymentStatus as PaymentStatus,
      subtotalCents: sign * BigInt(subtotal), gstCents: sign * BigInt(gst), totalCents: sign * BigInt(total),
      paidCents: BigInt(paid), balanceCents: BigInt(balance), voidDate,
    };
  });
}

/** One row of payments.csv: a payment received in the range, or the removal of one (negative). */
export interface PaymentEntry {
  kind: PaymentRowKind;
  documentId: string;
  paymentId: string;
  reference: string;
  date: LocalDate;
  clientName: string;
  amountCents: bigint;
  gstCents: bigint;
}

type PaymentEntryTuple = [string, string, PaymentRowKind, string, string, string, string, string];

/** The payments-basis rows (as paymentsReceivedIn, same order) with the payment's id. Index: report_payments (account_id, date). */
export async function paymentEntriesIn(sql: Sql, accountId: string, range: DateRange): Promise<PaymentEntry[]> {
  const [row] = await sql.query<{ rows: string }>(
    `SELECT coalesce(json_agg(json_build_array(p.document_id, p.payment_id, p.kind, i.reference, p.date, i.client_name, p.amount_cents::text, p.gst_cents::text)
              ORDER BY p.date, i.reference COLLATE "C", p.document_id, p.entry), '[]')::text AS rows
       FROM report_payments p
       JOIN report_invoices i ON i.document_id = p.document_id AND i.account_id = p.account_id
      WHERE p.account_id = $1 AND p.date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  const tuples = JSON.parse(row?.rows ?? '[]') as PaymentEntryTuple[];
  return tuples.map(([documentId, paymentId, kind, reference, date, clientName, amount, gst]) => ({
    kind, documentId, paymentId, reference, date, clientName, amountCents: BigInt(amount), gstCents: BigInt(gst),
  }));
}

interface ClientRow {
  name: string;
  business_name: string;
  is_business: string;
  email: string;
  phone: string;
  address: string;
  gst_number: string;
  company_number: string;
  default_payment_terms: string;
}

/** The account's client book as it is now. Index: clients_account_name. */
export const clientsOf = (sql: Sql, accountId: string): Promise<ClientRow[]> =>
  sql.query<ClientRow>(
    `SELECT name, business_name, is_business, email, phone, address, gst_number, company_number, default_payment_terms
       FROM clients WHERE account_id = $1 ORDER BY lower(name), id`,
    [accountId],
  );

/** How a payment was made, from its PaymentRecorded event (a removed payment has left the document's view, not its stream). */
type PaymentDetails = Map<string, { method: PaymentMethod; reference: string }>;

async function paymentDetailsOf(deps: Pick<AppDeps, 'store'>, accountId: string, documentIds: Iterable<string>): Promise<PaymentDetails> {
  const out: PaymentDetails = new Map();
  for (const id of documentIds) {
    const loaded = await loadDocument(deps.store, accountId, id);
    for (const e of loaded.events) {
      const d = domainEventOf(e);
      if (d.type === 'PaymentRecorded') out.set(`${id} ${d.data.paymentId}`, { method: d.data.method, reference: d.data.reference });
    }
  }
  return out;
}

// ---- the files --------------------------------------------------------------------------------

export const INVOICES_HEADER = [
  'Invoice number', 'Issue date', 'Due date', 'Client', 'Client GST number', 'Status', 'Excl. GST', 'GST', 'Incl. GST', 'Paid', 'Balance', 'Voided on',
];
export const PAYMENTS_HEADER = ['Payment date', 'Invoice number', 'Client', 'Amount', 'GST share', 'Method', 'Payment reference', 'Entry'];
export const CLIENTS_HEADER = ['Name', 'Business name', 'Business', 'Email', 'Phone', 'Address', 'GST number', 'Company number', 'Payment terms'];

export function invoicesCsv(lines: readonly RegisterLine[], today: LocalDate): string {
  return toCsv([
    INVOICES_HEADER,
    ...lines.map((l): Cell[] => {
      if (l.kind === 'credit') {
        // A correction, not an invoice: nothing is due, paid or owed on the row itself.
        return [l.reference, l.date, null, l.clientName, l.clientGstNumber, creditNoteStatus(l.invoiceReference), l.subtotalCents, l.gstCents, l.totalCents, null, null, null];
      }
      if (l.kind === 'void') {
        return [l.reference, l.issueDate, l.dueDate, l.clientName, l.clientGstNumber, 'Reversal of void', l.subtotalCents, l.gstCents, l.totalCents, null, null, l.voidDate];
      }
      const status = STATUS_LABELS[deriveStatus({ type: 'invoice', lifecycle: l.lifecycle, validUntil: null, dueDate: l.dueDate, paymentStatus: l.paymentStatus }, today)];
      // A voided invoice owes nothing: its balance is left empty rather than shown as owed.
      const balance = l.lifecycle === 'void' ? null : l.balanceCents;
      return [l.reference, l.issueDate, l.dueDate, l.clientName, l.clientGstNumber, status, l.subtotalCents, l.gstCents, l.totalCents, l.paidCents, balance, l.voidDate];
    }),
  ]);
}

export function paymentsCsv(entries: readonly PaymentEntry[], details: PaymentDetails): string {
  return toCsv([
    PAYMENTS_HEADER,
    ...entries.map((p): Cell[] => {
      const how = details.get(`${p.documentId} ${p.paymentId}`);
      return [
        p.date, p.reference, p.clientName, p.amountCents, p.gstCents,
        how ? PAYMENT_METHOD_LABELS[how.method] : null, how?.reference ?? null, p.kind === 'removal' ? 'Payment removed' : p.kind === 'refund' ? 'Refund' : p.kind === 'credit' ? CREDIT_ON_MONEY_HELD : 'Payment',
      ];
    }),
  ]);
}

export function clientsCsv(clients: readonly ClientRow[]): string {
  return toCsv([
    CLIENTS_HEADER,
    ...clients.map((c): Cell[] => [
      c.name, c.business_name, c.is_business === 'true' ? 'Yes' : 'No', c.email, c.phone, c.address, c.gst_number, c.company_number, c.default_payment_terms,
    ]),
  ]);
}

export interface ReadmeFacts {
  range: DateRange;
  basis: GstBasis;
  businessName: string;
  madeOn: LocalDate;
  invoices: number;
  /** Credit-note rows among `invoices`. */
  creditNotes: number;
  payments: number;
  clients: number;
  pdfs: number;
}

/** README.txt: what each file and column is, in plain English. CRLF, so Notepad shows it as lines. */
export function readmeText(f: ReadmeFacts): string {
  const period = `${formatNzDateLong(f.range.start)} to ${formatNzDateLong(f.range.end)}`;
  const basis = f.basis === 'invoice' ? 'invoice basis' : 'payments basis';
  const lines = [
    `Export for your accountant${f.businessName ? ` - ${f.businessName}` : ''}`,
    `Period: ${period} (both days included). Made on ${formatNzDateLong(f.madeOn)}.`,
    '',
    'HOW TO READ THESE FILES',
    '- Amounts are New Zealand dollars (NZD) written as plain numbers with two decimals, e.g. 1234.50:',
    '  no $ sign and no thousands separators. "Excl. GST" is before GST, "Incl. GST" is the total the',
    '  client pays, "GST" is the 15% GST in it. Negative amounts are corrections.',
    '- Dates are New Zealand calendar days written year-month-day, e.g. 2026-03-31 is 31 March 2026,',
    '  the same as in the app\'s other CSV exports (spreadsheets read this form as a date everywhere).',
    '- The CSV files are UTF-8 with a byte-order mark, so Excel shows macrons (Māori names, Kōwhai)',
    '  correctly. Text that a spreadsheet could run as a formula (starting with = + - @) has a \' in front.',
    '- Only issued invoices count: sent, marked issued, or paid against. Drafts and quotes are left out.',
    '- A correction counts on the day it was made: an invoice voided in the period appears again as a',
    '  "Reversal of void" row with negative amounts; a credit note issued in the period is a row of its',
    '  own with negative amounts; a payment removed in the period appears again as a "Payment removed"',
    '  row with a negative amount. A period that is over never changes afterwards.',
    '',
    'THE FILES',
    '',
    `invoices.csv (${f.invoices} rows) - every invoice issued in the period, by issue date, every reversal of a void,`,
    `  and every credit note issued in the period (${f.creditNotes} of the rows), all in date order.`,
    '  Invoice number   the invoice\'s number, e.g. INV-0001; for a credit note its own number, e.g. CN-0001',
    '  Issue date       the date on the invoice, or the day the credit note was issued',
    '  Due date         when payment is due (empty for a credit note)',
    '  Client           the client named on the invoice (empty if none)',
    '  Client GST number  as on the invoice (empty if none)',
    '  Status           Paid, Partly paid, Overdue, Sent, Issued, or Void (as of the day this was made);',
    '                   "Reversal of void" for the correction row of an invoice voided in the period;',
    '                   "Credit note for INV-0001" for a credit note, naming the invoice it corrects',
    '  Excl. GST        the invoice\'s subtotal before GST',
    '  GST              the GST on the invoice',
    '  Incl. GST        the invoice\'s total including GST',
    '  Paid             money received against the invoice so far, less any paid back',
    '  Balance          what the client still owes, after any credit notes (empty for a voided invoice,',
    '                   for reversal rows and for credit notes; below zero when money is owed back)',
    '  Voided on        the day the invoice was voided (empty if it was not)',
    '  A credit note corrects an invoice without changing it: the invoice keeps its row, at its full',
    '  amounts, in the period it was issued, and the credit note is a row in the period it was issued,',
    '  with its Excl. GST, GST and Incl. GST negative (a credit reduces your sales and the GST on them).',
    '  The Excl. GST and GST columns add up to the annual summary\'s revenue and GST for the same period.',
    '',
    `payments.csv (${f.payments} rows) - every payment received in the period, by payment date.`,
    '  Payment date     the day the money was received (or, for a removal, the day it was removed)',
    '  Invoice number   the invoice it paid',
    '  Client           the client named on that invoice',
    '  Amount           the money received, GST included',
    '  GST share        the GST contained in this payment (payments basis): the invoice\'s GST shared',
    '                   over its payments in proportion, so an invoice\'s payments carry exactly its GST',
    '  Method           Bank transfer, Cash, Card, Cheque or Other',
    '  Payment reference  the reference recorded with the payment (e.g. the bank statement reference)',
    '  Entry            "Payment", or "Payment removed" for the correction of a payment taken back,',
    '                   "Refund" for money paid back, or "Credit note: GST on money received" for a credit',
    '                   note that left nothing owed: no money, only the GST share of what was received moves',
    '  The Amount and GST share columns add up to the payments-basis GST report for the same period.',
    '',
    `clients.csv (${f.clients} rows) - your client list as it is today (not only clients of this period).`,
    '  Name, Business name, Business (Yes/No), Email, Phone, Address, GST number, Company number (NZBN or',
    '  company number), Payment terms (the default terms for new invoices).',
    '',
    `gst-report.csv - the GST report for the period on the ${basis}, exactly as the app's GST report`,
    '  "Download CSV" gives it: one row per invoice (invoice basis: each invoice at its full value in the',
    '  period of its time of supply - the issue date, or an earlier deposit - and voids and credit notes',
    '  as negative rows on their days) or per payment (payments basis: a credit note counts only when',
    '  money is paid back on it), a Total row, then the GST return (GST101A) Boxes 5 to 15: sales (5 to',
    '  10) and purchases (11 to 15, from purchases.csv and expenses.csv). Boxes 9 and 13 (debit and',
    '  credit adjustments from the return\'s calculation sheet, such as private use) are 0.00 here: the',
    '  app does not keep them. Type them on the GST screen when you prepare the return, or add them here.',
  '  Once a period has been exported after it ended, its figures never change. An invoice issued later',
  '  with a date inside that closed period is carried to the first period that is still open: it is',
  '  listed under an "Adjustments to carry" row, its Status saying where it comes from (e.g. "Carried',
  '  from Jan-Feb 2027"), and it counts in that open period\'s totals and Boxes.',
    '',
    'annual-summary.csv - the annual summary for the period (by issue date; revenue is excluding GST),',
    '  exactly as the Annual Summary\'s "Download CSV" gives it for a tax year: one row per invoice, then',
    '  the Total, Paid and Unpaid rows.',
    '',
    'profit-report.csv - what your work made: for each month of the period, each client and each',
    '  category (materials, labour and your own), the quotes accepted and their quoted sell, cost and',
    '  gross profit, and the invoices issued with their invoiced sell, cost, gross profit, margin on price',
    '  and markup on cost, then the Total. Excluding GST. Credit notes and voids count on their own day,',
    '  as in invoices.csv. A line with no cost recorded is never counted as costing nothing: its sell is',
    '  in its own column and the gross profit, margin and markup are over the lines with a cost. The last',
    '  three columns are actual-cost profit: what invoices made from jobs (accepted quotes) sold, less the',
    '  receipts, bills and hours recorded against those jobs (hours.csv, purchases.csv), each on its day.',
    '',
    `pdfs/ (${f.pdfs} files) - the PDF of every invoice and credit note in invoices.csv, named by its number`,
    '  (INV-0001.pdf, CN-0001.pdf). An invoice\'s PDF is as the app makes it today; a credit note\'s is the',
    '  one issued, dated the day it was issued.',
    '',
    'purchases.csv - the receipts and supplier bills dated in the period (by the date on the supplier\'s',
    '  invoice or receipt), oldest first; expenses.csv - the business\'s own expenses (fuel, phone, tools),',
    '  the same columns:',
    '  Date, Paid date    the supplier\'s date, and when it was paid (the payments basis counts it then)',
    '  Kind, Supplier, Category, Job (the quote it was for)',
    '  Incl. GST, GST     what was paid, and whether it carried 15% GST',
    '  GST claimed        the GST claimed back in Box 12 (0.00 when it is not), and Why not claimed:',
    '                     not registered, no GST charged, or over $200 without the supplier\'s tax invoice',
    '  Tax invoice held, Supplier credit (a credit subtracts), Note',
    '  Box 11 is the Incl. GST of the costs whose GST is claimed. Once a period has been exported after it',
    '  ended, a cost recorded, changed or deleted later with a date inside it is carried to the first',
    '  period still open: the GST report lists it under "Purchase adjustments to carry".',
    '',
    'hours.csv - the hours worked in the period: Date, Who, Hours, Hourly cost, Cost, Job, Note.',
    '',
    'receipts/ - the photo (JPEG) or PDF kept with a receipt, bill or expense of the period; its row in',
    '  purchases.csv or expenses.csv names the file in its Receipt file column.',
    '',
  ];
  return lines.join('\r\n');
}

// ---- the ZIP ----------------------------------------------------------------------------------

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
  /** false for data that is compressed already (PDFs): stored as it is. */
  deflate: boolean;
}

/**
 * A ZIP written as it is read: the next entry is asked for only once the bytes before it have
 * been taken (pull), so a slow download holds back the work. An entry that fails errors the
 * stream: the download breaks rather than end as a ZIP that looks complete. `done` runs once,
 * however the stream ends.
 */
export function zipStream(entries: AsyncIterator<ZipEntry>, mtime: Date, done: () => void): ReadableStream<Uint8Array> {
  const ready: Uint8Array[] = [];
  let finished = false;
  let failure: Error | null = null;
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      done();
    }
  };
  const zip = new Zip((err, chunk, final) => {
    if (err) failure = err;
    else {
      ready.push(chunk);
      if (final) finished = true;
    }
  });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (ready.length === 0 && !finished) {
          const next = await entries.next();
          if (next.done) {
            zip.end();
          } else {
            const file = next.value.deflate ? new ZipDeflate(next.value.name, { level: 6 }) : new ZipPassThrough(next.value.name);
            file.mtime = mtime;
            zip.add(file);
            file.push(next.value.bytes, true);
          }
          if (failure) throw failure;
        }
        for (const chunk of ready.splice(0)) controller.enqueue(chunk);
        if (finished) {
          controller.close();
          end();
        }
      } catch (e) {
        end();
        zip.terminate();
        throw e;
      }
    },
    async cancel() {
      end();
      zip.terminate();
      await entries.return?.();
    },
  });
}

// ---- putting it together ----------------------------------------------------------------------

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A PDF the ZIP holds: an invoice's (once, however many rows it has) or a credit note's. */
export type PdfJob =
  | { kind: 'document'; documentId: string; reference: string }
  | { kind: 'credit'; documentId: string; creditNoteId: string; reference: string };

/** The PDFs of invoices.csv's rows, in its order, each once. */
function pdfJobsOf(register: readonly RegisterLine[]): PdfJob[] {
  const seen = new Set<string>();
  const jobs: PdfJob[] = [];
  for (const l of register) {
    const key = l.kind === 'credit' ? `credit ${l.creditNoteId}` : `document ${l.documentId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    jobs.push(l.kind === 'credit'
      ? { kind: 'credit', documentId: l.documentId, creditNoteId: l.creditNoteId, reference: l.reference }
      : { kind: 'document', documentId: l.documentId, reference: l.reference });
  }
  return jobs;
}

/**
 * A credit note's PDF, the bytes GET /credit-notes/{id}/pdf answers (creditNotes/pdf.ts
 * renderCreditNoteFor: the note with its invoice and the business's settings and logo, dated the
 * day it was issued, rendered in this process), found through its invoice's stream — report_credits names both — rather than by a
 * search of the account's log for the credit note's id.
 */
export async function creditNotePdfBytes(deps: Pick<AppDeps, 'store'>, accountId: string, invoiceId: string, creditNoteId: string): Promise<Buffer> {
  const invoice = await loadDocument(deps.store, accountId, invoiceId);
  const note = invoice.state.creditNotes.find((n) => n.creditNoteId === creditNoteId);
  if (!note) throw new Error(`Credit note ${creditNoteId} is not on invoice ${invoiceId}`);
  return renderCreditNoteFor(deps, accountId, invoice.state, note);
}
const running = new WeakMap<object, { n: number }>();

/**
 * One of the ACCOUNTANT_EXPORTS_AT_ONCE export slots of this process (the accountant's ZIP and
 * Download my data share them: each renders PDFs), or a 503 when they are all taken. Answers the
 * release, which does its work once however often it is called.
 */
export function takeExportSlot(deps: object): () => void {
  const slot = running.get(deps) ?? { n: 0 };
  running.set(deps, slot);
  if (slot.n >= ACCOUNTANT_EXPORTS_AT_ONCE) throw new RetryLater(EXPORT_BUSY, undefined, 30);
  slot.n += 1;
  let released = false;
  return () => {
    if (!released) {
      released = true;
      slot.n -= 1;
    }
  };
}

/** The accountant's files of a period: the README and the CSVs (in the ZIP's order), and the PDFs invoices.csv lists. */
export interface AccountantFiles {
  csvFiles: ZipEntry[];
  pdfs: PdfJob[];
  /** The period's costs with a receipt kept, and each one's name in the ZIP. */
  receipts: { costId: string; name: string }[];
  /** Invoices with a row in invoices.csv or a payment in payments.csv, and credit notes: what the PDF bound counts. */
  documentsInvolved: number;
}

/** Every query of the accountant's export of `range` (no PDF is made here). */
export async function accountantFiles(deps: Pick<AppDeps, 'store' | 'clock'>, req: AccountantExportRequest, bound = true): Promise<AccountantFiles> {
  const sql = deps.store.db;
  const { accountId, range, basis } = req;
  const [register, payments] = await Promise.all([invoiceRegisterIn(sql, accountId, range), paymentEntriesIn(sql, accountId, range)]);
  const pdfs = pdfJobsOf(register);
  const paymentDocs = new Set(payments.map((p) => p.documentId));
  const invoiceDocs = new Set(pdfs.flatMap((j) => (j.kind === 'document' ? [j.documentId] : [])));
  const invoicesInvolved = new Set([...invoiceDocs, ...paymentDocs]).size;
  const creditNotes = pdfs.length - invoiceDocs.size;
  if (bound && invoicesInvolved + creditNotes > ACCOUNTANT_EXPORT_MAX_INVOICES) throw new Invalid(tooManyInvoices(invoicesInvolved, creditNotes));
  const today = nzDateOf(deps.clock.now());
  const [gst, annual, clients, details, business, profit] = await Promise.all([
    purchasesFor(sql, accountId, range, basis).then((purchases) =>
      basis === 'invoice' ? invoicesSuppliedIn(sql, accountId, range).then((lines) => gstInvoiceCsv(lines, purchases)) : paymentsReceivedIn(sql, accountId, range).then((lines) => gstPaymentsCsv(lines, purchases))),
    Promise.all([invoicesIssuedIn(sql, accountId, range), refundedIn(sql, accountId, range)]).then(([lines, refunded]) => annualCsv(lines, refunded)),
    clientsOf(sql, accountId),
    paymentDetailsOf(deps, accountId, paymentDocs),
    loadBusinessSettings(sql, accountId),
    profitReportOf(deps.store, accountId, range, 'month').then((r) => profitNamed(sql, accountId, r)).then(profitCsv),
  ]);
  const costFiles = await costFilesOf(sql, accountId, range, business.gst_registered);
  const csvFiles: ZipEntry[] = [
    {
      name: 'README.txt',
      deflate: true,
      bytes: utf8(readmeText({
        range, basis, businessName: business.business_name, madeOn: today,
        invoices: register.length, creditNotes, payments: payments.length, clients: clients.length, pdfs: pdfs.length,
      })),
    },
    { name: 'invoices.csv', deflate: true, bytes: utf8(invoicesCsv(register, today)) },
    { name: 'payments.csv', deflate: true, bytes: utf8(paymentsCsv(payments, details)) },
    { name: 'clients.csv', deflate: true, bytes: utf8(clientsCsv(clients)) },
    { name: 'gst-report.csv', deflate: true, bytes: utf8(gst) },
    { name: 'annual-summary.csv', deflate: true, bytes: utf8(annual) },
    { name: 'profit-report.csv', deflate: true, bytes: utf8(profit) },
    { name: 'purchases.csv', deflate: true, bytes: utf8(costFiles.purchases) },
    { name: 'expenses.csv', deflate: true, bytes: utf8(costFiles.expenses) },
    { name: 'hours.csv', deflate: true, bytes: utf8(costFiles.hours) },
  ];
  return { csvFiles, pdfs, receipts: costFiles.receipts, documentsInvolved: invoicesInvolved + creditNotes };
}

export interface AccountantExportRequest {
  accountId: string;
  range: DateRange;
  basis: GstBasis;
}

/**
 * The export's files and its stream. Every query runs (and a period too big is refused) before
 * the answer starts, so those failures are proper error answers; the PDFs follow one at a time.
 */
export async function accountantExport(
  deps: Pick<AppDeps, 'store' | 'clock' | 'renderPdf' | 'config' | 'log'>,
  req: AccountantExportRequest,
): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  const { accountId, range } = req;
  const release = takeExportSlot(deps);
  try {
    const { csvFiles, pdfs, receipts } = await accountantFiles(deps, req);
    async function* files(): AsyncGenerator<ZipEntry> {
      yield* csvFiles;
      const names = new Set<string>();
      for (const job of pdfs) {
        let bytes: Buffer;
        try {
          bytes = job.kind === 'credit'
            ? await creditNotePdfBytes(deps, accountId, job.documentId, job.creditNoteId)
            : (await pdfFileOf(deps, accountId, job.documentId)).bytes;
        } catch (e) {
          deps.log('error', 'an accountant export stopped: a PDF could not be made', {
            documentId: job.documentId, ...(job.kind === 'credit' ? { creditNoteId: job.creditNoteId } : {}), error: e instanceof Error ? e.message : String(e),
          });
          throw e;
        }
        // References are unique in an account (and CN- and INV- never meet); a name is never used twice whatever they hold.
        let name = `pdfs/${pdfFileName({ reference: job.reference })}`;
        for (let i = 2; names.has(name); i++) name = name.replace(/(?:-\d+)?\.pdf$/, `-${i}.pdf`);
        names.add(name);
        yield { name, deflate: false, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
      }
      // Each receipt as kept (already compressed: stored, not deflated), read one at a time.
      for (const r of receipts) {
        const kept = await loadReceipt(deps, accountId, r.costId).catch(() => null);
        if (kept) yield { name: r.name, deflate: false, bytes: kept.bytes };
      }
    }
    const body = zipStream(files(), deps.clock.now(), release);
    return { fileName: accountantZipFileName(range), body };
  } catch (e) {
    release();
    throw e;
  }
}
