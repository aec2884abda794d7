// Rendered PDFs read back with poppler-utils: what a client, and IRD, would read on the page.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type DocumentView,
  type LineInput,
  applyGstSwitch,
  documentFigures,
  documentTotals,
  formatNzDate,
  formatNzd,
  shownLineText,
  shownLines,
} from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { formatQty } from '../src/format.ts';
import { fontsShared, renderDocumentPdf } from '../src/render.ts';
import type { PdfBusiness, PdfLogo } from '../src/types.ts';
import { business, client, invoice, manyLines, quote, referenceInvoice, threeLines, unregistered } from './fixtures.ts';
import { pngLogo, svgLogo } from './images.ts';
import { pdfFonts, pdfInfo, pdfPagePng, pdfPages, pdfText } from './poppler.ts';

const OUT = resolve(import.meta.dirname, '../../../test-output/pdf');
const TODAY = '2026-05-05';

const render = (document: DocumentView, b: PdfBusiness = business, logo: PdfLogo | null = null) => renderDocumentPdf({ document, business: b, logo, today: TODAY });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** Collapse runs of spaces so a table row reads as one line of words. */
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The amount box: its label, and a few lines below (the client block sits beside it), the amount. */
const boxed = (label: string, amount: string) => new RegExp(`${escape(label)}(?:\\n.*){1,8}${escape(amount)}`);

/**
 * Every line of `d` appears once, in one row, with its qty, and its unit price and amount as the
 * domain shows them (without GST); the amounts printed add up to the subtotal printed.
 */
function expectEveryLine(text: string, d: DocumentView): void {
  const rows = squash(text).split('\n');
  const t = documentTotals(d.lines, d.gstRounding);
  const shown = shownLines(d.lines, t);
  let printed = 0n;
  d.lines.forEach((line, i) => {
    const found = rows.filter((r) => r.includes(line.description));
    expect(found, line.description).toHaveLength(1);
    const { unitPrice, amount } = shownLineText(shown[i]!);
    expect(found[0]).toContain(` ${formatQty(line.qty)} ${unitPrice} ${amount}`);
    printed += BigInt(amount.replace(/[$,.]/g, ''));
  });
  expect(printed).toBe(t.subtotalCents);
}

describe('a tax invoice from a GST-registered business', async () => {
  const d = invoice();
  const pdf = await render(d);
  const text = pdfText(pdf);
  const flat = squash(text);

  it('is titled Tax Invoice and carries the GST number and NZBN', () => {
    expect(text).toContain('Tax Invoice');
    expect(flat).toContain('GST number 49-091-850');
    expect(flat).toContain('NZBN 9429041234563');
  });

  it('names the business, its trading name, address and contacts', () => {
    for (const s of ['Kōwhai Plumbing Limited', 'Trading as Kōwhai Plumbing & Gas', '12 Kahikatea Drive', 'Whangārei 0110', '021 555 0199', 'accounts@kowhaiplumbing.co.nz']) expect(text).toContain(s);
  });

  it('names the client by the display rule, with address and email', () => {
    expect(text).toContain('Ōtāhuhu Builders (Aroha Ngata)');
    expect(text).toContain('5 Māngere Road');
    expect(text).toContain('Tāmaki Makaurau 2022');
    expect(text).toContain('aroha@example.co.nz');
  });

  it('shows the reference, and issue and due dates in NZ form', () => {
    expect(flat).toContain('Invoice number INV-0001');
    expect(flat).toContain(`Issue date ${formatNzDate(d.issueDate)}`);
    expect(flat).toContain(`Due date ${formatNzDate(d.dueDate)}`);
    expect(flat).toContain('Due date 11/05/2026');
  });

  it('lists every line with qty, unit price and amount', () => expectEveryLine(text, d));

  it('prints subtotal, GST and total exactly as the domain computes and formats them', () => {
    const t = documentTotals(d.lines, d.gstRounding);
    expect(flat).toContain(`Subtotal (excl. GST) ${formatNzd(t.subtotalCents)}`);
    expect(flat).toContain(`GST 15% ${formatNzd(t.gstCents)}`);
    expect(flat).toContain(`Total (incl. GST) ${formatNzd(t.totalCents)}`);
    expect([formatNzd(t.subtotalCents), formatNzd(t.gstCents), formatNzd(t.totalCents)]).toEqual(['$479.10', '$71.86', '$550.96']);
    expect(flat).toContain('Prices and amounts exclude GST.');
  });

  it('says how to pay: terms, bank account and the reference', () => {
    expect(flat).toContain('Payment terms 7 days — due 11/05/2026');
    expect(flat).toContain('Please pay to ANZ · Kōwhai Plumbing Ltd · 01-0123-0123457-00');
    expect(flat).toContain('Reference INV-0001');
    expect(text).not.toContain('These will appear on your invoices');
  });

  it('has a footer with the business, the reference and page numbers', () => {
    expect(flat).toContain('Kōwhai Plumbing Limited · Tax Invoice INV-0001');
    expect(flat).toContain('Page 1 of 1');
  });

  it('embeds Roboto (subset) and uses no standard font, so macrons print', () => {
    const fonts = pdfFonts(pdf);
    expect(fonts).toMatch(/Roboto-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(fonts).toMatch(/Roboto-Medium/);
    expect(fonts).not.toMatch(/Helvetica|Times|Courier/);
  });

  it('has the document title and author in its metadata', () => {
    const info = pdfInfo(pdf);
    expect(info.Title).toBe('Tax Invoice INV-0001');
    expect(info.Author).toBe('Kōwhai Plumbing Limited');
    expect(info.Pages).toBe('1');
  });

  it('renders page 1 to a PNG for a person to look at', () => {
    const png = pdfPagePng(pdf, 1, OUT, 'tax-invoice');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  });
});

describe('te reo Māori names and places keep their macrons', async () => {
  const names = ['Tāmaki Makaurau', 'Whangārei', 'Ōtāhuhu', 'Taupō', 'Māori', 'Ngāti Pōneke', 'ĀĒĪŌŪ āēīōū'];
  const lines: LineInput[] = names.map((n) => ({ description: `Call-out: ${n}`, qty: 1, unit_price: 95 }));
  const text = pdfText(await render(invoice({ lineInputs: lines, client: { ...client, name: 'Hēmi Pōtae', is_business: 'false', address: 'Ōtaki' } })));
  it.each(names)('%s', (n) => expect(text).toContain(`Call-out: ${n}`));
  it('in the client block too', () => {
    expect(text).toContain('Hēmi Pōtae');
    expect(text).toContain('Ōtaki');
  });
});

describe('an invoice from a business that is not GST-registered', async () => {
  it('is titled Invoice, and shows no GST number', async () => {
    const text = pdfText(await render(invoice(), unregistered));
    expect(text).toMatch(/^\s*Kōwhai Plumbing Limited\s+Invoice$/m);
    expect(text).not.toContain('Tax Invoice');
    expect(text).not.toContain('GST number');
  });

  it("with the calculator's GST switch off, shows one Total and no GST line", async () => {
    const d = invoice({ lines: applyGstSwitch(invoice().lines, false) });
    const t = documentTotals(d.lines, d.gstRounding);
    const flat = squash(pdfText(await render(d, unregistered)));
    expect(t.gstCents).toBe(0n);
    expect(flat).toContain(`Total ${formatNzd(t.totalCents)}`);
    expect(flat).not.toMatch(/GST 15%|Subtotal \(excl\. GST\)/);
    expect(flat).toContain('No GST is charged on this document.');
  });
});

describe('mixed lines (GST-inclusive, zero-rated) keep the full breakdown and say which is which', async () => {
  const d = invoice({
    lineInputs: [
      { description: 'Heat pump, supplied', qty: 1, unit_price: '2300', tax_included: true },
      { description: 'Install labour', qty: 3, unit_price: '85' },
      { description: 'Export crate', qty: 1, unit_price: '40', tax_rate: 0 },
    ],
  });
  const pdfBytes = await render(d);
  const flat = squash(pdfText(pdfBytes));
  const t = documentTotals(d.lines, d.gstRounding);
  it('totals', () => {
    expect(flat).toContain(`Subtotal (excl. GST) ${formatNzd(t.subtotalCents)}`);
    expect(flat).toContain(`GST 15% ${formatNzd(t.gstCents)}`);
    expect(flat).toContain(`Total (incl. GST) ${formatNzd(t.totalCents)}`);
  });
  it('marks', () => {
    expect(flat).toContain('Prices and amounts exclude GST.');
    expect(flat).toMatch(/Export crate[^\n]*\n\s*0% GST/);
  });
  it('shows the inclusive line without GST, so the lines add up to the subtotal', () => {
    // $2,300.00 incl. GST is $2,000.00 without it: shown as 1 × $2,000.00.
    expect(flat).toMatch(/Heat pump, supplied 1 \$2,000\.00 \$2,000\.00/);
    expectEveryLine(pdfText(pdfBytes), d);
  });
});

describe('a quote', async () => {
  const d = quote();
  const text = pdfText(await render(d));
  const flat = squash(text);
  it('is titled Quote, with its number, date and valid-until date', () => {
    expect(text).toContain('Quote');
    expect(text).not.toMatch(/Tax Invoice|Invoice number/);
    expect(flat).toContain('Quote number QTE-0007');
    expect(flat).toContain(`Date ${formatNzDate(d.issueDate)}`);
    expect(flat).toContain(`Valid until ${formatNzDate(d.validUntil ?? '')}`);
    expect(flat).toContain('This quote is valid until 03/06/2026.');
  });
  it('has its lines and totals, and no payment instructions', () => {
    expectEveryLine(text, d);
    expect(flat).toMatch(boxed('Quote total (incl. GST)', formatNzd(documentTotals(d.lines).totalCents)));
    expect(flat).not.toContain('Please pay to');
  });
  it('renders page 1 to a PNG', async () => {
    expect(pdfPagePng(await render(d, business, { bytes: svgLogo(), kind: 'svg' }), 1, OUT, 'quote-svg-logo').length).toBeGreaterThan(1000);
  });
});

describe('payments', async () => {
  const pay = (paymentId: string, amount: string, date: string) => ({ type: 'RecordPayment' as const, data: { paymentId, amount, date, method: 'bank_transfer' as const, reference: '' } });

  it('a part-paid invoice shows each payment and the balance due', async () => {
    const d = invoice({}, pay('p1', '100.00', '2026-05-06'), pay('p2', '50.50', '2026-05-07'));
    const f = documentFigures(d);
    const flat = squash(pdfText(await render(d)));
    expect(flat).toContain('Paid 06/05/2026 (Bank transfer) $100.00');
    expect(flat).toContain('Paid 07/05/2026 (Bank transfer) $50.50');
    expect(flat).toContain(`Balance due ${formatNzd(f.balanceCents)}`);
    expect(formatNzd(f.balanceCents)).toBe('$400.46');
    expect(flat).toMatch(boxed('Amount due (incl. GST)', formatNzd(f.balanceCents)));
    expect(flat).toContain('Please pay to');
    pdfPagePng(await render(d, business, { bytes: pngLogo(), kind: 'png' }), 1, OUT, 'part-paid-png-logo');
  });

  it('a paid invoice says so and asks for nothing', async () => {
    const d = invoice({}, { type: 'MarkPaid', data: { paymentId: 'p1', date: '2026-05-08', method: 'cash', reference: '' } });
    const flat = squash(pdfText(await render(d)));
    expect(flat).toContain('PAID');
    expect(flat).toContain('Paid 08/05/2026 (Cash) $550.96');
    expect(flat).toContain('Balance due $0.00');
    expect(flat).toContain('Paid in full — thank you.');
    expect(flat).not.toContain('Please pay to');
  });
});

describe('a void invoice', async () => {
  const d = invoice({}, { type: 'SendDocument', data: { to: ['a@b.nz'], cc: [], bcc: [], subject: 's' } }, { type: 'VoidDocument', data: { reason: 'Wrong client' } });
  const pdf = await render(d);
  const flat = squash(pdfText(pdf));
  it('is clearly marked VOID, with when and why, and asks for nothing', () => {
    expect(flat).toMatch(/Tax Invoice\n(?:.*\n){0,2}.*VOID\n/);
    expect(flat).toMatch(boxed('Void', '$0.00'));
    expect(flat).toContain('This invoice was voided on 05/05/2026: Wrong client. Nothing is owed on it.');
    expect(flat).not.toContain('Please pay to');
  });
  it('renders page 1 to a PNG', () => {
    pdfPagePng(pdf, 1, OUT, 'void-invoice');
  });
});

describe('long invoices break across pages', async () => {
  it('20 lines: every line, and the totals', async () => {
    const d = invoice({ lineInputs: manyLines(20) });
    const text = pdfText(await render(d));
    expectEveryLine(text, d);
    expect(squash(text)).toContain(`Total (incl. GST) ${formatNzd(documentTotals(d.lines).totalCents)}`);
  });

  it('150 lines: every line once, the table header and a running header on every later page, numbered pages', async () => {
    const d = invoice({ lineInputs: manyLines(150) });
    const pdf = await render(d);
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    expect(pdfInfo(pdf).Pages).toBe(String(pages.length));
    expectEveryLine(pages.join('\n'), d);
    pages.forEach((p, i) => {
      const flat = squash(p);
      expect(flat).toMatch(/Description Qty Unit price Amount/);
      expect(flat).toContain(`Page ${i + 1} of ${pages.length}`);
      if (i > 0) expect(flat).toContain('Tax Invoice INV-0001 (continued)');
    });
    const last = squash(pages.at(-1) ?? '');
    expect(last).toContain(`Total (incl. GST) ${formatNzd(documentTotals(d.lines).totalCents)}`);
    expect(last).toContain('Item 150:');
    pdfPagePng(pdf, 2, OUT, 'long-invoice-page-2');
  });
});

describe('logos', async () => {
  const images = (pdf: Buffer): string => {
    const dir = mkdtempSync(join(tmpdir(), 'tradie-pdf-'));
    try {
      writeFileSync(join(dir, 'a.pdf'), pdf);
      return execFileSync('pdfimages', ['-list', join(dir, 'a.pdf')], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('a PNG logo is embedded as an image', async () => {
    const list = images(await render(invoice(), business, { bytes: pngLogo(), kind: 'png' }));
    expect(list).toMatch(/^\s*1\s+0\s+image\s+300\s+100\s+rgb/m);
  });

  it('an SVG logo is drawn as vectors with its text, and pulls in no file it names', async () => {
    const pdf = await render(invoice(), business, { bytes: svgLogo(), kind: 'svg' });
    expect(pdfText(pdf)).toContain('Kōwhai & Co');
    expect(images(pdf).trim().split('\n')).toHaveLength(2); // the header lines only: no image
  });

  it('no logo, no image', async () => {
    expect(images(await render(invoice())).trim().split('\n')).toHaveLength(2);
  });
});

describe('the same input gives the same bytes (the API records PdfGenerated with a sha256)', async () => {
  it('twice the same; another day, another hash', async () => {
    const d = invoice({ lineInputs: threeLines });
    const a = await render(d);
    const b = await render(d);
    expect(sha256(a)).toBe(sha256(b));
    const c = await renderDocumentPdf({ document: d, business, today: '2026-05-06' });
    expect(sha256(c)).not.toBe(sha256(a));
    expect(pdfInfo(a).CreationDate).toMatch(/2026/);
  });

  it('sharing parsed fonts between documents changes no byte', async () => {
    expect(fontsShared).toBe(true);
    const first = sha256(await render(referenceInvoice()));
    // other glyphs (capitals with macrons before plain ones), bold and italics, SVG text, many pages
    await render(invoice({ lineInputs: [{ description: 'ĀĒĪŌŪ āēīōū zero-rated', qty: 1, unit_price: 5, tax_rate: 0 }, ...manyLines(60)] }), business, { bytes: svgLogo(), kind: 'svg' });
    expect(sha256(await render(referenceInvoice()))).toBe(first);
    const child = join(import.meta.dirname, 'fresh-parse.ts');
    const fresh = JSON.parse(execFileSync(process.execPath, [child], { encoding: 'utf8' })) as { fontsShared: boolean; sha256: string };
    expect(fresh.fontsShared).toBe(false);
    expect(fresh.sha256).toBe(first);
  });

  it('renders at the same time give the same bytes as one after another', async () => {
    const docs = [referenceInvoice(), quote(), invoice({ lineInputs: manyLines(30) })];
    const alone: string[] = [];
    for (const d of docs) alone.push(sha256(await render(d)));
    const together = await Promise.all(docs.map((d) => render(d)));
    expect(together.map(sha256)).toEqual(alone);
  });
});
