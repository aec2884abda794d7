// A payment claim's part of an invoice PDF (Construction Contracts Act 2002, s 20): the statement
// that it is made under the Act, the contract, the work and the period, the claimed amount and the
// due date for payment, how the amount was calculated, and — on its own page — the Form 1 notice.
// Pure: every value is text the API worked out once for the screen, the PDF and the email.
import type { Content, TableCell } from 'pdfmake/interfaces.js';
import type { PdfClaim } from './types.ts';

export function claimContent(c: PdfClaim): Content[] {
  const incl = c.gstIncluded ? ' (incl. GST)' : '';
  const row = (label: string, value: string): TableCell[] => [{ text: label, style: 'label' }, { text: value }];
  const money = (label: string, value: string, bold = false): TableCell[] => [{ text: label, bold, colSpan: 4 }, {}, {}, {}, { text: value, alignment: 'right', bold }];
  const head = ['Work', 'Value', '% complete to date', 'Previously claimed', 'This claim'].map((t, i): TableCell => ({ text: t, style: 'label', alignment: i === 0 ? 'left' : 'right' }));
  const body: TableCell[][] = [
    head,
    ...c.lines.map((l): TableCell[] => [
      { text: l.description },
      { text: l.value, alignment: 'right' },
      { text: l.percentToDate, alignment: 'right' },
      { text: l.previous, alignment: 'right' },
      { text: l.thisClaim, alignment: 'right' },
    ]),
    money('Contract sum', c.contractSum),
    money('Variations', c.variations),
    money('Contract sum with variations', c.revisedSum),
    money('Value of work to date', c.toDate),
    money(`Less previously claimed${c.earlier.length > 0 ? ` (${c.earlier.join(', ')})` : ''}`, c.previouslyClaimed),
    money(`This claim${incl}`, c.thisClaim),
    money(c.retentionLabel, c.retention),
    money(`Claimed amount${incl}`, c.claimedAmount, true),
  ];
  return [
    { text: 'Payment claim', style: 'sectionHeading', fontSize: 14, pageBreak: 'before', margin: [0, 0, 0, 4] },
    { text: c.statement, bold: true, margin: [0, 0, 0, 10] },
    {
      table: {
        widths: [150, '*'],
        body: [
          row('Construction contract', c.contractReference),
          row('Contract date', c.contractDate),
          row('Site', c.site),
          row('Construction work', c.work),
          row('Period of this claim', c.period),
          row('Claimed amount', c.claimedAmount),
          row('Due date for payment', c.paymentDue),
          row('Payment schedule due by', c.scheduleDueBy),
        ],
      },
      layout: 'noBorders',
      margin: [0, 0, 0, 12],
    },
    { text: 'How the claimed amount was calculated', style: 'sectionHeading' },
    { table: { headerRows: 1, widths: ['*', 70, 60, 75, 70], body }, layout: 'lightHorizontalLines', fontSize: 8.5 },
    ...form1Content(c.form1),
  ];
}

function form1Content(f: PdfClaim['form1']): Content[] {
  const out: Content[] = [
    { text: f.title, style: 'sectionHeading', fontSize: 16, pageBreak: 'before', margin: [0, 0, 0, 2] },
    { text: f.subtitle, bold: true, margin: [0, 0, 0, 8] },
    ...f.intro.map((p): Content => ({ text: p, margin: [0, 0, 0, 6] })),
  ];
  for (const s of f.sections) {
    out.push({ text: s.heading, style: 'sectionHeading', margin: [0, 8, 0, 3] });
    for (const p of s.paragraphs) out.push({ text: p, margin: [0, 0, 0, 4] });
    if (s.bullets) out.push({ ul: [...s.bullets], margin: [0, 0, 0, 4] });
    for (const p of s.after ?? []) out.push({ text: p, margin: [0, 0, 0, 4] });
  }
  out.push({ text: `Notice version ${f.version}. ${f.source}`, style: 'label', margin: [0, 10, 0, 0] });
  return out;
}
