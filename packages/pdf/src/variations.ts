// A varied quote's part of its PDF: after the quote as the client accepted it (which never changes),
// each variation on its own — its lines and total and where it stands (awaiting the client's
// approval, approved by whom and when, declined, withdrawn) — then the quote and its approved
// variations added up. Pure: every figure comes from the domain (documentTotals, agreedFigures).
import type { Content, TableCell } from 'pdfmake/interfaces.js';
import { type DocumentView, type Variation, VARIATION_STATUS_LABELS, agreedFigures, documentTotals, formatNzd, formatNzDate, nzDateOf, variationName } from '@tradie/domain';
import { formatQty, formatUnitPrice } from './format.ts';

const day = (at: string | null): string => (at ? ` on ${formatNzDate(nzDateOf(at))}` : '');

/** Where a variation stands, in words: 'Approved by Aroha Ngata on 03/12/2026 (signed)'. */
export function variationStanding(v: Variation): string {
  switch (v.status) {
    case 'awaiting_approval':
      return `Awaiting the client's approval: it is not part of what is agreed until they approve it`;
    case 'approved':
      if (v.clientAcceptance) return `Approved by ${v.clientAcceptance.signerName}${day(v.clientAcceptance.at)}${v.clientAcceptance.signatureSha256 ? ' (signed)' : ''}`;
      return v.legacy ? 'Added to the quote after it was accepted' : `Approved${day(v.approvedAt)} (marked by the business)`;
    case 'declined':
      return `Declined${v.declinedByClient ? ' by the client' : ''}${day(v.declinedAt)}`;
    case 'withdrawn':
      return `Withdrawn by the business${day(v.withdrawnAt)}`;
  }
}

/** Nothing for a quote without variations. */
export function variationsContent(d: DocumentView): Content[] {
  if (d.type !== 'quote' || d.variations.length === 0) return [];
  const out: Content[] = [
    { text: 'Variations', style: 'sectionHeading', fontSize: 12, margin: [0, 20, 0, 2] },
    { text: 'Each variation is an agreement of its own: the quote above is as the client accepted it, and a variation is added to it only once approved.', style: 'muted', margin: [0, 0, 0, 6] },
  ];
  for (const v of d.variations) {
    const t = documentTotals(v.lines, d.gstRounding);
    const body: TableCell[][] = [
      ['Description', 'Qty', 'Unit price', 'Amount'].map((text, i): TableCell => ({ text, style: 'label', alignment: i === 0 ? 'left' : 'right' })),
      ...v.lines.map((l, i): TableCell[] => [
        { text: l.description },
        { text: formatQty(l.qty), alignment: 'right' },
        { text: formatUnitPrice(l.unit_price), alignment: 'right' },
        { text: formatNzd(t.lines[i]!.amountCents), alignment: 'right' },
      ]),
      [{ text: t.gstCents === 0n ? 'Total' : `Total (incl. ${formatNzd(t.gstCents)} GST)`, bold: true, colSpan: 3 }, {}, {}, { text: formatNzd(t.totalCents), bold: true, alignment: 'right' }],
    ];
    out.push({
      stack: [
        { columns: [{ text: `${variationName(v)} — ${VARIATION_STATUS_LABELS[v.status]}`, bold: true }, { text: formatNzd(t.totalCents), bold: true, alignment: 'right', width: 'auto' }] },
        { text: variationStanding(v), style: 'muted', margin: [0, 1, 0, 3] },
        ...(v.note ? [{ text: v.note, margin: [0, 0, 0, 3] } as Content] : []),
        { table: { headerRows: 1, widths: ['*', 50, 80, 85], body }, layout: 'lightHorizontalLines', fontSize: 9 },
      ],
      unbreakable: true,
      margin: [0, 8, 0, 0],
    });
  }
  const f = agreedFigures(d);
  const row = (label: string, value: string, bold = false): TableCell[] => [{ text: label, bold }, { text: value, bold, alignment: 'right' }];
  out.push({
    columns: [
      { text: '', width: '*' },
      {
        width: 250,
        table: {
          widths: ['*', 'auto'],
          body: [row('Quote as accepted', formatNzd(f.signedCents)), row('Approved variations', formatNzd(f.approvedCents)), row(d.gstRegistered === false ? 'Agreed in all' : 'Agreed in all (incl. GST)', formatNzd(f.agreedCents), true)],
        },
        layout: 'lightHorizontalLines',
      },
    ],
    margin: [0, 10, 0, 0],
    unbreakable: true,
  });
  if (f.awaitingCents > 0n) out.push({ text: `${formatNzd(f.awaitingCents)} of variations is awaiting the client's approval and is not part of what is agreed.`, style: 'muted', margin: [0, 4, 0, 0] });
  return out;
}
