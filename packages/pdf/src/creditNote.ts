// The pdfmake document definition of a credit note: pure, so it can be tested without rendering.
// It carries the supply correction information: the supplier's name and GST number, the date it
// is issued, the original invoice's reference, the recipient, and the correction including tax
// (each credited line with its GST, or the amount credited, and the totals). Every amount is the
// domain's (the credit note's own figures, lineTotals, formatNzd); this file only lays text out.
import type { Content, TDocumentDefinitions, TableCell } from 'pdfmake/interfaces.js';
import { type CreditNote, type DocumentView, clientDisplayName, formatNzDate, formatNzd, isLocalDate, lineTotals, toCents } from '@tradie/domain';
import { pdfFrame } from './document.ts';
import { formatGstNumber, formatQty, formatUnitPrice } from './format.ts';
import { renderDefinition } from './render.ts';

export interface CreditNotePdfInput {
  creditNote: CreditNote;
  /** The invoice credited (who it was for, its reference). */
  invoice: DocumentView;
  /** The NZ calendar day the PDF is made (its creation date). */
  today: string;
}

export const CREDIT_NOTE_TITLE = 'Credit note';

const right = (text: string, bold = false): TableCell => ({ text, alignment: 'right', bold });

export function creditNoteDefinition(input: CreditNotePdfInput): TDocumentDefinitions {
  const { creditNote: n, invoice: d, today } = input;
  if (!isLocalDate(today)) throw new RangeError(`today must be a calendar day (YYYY-MM-DD), not ${JSON.stringify(today)}`);
  const created = new Date(`${today}T00:00:00Z`);
  const rows: TableCell[][] = [[{ text: 'Description', bold: true }, right('Qty', true), right('Unit price', true), right('GST', true), right('Amount', true)]];
  for (const { lineIndex, line } of n.lines) {
    const t = lineTotals(line);
    rows.push([
      { text: `${line.description} (invoice line ${lineIndex + 1})` },
      right(formatQty(line.qty)),
      right(formatUnitPrice(line.unit_price)),
      right(formatNzd(t.taxCents)),
      right(formatNzd(t.amountCents)),
    ]);
  }
  if (n.amount !== null) rows.push([{ text: `Credit of an amount on ${n.invoiceReference} (GST inclusive)` }, right(''), right(''), right(formatNzd(toCents(n.gst))), right(formatNzd(toCents(n.amount)))]);
  const client = d.client;
  const content: Content[] = [
    {
      columns: [
        {
          stack: [
            { text: n.supplier.name || ' ', fontSize: 15, bold: true },
            ...(n.supplier.gstNumber ? [{ text: `GST number: ${formatGstNumber(n.supplier.gstNumber)}` }] : []),
          ],
        },
        {
          stack: [
            { text: CREDIT_NOTE_TITLE, fontSize: 22, bold: true, alignment: 'right' },
            { text: n.reference, alignment: 'right', bold: true },
            { text: `Date issued: ${formatNzDate(n.date)}`, alignment: 'right' },
            { text: `Credits invoice: ${n.invoiceReference}`, alignment: 'right' },
          ],
        },
      ],
    },
    {
      margin: [0, 18, 0, 0],
      stack: [
        { text: 'To', bold: true },
        { text: client ? clientDisplayName(client) : '—' },
        ...(client?.address ? [{ text: client.address }] : []),
        ...(client?.gst_number ? [{ text: `GST number: ${formatGstNumber(client.gst_number)}` }] : []),
      ],
    },
    { text: `Reason: ${n.reason}`, margin: [0, 12, 0, 0] },
    { margin: [0, 12, 0, 0], table: { headerRows: 1, widths: ['*', 'auto', 'auto', 'auto', 'auto'], body: rows } },
    {
      margin: [0, 10, 0, 0],
      columns: [
        { text: 'The amounts are credited to the invoice named above and reduce what is owed on it.', width: '*', fontSize: 8.5 },
        {
          width: 'auto',
          table: {
            body: [
              [{ text: 'Credit excl. GST' }, right(formatNzd(toCents(n.subtotal)))],
              [{ text: 'GST credited' }, right(formatNzd(toCents(n.gst)))],
              [{ text: 'Total credit incl. GST', bold: true }, right(formatNzd(toCents(n.total)), true)],
            ],
          },
          layout: 'noBorders',
        },
      ],
    },
  ];
  return {
    ...pdfFrame(
      { title: `${CREDIT_NOTE_TITLE} ${n.reference}`, author: n.supplier.name, subject: `${CREDIT_NOTE_TITLE} ${n.reference} for invoice ${n.invoiceReference}` },
      created,
      [40, 48, 40, 48],
    ),
    content,
    defaultStyle: { font: 'Roboto', fontSize: 9.5, lineHeight: 1.2 },
  };
}

/** The PDF of a credit note. The same input gives the same bytes. */
export const renderCreditNotePdf = (input: CreditNotePdfInput): Promise<Buffer> => renderDefinition(creditNoteDefinition(input));
