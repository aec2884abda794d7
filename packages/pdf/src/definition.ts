// The pdfmake document definition of a quote or an invoice: pure, so it can be tested without
// rendering. Every amount comes from the domain (documentFigures → documentTotals/lineTotals,
// formatNzd); this file only lays text out.
//
// Taxable supply information (GST Act s 19E, since 1 April 2023): the supplier's name, the date,
// a description of each line and the consideration always; over $200 the supplier's GST number
// and the GST shown as a full breakdown (excl., GST, incl.); over $1,000 the recipient's name and
// one identifier. We always print the full breakdown and every detail we hold, so the PDF meets
// the highest band whenever the settings and the client record carry the details.
import type { Column, Content, ContentStack, CustomTableLayout, TDocumentDefinitions, TableCell } from 'pdfmake/interfaces.js';
import {
  GST_RATE,
  GST_RATE_PERCENT,
  PAYMENT_METHOD_LABELS,
  clientDisplayName,
  depositCentsOf,
  depositWording,
  documentFigures,
  formatNzDate,
  formatNzd,
  isLocalDate,
  isTaxInvoice,
  nzDateOf,
  shownLineText,
  paymentTermsText,
  shownLines,
  siteAddressLines,
  toCents,
  type DocumentFigures,
  type DocumentView,
  type LineTotals,
  type ShownLine,
} from '@tradie/domain';
import { pdfFrame } from './document.ts';
import { formatGstNumber, formatQty } from './format.ts';
import { acceptanceContent } from './acceptance.ts';
import { claimContent } from './claim.ts';
import { variationsContent } from './variations.ts';
import type { PdfBusiness, PdfClaim, PdfInput, PdfLogo, PdfPhoto } from './types.ts';

export type DocumentTitle = 'Quote' | 'Tax Invoice' | 'Invoice';

const COLOUR = {
  ink: '#1f2933',
  muted: '#5f6b7a',
  accent: '#0b5563',
  accentSoft: '#e6f0f2',
  rule: '#d5dbe1',
  zebra: '#f5f7f9',
  void: '#b42318',
  paid: '#1a7f37',
} as const;

const PAGE_MARGINS: [number, number, number, number] = [40, 52, 40, 56];
/** The box the logo is fitted into, in points (width, height). */
export const LOGO_BOX_POINTS: readonly [number, number] = [170, 64];
const LOGO_BOX: [number, number] = [...LOGO_BOX_POINTS];

const blank = (s: string | null | undefined): boolean => (s ?? '').trim() === '';
const present = (...xs: (string | null | undefined)[]): string[] => xs.map((x) => (x ?? '').trim()).filter((x) => x !== '');

/** The business has a GST number in its settings. */
export const isGstRegistered = (b: PdfBusiness): boolean => !blank(b.gst_number);

/**
 * A GST-registered business's invoice is a tax invoice; everyone else's an invoice (the domain's
 * isTaxInvoice: the registration the invoice was saved under, or for one saved before that was
 * recorded, whether the business has a GST number).
 */
export function documentTitle(d: DocumentView, b: PdfBusiness): DocumentTitle {
  if (d.type === 'quote') return 'Quote';
  return isTaxInvoice(d, b.gst_number) ? 'Tax Invoice' : 'Invoice';
}

/** Made while the business was not registered for GST: no GST, and no GST number, on it. */
const notRegistered = (d: DocumentView): boolean => d.gstRegistered === false;

/** How the document presents GST, decided from its lines (rates and how each is shown), never from sums. */
interface GstPresentation {
  /** Subtotal (excl. GST), GST and Total (incl. GST); otherwise one Total. */
  breakdown: boolean;
  gstLabel: string;
  /** Printed under the line table. */
  caption: string;
  /** Mark each 0% line (documents that also carry GST). */
  markZeroRated: boolean;
}

/**
 * Lines are shown in the subtotal's basis, GST-exclusive (shownLines), so the amounts add up to
 * the Subtotal (excl. GST) printed under them; a price shown as charged says 'incl. GST' itself.
 */
function gstPresentation(d: DocumentView, lines: LineTotals[], shown: readonly ShownLine[], b: PdfBusiness, f: DocumentFigures): GstPresentation {
  const taxed = lines.filter((l) => !l.taxRate.isZero());
  const breakdown = !notRegistered(d) && (isGstRegistered(b) || taxed.length > 0 || f.gstCents !== 0n);
  const rates = new Set(taxed.map((l) => l.taxRate.toFixed()));
  const gstLabel = rates.size === 1 && taxed[0]?.taxRate.equals(GST_RATE) ? `GST ${GST_RATE_PERCENT}%` : 'GST';
  const markZeroRated = taxed.length > 0 && taxed.length < lines.length;
  let caption: string;
  if (notRegistered(d)) caption = 'Not registered for GST: no GST is charged.';
  else if (!breakdown) caption = 'No GST is charged on this document.';
  else if (taxed.length === 0) caption = 'No GST is charged on these items (0%).';
  else if (shown.some((l) => l.unitPriceInclGst)) caption = 'Amounts exclude GST; prices exclude GST unless marked incl. GST.';
  else caption = 'Prices and amounts exclude GST.';
  return { breakdown, gstLabel, caption, markZeroRated };
}

export function logoContent(logo: PdfLogo | null | undefined): { node: Content | null; images: Record<string, string> } {
  if (!logo) return { node: null, images: {} };
  if (logo.kind === 'svg') {
    // A user-uploaded SVG must not pull anything in: only inline data: images, and quiet warnings.
    // (`options` is passed through to svg-to-pdfkit; @types/pdfmake does not list it.)
    const node = {
      svg: logo.bytes.toString('utf8'),
      fit: LOGO_BOX,
      margin: [0, 0, 0, 8],
      options: { imageCallback: (link: string) => (/^data:image\//.test(link.trim()) ? link.trim() : ''), warningCallback: () => undefined },
    } as unknown as Content;
    return { node, images: {} };
  }
  // Images go in as data: URLs: pdfmake 0.3.11 resolves every entry of `images` as a URL, and a
  // data: URL is the form it neither fetches nor reads from disk.
  const mime = logo.kind === 'png' ? 'image/png' : 'image/jpeg';
  return { node: { image: 'logo', fit: LOGO_BOX, margin: [0, 0, 0, 8] }, images: { logo: `data:${mime};base64,${logo.bytes.toString('base64')}` } };
}

const label = (text: string): Content => ({ text, style: 'label' });

const GRID_LAYOUT: CustomTableLayout = {
  hLineWidth: () => 0,
  vLineWidth: () => 0,
  paddingLeft: (i) => (i === 0 ? 0 : 8),
  paddingRight: () => 0,
  paddingTop: () => 1.5,
  paddingBottom: () => 1.5,
};

/** The business's logo, name, address and contact details: the top left of every document and credit note. */
export function businessBlock(b: PdfBusiness, logo: Content | null): ContentStack & { width: string } {
  const name = present(b.business_name)[0] ?? present(b.trading_as)[0] ?? '';
  const tradingAs = !blank(b.trading_as) && b.trading_as.trim() !== name ? `Trading as ${b.trading_as.trim()}` : '';
  const place = present(b.city, b.postcode).join(' ');
  const contact = present(b.phone, b.email, b.website);
  const stack: Content[] = [];
  if (logo) stack.push(logo);
  stack.push({ text: name, style: 'businessName' });
  if (tradingAs) stack.push({ text: tradingAs, style: 'muted' });
  const lines = [...present(b.address).flatMap((a) => a.split(/\r?\n/)), ...(place ? [place] : [])];
  if (lines.length > 0) stack.push({ text: lines.join('\n'), margin: [0, 4, 0, 0] });
  if (contact.length > 0) stack.push({ text: contact.join('\n'), style: 'muted', margin: [0, 4, 0, 0] });
  return { stack, width: '*' };
}

function metaTable(d: DocumentView, b: PdfBusiness, title: DocumentTitle): Column {
  const rows: [string, string][] = [[d.type === 'quote' ? 'Quote number' : 'Invoice number', d.reference]];
  rows.push([d.type === 'quote' ? 'Date' : 'Issue date', formatNzDate(d.issueDate)]);
  if (d.type === 'quote') {
    if (d.validUntil) rows.push(['Valid until', formatNzDate(d.validUntil)]);
  } else rows.push(['Due date', formatNzDate(d.dueDate)]);
  if (!blank(b.gst_number) && !notRegistered(d)) rows.push(['GST number', formatGstNumber(b.gst_number)]);
  if (!blank(b.nzbn)) rows.push(['NZBN', b.nzbn.trim()]);
  const stack: Content[] = [{ text: title, style: 'title' }];
  const mark = statusMark(d);
  if (mark) stack.push(mark);
  stack.push({
    table: { widths: ['auto', 'auto'], body: rows.map(([k, v]): TableCell[] => [label(k), { text: v, bold: true, alignment: 'right' }]) },
    layout: 'noBorders',
    margin: [0, 8, 0, 0],
    alignment: 'right',
  });
  return { stack, width: 'auto', alignment: 'right' };
}

function statusMark(d: DocumentView): Content | null {
  if (d.status === 'void') return { text: 'VOID', style: 'voidMark' };
  if (d.type === 'invoice' && d.payments.length > 0 && documentFigures(d).balanceCents <= 0n) return { text: 'PAID', style: 'paidMark' };
  return null;
}

function clientBlock(d: DocumentView): Column {
  const c = d.client;
  const heading = d.type === 'quote' ? 'Prepared for' : 'Bill to';
  if (!c) return { text: '', width: '*' };
  const stack: Content[] = [label(heading), { text: clientDisplayName(c), bold: true, fontSize: 11, margin: [0, 2, 0, 0] }];
  const address = present(c.address).flatMap((a) => a.split(/\r?\n/));
  if (address.length > 0) stack.push({ text: address.join('\n'), margin: [0, 2, 0, 0] });
  const contact = present(c.email, c.phone);
  if (contact.length > 0) stack.push({ text: contact.join('\n'), style: 'muted', margin: [0, 2, 0, 0] });
  if (!blank(c.gst_number)) stack.push({ text: `GST number ${formatGstNumber(c.gst_number)}`, style: 'muted' });
  if (!blank(c.company_number)) stack.push({ text: `NZBN ${c.company_number.trim()}`, style: 'muted' });
  return { stack, width: '*' };
}

/** What the job is and where, under who it is for: the site address one line a line. Null when neither is set. */
function jobBlock(d: DocumentView): Content | null {
  const site = siteAddressLines(d.siteAddress);
  const columns: Column[] = [];
  if (!blank(d.jobTitle)) columns.push({ stack: [label('Job'), { text: d.jobTitle.trim(), bold: true, margin: [0, 2, 0, 0] }], width: '*' });
  if (site.length > 0) columns.push({ stack: [label('Site address'), { text: site.join('\n'), margin: [0, 2, 0, 0] }], width: '*' });
  return columns.length > 0 ? { columns, columnGap: 24, margin: [0, 14, 0, 0] } : null;
}

function amountBox(d: DocumentView, f: DocumentFigures, g: GstPresentation, claim: PdfClaim | null): Column {
  const incl = g.breakdown ? ' (incl. GST)' : '';
  let rows: Content[];
  if (claim && d.status !== 'void' && d.payments.length === 0 && (d.creditNotes ?? []).length === 0) {
    // A payment claim states one amount: the claimed amount (this claim less any retention withheld).
    const retention = claim.retention === '$0.00' ? '' : ` · ${claim.retention} retention withheld`;
    rows = [{ text: `Claimed amount${incl}`, style: 'boxLabel' }, { text: claim.claimedAmount, style: 'boxAmount' }, { text: `Due ${claim.paymentDue}${retention}`, style: 'boxNote' }];
  } else if (d.status === 'void') rows = [{ text: 'Void', style: 'boxLabel' }, { text: formatNzd(0n), style: 'boxAmount', color: COLOUR.void }, { text: 'Nothing is owed on this invoice', style: 'boxNote' }];
  else if (d.type === 'quote') rows = [{ text: `Quote total${incl}`, style: 'boxLabel' }, { text: formatNzd(f.totalCents), style: 'boxAmount' }, ...(d.validUntil ? [{ text: `Valid until ${formatNzDate(d.validUntil)}`, style: 'boxNote' }] : [])];
  else if (f.balanceCents <= 0n && d.payments.length > 0) rows = [{ text: 'Amount due', style: 'boxLabel' }, { text: formatNzd(0n), style: 'boxAmount', color: COLOUR.paid }, { text: 'Paid in full — thank you', style: 'boxNote' }];
  else rows = [{ text: `Amount due${incl}`, style: 'boxLabel' }, { text: formatNzd(f.balanceCents), style: 'boxAmount' }, { text: `Due ${formatNzDate(d.dueDate)}`, style: 'boxNote' }];
  return {
    width: 190,
    table: { widths: ['*'], body: [[{ stack: rows, fillColor: COLOUR.accentSoft, margin: [10, 8, 10, 8] }]] },
    layout: 'noBorders',
  };
}

function lineTable(d: DocumentView, f: DocumentFigures, shown: readonly ShownLine[], g: GstPresentation): Content {
  const header: TableCell[] = [
    { text: 'Description', style: 'th' },
    { text: 'Qty', style: 'th', alignment: 'right' },
    { text: 'Unit price', style: 'th', alignment: 'right' },
    { text: g.breakdown ? 'Amount excl. GST' : 'Amount', style: 'th', alignment: 'right' },
  ];
  const body: TableCell[][] = [header];
  d.lines.forEach((line, i) => {
    const lt = f.lines[i];
    const text = shownLineText(shown[i]!);
    const notes = present(g.markZeroRated && lt?.taxRate.isZero() ? '0% GST' : '');
    body.push([
      notes.length > 0 ? { stack: [line.description, { text: notes.join(' · '), style: 'lineNote' }] } : { text: line.description },
      { text: formatQty(line.qty), alignment: 'right' },
      { text: text.unitPrice, alignment: 'right' },
      { text: text.amount, alignment: 'right' },
    ]);
  });
  const layout: CustomTableLayout = {
    hLineWidth: (i, node) => (i === 0 || i === 1 || i === node.table.body.length ? 0 : 0.5),
    vLineWidth: () => 0,
    hLineColor: () => COLOUR.rule,
    fillColor: (row) => (row === 0 ? COLOUR.accent : row % 2 === 0 ? COLOUR.zebra : null),
    paddingLeft: () => 6,
    paddingRight: () => 6,
    paddingTop: () => 3.5,
    paddingBottom: () => 3.5,
  };
  return { table: { headerRows: 1, dontBreakRows: true, widths: ['*', 50, 80, 85], body }, layout, margin: [0, 16, 0, 0] };
}

function totalsTable(d: DocumentView, f: DocumentFigures, g: GstPresentation): Column {
  const row = (k: string, v: string, style = 'totalRow'): TableCell[] => [{ text: k, style }, { text: v, style, alignment: 'right' }];
  const body: TableCell[][] = [];
  if (g.breakdown) {
    body.push(row('Subtotal (excl. GST)', formatNzd(f.subtotalCents)));
    body.push(row(g.gstLabel, formatNzd(f.gstCents)));
    body.push(row('Total (incl. GST)', formatNzd(f.totalCents), 'grandTotal'));
  } else body.push(row('Total', formatNzd(f.totalCents), 'grandTotal'));
  const totalRow = body.length - 1;
  if (d.type === 'invoice' && d.payments.length > 0) {
    for (const p of d.payments) body.push(row(`Paid ${formatNzDate(p.date)} (${PAYMENT_METHOD_LABELS[p.method]})`, formatNzd(toCents(p.amount))));
    body.push(row('Balance due', formatNzd(f.balanceCents), 'grandTotal'));
  }
  const layout: CustomTableLayout = {
    hLineWidth: (i) => (i === totalRow || i === body.length - 1 && body.length - 1 !== totalRow ? 1 : 0),
    vLineWidth: () => 0,
    hLineColor: () => COLOUR.ink,
    paddingLeft: () => 6,
    paddingRight: () => 6,
    paddingTop: () => 3,
    paddingBottom: () => 3,
  };
  return { width: 250, table: { widths: ['*', 'auto'], body }, layout };
}

/** The box a photo is fitted into on an A4 page inside the margins, in points. */
const PHOTO_BOX: [number, number] = [500, 330];

/**
 * The photos the tradie ticked, after the document on pages of their own: two to a page, each
 * fitted into its box, numbered ('Photo 1 of 3').
 */
function photoAppendix(photos: readonly PdfPhoto[], reference: string): { content: Content[]; images: Record<string, string> } {
  if (photos.length === 0) return { content: [], images: {} };
  const images: Record<string, string> = {};
  const content: Content[] = [{ text: `Photos — ${reference}`, style: 'sectionHeading', pageBreak: 'before' }];
  photos.forEach((p, i) => {
    const name = `photo${i + 1}`;
    images[name] = `data:image/jpeg;base64,${Buffer.from(p.bytes).toString('base64')}`;
    content.push({
      stack: [{ image: name, fit: PHOTO_BOX, alignment: 'center' }, { text: `Photo ${i + 1} of ${photos.length}`, style: 'muted', alignment: 'center', margin: [0, 4, 0, 0] }],
      margin: [0, 10, 0, 0],
      unbreakable: true,
    });
  });
  return { content, images };
}

function paymentSection(d: DocumentView, b: PdfBusiness, f: DocumentFigures, claim: PdfClaim | null): Content[] {
  if (d.status === 'void') {
    const when = d.voidedAt ? ` on ${formatNzDate(nzDateOf(d.voidedAt))}` : '';
    const why = blank(d.voidReason) ? '' : `: ${(d.voidReason ?? '').trim()}`;
    return [{ text: `This ${d.type === 'quote' ? 'quote' : 'invoice'} was voided${when}${why}. Nothing is owed on it.`, color: COLOUR.void, bold: true }];
  }
  if (d.type === 'quote') {
    const until = d.validUntil ? `This quote is valid until ${formatNzDate(d.validUntil)}.` : '';
    // The deposit asked for: the figure its deposit invoice comes to (the deposit stage's own allocation).
    const deposit = d.deposit ? depositWording(d.deposit, depositCentsOf(d.lines, d.gstRounding, d.deposit)) : '';
    return [{ text: 'Quote terms', style: 'sectionHeading' }, { text: present(until, deposit, 'Prices are in New Zealand dollars (NZD).').join(' ') }];
  }
  const out: Content[] = [{ text: 'How to pay', style: 'sectionHeading' }];
  if (f.balanceCents <= 0n) {
    out.push({ text: 'Paid in full — thank you.' });
    return out;
  }
  const due = claim
    ? `Due for payment ${claim.paymentDue} (payment claim)`
    : paymentTermsText(d.paymentTerms, d.dueDate);
  const rows: TableCell[][] = [[label('Payment terms'), { text: due }]];
  const account = present(b.bank_name, b.bank_account_name, b.bank_account_number);
  if (account.length > 0) {
    rows.push([label('Please pay to'), { text: account.join('  ·  '), bold: true }]);
    rows.push([label('Reference'), { text: d.reference, bold: true }]);
  }
  out.push({ table: { widths: [80, '*'], body: rows }, layout: GRID_LAYOUT });
  return out;
}

function footer(b: PdfBusiness, title: DocumentTitle, reference: string) {
  const name = present(b.business_name, b.trading_as)[0] ?? '';
  return (currentPage: number, pageCount: number): Content => ({
    margin: [PAGE_MARGINS[0], 18, PAGE_MARGINS[2], 0],
    stack: [
      { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.5, lineColor: COLOUR.rule }] },
      {
        columns: [
          { text: present(name, `${title} ${reference}`).join(' · '), style: 'footer' },
          { text: `Page ${currentPage} of ${pageCount}`, style: 'footer', alignment: 'right', width: 'auto' },
        ],
        margin: [0, 6, 0, 0],
      },
    ],
  });
}

function header(b: PdfBusiness, title: DocumentTitle, reference: string) {
  const name = present(b.business_name, b.trading_as)[0] ?? '';
  return (currentPage: number): Content | null =>
    currentPage === 1
      ? null
      : {
          margin: [PAGE_MARGINS[0], 24, PAGE_MARGINS[2], 0],
          columns: [
            { text: name, style: 'footer' },
            { text: `${title} ${reference} (continued)`, style: 'footer', alignment: 'right', width: 'auto' },
          ],
        };
}

/** The pdfmake document definition. Pure: the same input gives the same definition. */
export function documentDefinition(input: PdfInput): TDocumentDefinitions {
  const { document: d, business: b, today } = input;
  if (!isLocalDate(today)) throw new RangeError(`today must be a calendar day (YYYY-MM-DD), not ${JSON.stringify(today)}`);
  const title = documentTitle(d, b);
  const f = documentFigures(d);
  const shown = shownLines(d.lines, f);
  const g = gstPresentation(d, f.lines, shown, b, f);
  const logo = logoContent(input.logo);
  const created = new Date(`${today}T00:00:00Z`);
  const job = jobBlock(d);
  const content: Content[] = [
    { columns: [businessBlock(b, logo.node), metaTable(d, b, title)], columnGap: 24 },
    { columns: [clientBlock(d), amountBox(d, f, g, input.claim ?? null)], columnGap: 24, margin: [0, 18, 0, 0] },
    ...(job ? [job] : []),
    lineTable(d, f, shown, g),
    {
      columns: [{ text: g.caption, style: 'muted', width: '*', margin: [0, 6, 0, 0] }, totalsTable(d, f, g)],
      columnGap: 24,
      margin: [0, 8, 0, 0],
      unbreakable: true,
    },
    { stack: paymentSection(d, b, f, input.claim ?? null), margin: [0, 22, 0, 0], unbreakable: true },
  ];
  if (!blank(d.notes)) content.push({ stack: [{ text: 'Notes', style: 'sectionHeading' }, { text: d.notes.trim() }], margin: [0, 16, 0, 0] });
  // The business's own terms, which the client ticks when accepting online: printed in full on the quote.
  if (d.type === 'quote' && !blank(input.quoteTerms)) content.push({ stack: [{ text: 'Terms and conditions', style: 'sectionHeading' }, { text: (input.quoteTerms ?? '').trim() }], margin: [0, 16, 0, 0] });
  // A varied quote: what was accepted is above, unchanged; each variation follows with where it stands.
  content.push(...variationsContent(d));
  if (input.claim) {
    const c = input.claim;
    content.splice(1, 0, { text: `${c.statement} Claimed amount ${c.claimedAmount}, due for payment on ${c.paymentDue}. The claim, how it was calculated and the notice that goes with it follow this page.`, bold: true, color: COLOUR.accent, margin: [0, 12, 0, 0] });
    content.push(...claimContent(c));
  }
  const photos = photoAppendix(input.photos ?? [], d.reference);
  content.push(...photos.content);
  if (input.acceptance) content.push(...acceptanceContent(input.acceptance, d.reference));
  for (const a of input.variationAcceptances ?? []) content.push(...acceptanceContent(a, d.reference));
  return {
    ...pdfFrame(
      {
        title: `${title} ${d.reference}`,
        author: present(b.business_name, b.trading_as)[0] ?? '',
        subject: present(`${title} ${d.reference}`, d.client ? `for ${clientDisplayName(d.client)}` : '').join(' '),
      },
      created,
      PAGE_MARGINS,
    ),
    ...(d.status === 'void' ? { watermark: { text: 'VOID', color: COLOUR.void, opacity: 0.12, bold: true } } : {}),
    images: { ...logo.images, ...photos.images },
    header: header(b, title, d.reference),
    footer: footer(b, title, d.reference),
    content,
    defaultStyle: { font: 'Roboto', fontSize: 9.5, color: COLOUR.ink, lineHeight: 1.2 },
    styles: {
      title: { fontSize: 22, bold: true, color: COLOUR.accent, alignment: 'right' },
      businessName: { fontSize: 15, bold: true },
      muted: { color: COLOUR.muted, fontSize: 9 },
      label: { color: COLOUR.muted, fontSize: 8.5 },
      labelInline: { color: COLOUR.muted },
      th: { bold: true, color: '#ffffff', fontSize: 9 },
      lineNote: { color: COLOUR.muted, fontSize: 8, italics: true },
      totalRow: { fontSize: 9.5 },
      grandTotal: { fontSize: 11.5, bold: true },
      boxLabel: { fontSize: 9, color: COLOUR.accent, bold: true },
      boxAmount: { fontSize: 18, bold: true, margin: [0, 2, 0, 2] },
      boxNote: { fontSize: 8.5, color: COLOUR.muted },
      sectionHeading: { fontSize: 10, bold: true, color: COLOUR.accent, margin: [0, 0, 0, 3] },
      voidMark: { fontSize: 14, bold: true, color: COLOUR.void, alignment: 'right' },
      paidMark: { fontSize: 14, bold: true, color: COLOUR.paid, alignment: 'right' },
      footer: { fontSize: 8, color: COLOUR.muted },
    },
  };
}
