// The pdfmake document definition of a credit note: pure, so it can be tested without rendering.
// It carries the supply correction information: the supplier's name and GST number, the date it
// is issued, the original invoice's reference, the recipient, and the correction including tax
// (each credited line, or the amount credited, and the totals), under the business's logo,
// address and contact details as its invoices carry them. Lines are shown without GST, adding up
// to the credit's own subtotal (shownLines). Every amount is the domain's (the credit note's own
// figures, shownLines, formatNzd); this file only lays text out.
import type { Column, Content, TDocumentDefinitions, TableCell } from 'pdfmake/interfaces.js';
import { type CreditNote, type DocumentView, clientDisplayName, documentTotals, formatNzDate, formatNzd, isLocalDate, shownLineText, shownLines, toCents } from '@tradie/domain';
import { businessBlock, logoContent } from './definition.ts';
import { pdfFrame } from './document.ts';
import { formatGstNumber, formatQty } from './format.ts';
import { renderDefinition } from './render.ts';
import type { PdfBusiness, PdfLogo } from './types.ts';

export interface CreditNotePdfInput {
  creditNote: CreditNote;
  /** The invoice credited (who it was for, its reference). */
  invoice: DocumentView;
  /** The NZ calendar day the PDF is made (its creation date). */
  today: string;
  /** The business's settings as its documents print them (address, contact); the name and GST number are the credit note's own. */
  business?: PdfBusiness | null;
  logo?: PdfLogo | null;
}

export const CREDIT_NOTE_TITLE = 'Credit note';

const right = (text: string, bold = false): TableCell => ({ text, alignment: 'right', bold });

/** The supplier as the credit note was issued (its name and GST number), under the logo, with the business's address and contact details. */
function supplierBlock(n: CreditNote, business: PdfBusiness | null | undefined, logo: Content | null): Column {
  const gst: Content[] = n.supplier.gstNumber ? [{ text: `GST number: ${formatGstNumber(n.supplier.gstNumber)}`, margin: [0, 4, 0, 0] }] : [];
  if (!business) return { stack: [...(logo ? [logo] : []), { text: n.supplier.name || ' ', style: 'businessName' }, ...gst], width: '*' };
  const block = businessBlock({ ...business, business_name: n.supplier.name, trading_as: '' }, logo);
  return { ...block, stack: [...block.stack, ...gst] };
}

export function creditNoteDefinition(input: CreditNotePdfInput): TDocumentDefinitions {
  const { creditNote: n, invoice: d, today } = input;
  if (!isLocalDate(today)) throw new RangeError(`today must be a calendar day (YYYY-MM-DD), not ${JSON.stringify(today)}`);
  const created = new Date(`${today}T00:00:00Z`);
  // An invoice made while the business was not registered for GST: no GST credited, none named.
  const noGst = d.gstRegistered === false;
  const rows: TableCell[][] = [[{ text: 'Description', bold: true }, right('Qty', true), right('Unit price', true), right(noGst ? 'Amount' : 'Amount excl. GST', true)]];
  const lines = n.lines.map((l) => l.line);
  const shown = shownLines(lines, documentTotals(lines, d.gstRounding), toCents(n.subtotal));
  n.lines.forEach(({ lineIndex, line }, i) => {
    const text = shownLineText(shown[i]!);
    rows.push([{ text: `${line.description} (invoice line ${lineIndex + 1})` }, right(formatQty(line.qty)), right(text.unitPrice), right(text.amount)]);
  });
  if (n.amount !== null) rows.push([{ text: `Credit of ${formatNzd(toCents(n.amount))}${noGst ? '' : ' incl. GST'} on ${n.invoiceReference}` }, right(''), right(''), right(formatNzd(toCents(n.subtotal)))]);
  const client = d.client;
  const logo = logoContent(input.logo);
  const content: Content[] = [
    {
      columns: [
        supplierBlock(n, input.business, logo.node),
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
    { margin: [0, 12, 0, 0], table: { headerRows: 1, widths: ['*', 'auto', 'auto', 'auto'], body: rows } },
    {
      margin: [0, 10, 0, 0],
      columns: [
        { text: 'The amounts are credited to the invoice named above and reduce what is owed on it.', width: '*', fontSize: 8.5 },
        {
          width: 'auto',
          table: {
            body: noGst
              ? [[{ text: 'Total credit (no GST: not registered)', bold: true }, right(formatNzd(toCents(n.total)), true)]]
              : [
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
    images: logo.images,
    defaultStyle: { font: 'Roboto', fontSize: 9.5, lineHeight: 1.2 },
    styles: { businessName: { fontSize: 15, bold: true }, muted: { color: '#5f6b7a', fontSize: 9 } },
  };
}

/** The PDF of a credit note. The same input gives the same bytes. */
export const renderCreditNotePdf = (input: CreditNotePdfInput): Promise<Buffer> => renderDefinition(creditNoteDefinition(input));
