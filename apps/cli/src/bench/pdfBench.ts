// The PDF of a 20-line invoice with pdfmake (budget ≤ 60 ms median), and the same invoice printed
// to PDF by headless Chromium — what many invoicing products do — measured beside it as a ratio.
import { documentFigures, formatNzd, formatNzDate, lineTotals } from '@tradie/domain';
import { benchInvoice, benchPdf } from '@tradie/pdf';
import { launchChromium } from '@tradie/testkit/chromium';
import { type Figure, median, round } from './figures.ts';

const esc = (s: string): string => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

/** The same invoice as an HTML page, as an HTML-to-PDF product would template it. */
function invoiceHtml(): string {
  const d = benchInvoice(20);
  const f = documentFigures(d);
  const rows = d.lines
    .map((l) => `<tr><td>${esc(l.description)}</td><td>${l.qty}</td><td>$${esc(l.unit_price)}</td><td>${formatNzd(lineTotals(l).amountCents)}</td></tr>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body{font-family:sans-serif;font-size:10pt;margin:0} h1{font-size:20pt} table{width:100%;border-collapse:collapse}
    td,th{border-bottom:1px solid #ddd;padding:4px;text-align:left} .totals td{text-align:right}
  </style></head><body><h1>Tax Invoice ${esc(d.reference)}</h1><p>Kōwhai Plumbing Limited · GST 49-091-850</p>
  <p>To: ${esc(d.client?.business_name ?? '')} · Issued ${formatNzDate(d.issueDate)} · Due ${formatNzDate(d.dueDate)}</p>
  <table><thead><tr><th>Description</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr></thead><tbody>${rows}</tbody></table>
  <table class="totals"><tr><td>Subtotal ${formatNzd(f.subtotalCents)}</td></tr><tr><td>GST ${formatNzd(f.gstCents)}</td></tr><tr><td>Total ${formatNzd(f.totalCents)}</td></tr></table>
  </body></html>`;
}

export async function pdfFigures(): Promise<Figure[]> {
  const pdfmake = await benchPdf({ runs: 40, warmup: 8 });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const html = invoiceHtml();
    const once = async (): Promise<number> => {
      const t0 = performance.now();
      await page.setContent(html);
      await page.pdf({ format: 'A4' });
      return performance.now() - t0;
    };
    for (let i = 0; i < 5; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < 30; i++) times.push(await once());
    const chromiumMs = median(times);
    return [
      { name: 'pdf.invoice_20_lines_pdfmake_median', value: round(pdfmake), unit: 'ms' },
      { name: 'pdf.invoice_20_lines_chromium_median', value: round(chromiumMs), unit: 'ms' },
      { name: 'pdf.chromium_to_pdfmake_ratio', value: round(chromiumMs / pdfmake), unit: 'x' },
    ];
  } finally {
    await browser.close();
  }
}
