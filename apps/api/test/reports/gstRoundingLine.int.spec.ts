// GST rounded on each line (business settings `gst_rounding: 'line'`): a new document takes the
// setting, and its PDF and the CSV exports carry the domain's per-line totals, not the once-per-
// invoice ones. Three lines of 1 × $1.11: per line GST is 3 × $0.17 = $0.51 (total $3.84); once on
// the total it would be $0.50 ($3.83).
import { parse } from 'csv-parse/sync';
import { centsToString, documentTotals, formatNzd, linesSchema } from '@tradie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, pdfText } from '../documents/support.ts';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const lines = [line('Washer', 1, '1.11'), line('Tap cartridge', 1, '1.11'), line('Grease', 1, '1.11')];
const read = (text: string): string[][] => parse(text, { bom: true }) as string[][];

describe("gst_rounding 'line'", () => {
  it("new documents, the PDF and the CSVs all carry the domain's per-line totals", async () => {
    const perLine = documentTotals(linesSchema.parse(lines), 'line');
    const perTotal = documentTotals(linesSchema.parse(lines), 'total');
    expect([perLine.subtotalCents, perLine.gstCents, perLine.totalCents]).toEqual([333n, 51n, 384n]);
    expect(perTotal.gstCents).toBe(50n); // the setting makes a difference here

    t.clock.set('2026-05-31T11:55:00.000Z'); // 11:55 pm on 31 May in NZ, the last day of the GST period April–May…
    const u = await signUp(t);
    expect((await t.put('/business-settings', { gst_rounding: 'line', business_name: 'Per Line Plumbing', gst_number: '49-091-850' }, u.token)).status).toBe(200);
    t.clock.set('2026-05-31T12:05:00.000Z'); // …and the change applies from 1 June, the start of the next one
    const created = await t.post('/invoices', { type: 'invoice', line_items: lines }, u.token);
    expect(created.status).toBe(201);
    const doc = created.json;
    expect(doc.gst_rounding).toBe('line');
    expect(doc.formatted).toMatchObject({ subtotal: formatNzd(333n), gst: formatNzd(51n), total: formatNzd(384n) });

    // The PDF: what the client and IRD read.
    const pdf = await t.app.request(`/api/v1/invoices/${doc.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } });
    expect(pdf.status).toBe(200);
    const text = pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/[ \t]+/g, ' ');
    for (const amount of [formatNzd(333n), formatNzd(51n), formatNzd(384n)]) expect(text).toContain(amount);
    expect(text).not.toContain(formatNzd(383n));
    expect(text).not.toContain(formatNzd(50n));

    // The CSVs count issued invoices.
    expect((await t.post(`/invoices/${doc.id}/issue`, {}, u.token)).status).toBe(200);
    const day: string = doc.issue_date;
    const figures = [centsToString(perLine.subtotalCents), centsToString(perLine.gstCents), centsToString(perLine.totalCents)];

    const gst = await t.get(`/reports/export/gst-csv?start_date=${day}&end_date=${day}`, u.token);
    expect(gst.status).toBe(200);
    const gstRows = read(gst.text);
    const gstHeader = gstRows[0]!;
    const gstRow = gstRows.find((r) => r[0] === doc.reference)!;
    expect(['Excl. GST', 'GST', 'Incl. GST'].map((h) => gstRow[gstHeader.indexOf(h)])).toEqual(figures);
    const gstTotal = gstRows.find((r) => r[0] === 'Total')!;
    expect(['Excl. GST', 'GST', 'Incl. GST'].map((h) => gstTotal[gstHeader.indexOf(h)])).toEqual(figures);

    const [y, m] = day.split('-').map(Number) as [number, number];
    const taxYear = m >= 4 ? y + 1 : y;
    const annual = await t.get(`/reports/export/annual-csv?year=${taxYear}`, u.token);
    expect(annual.status).toBe(200);
    const annualRows = read(annual.text);
    const annualHeader = annualRows[0]!;
    const annualRow = annualRows.find((r) => r[0] === doc.reference)!;
    expect(['Excl. GST', 'GST', 'Incl. GST'].map((h) => annualRow[annualHeader.indexOf(h)])).toEqual(figures);
  });
});
