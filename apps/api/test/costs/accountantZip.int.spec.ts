// The accountant's ZIP carries the period's costs and hours: purchases.csv (receipts and bills),
// expenses.csv and hours.csv, by the supplier's date, through the one CSV writer (a formula is
// defused), and each receipt's photo or PDF in receipts/, named in its row; another account's
// entries are never in it.
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';

describe("the accountant's ZIP: costs and hours", () => {
  const t = useTestApp();

  it('purchases.csv, expenses.csv and hours.csv hold the period’s entries, oldest first', async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const quote = (await t.post('/invoices', { type: 'quote', line_items: [{ description: 'Labour', qty: 1, unit_price: 85, tax_included: false, tax_rate: 0.15 }] }, u.token)).json;
    expect((await t.post(`/invoices/${quote.id}/accept`, undefined, u.token)).status).toBe(200);
    const post = async (path: string, body: Record<string, unknown>, token = u.token) => expect((await t.post(path, body, token)).status).toBe(201);
    await post('/costs', { kind: 'bill', supplier: '=HYPERLINK("x")', date: '2025-06-02', paid_date: '2025-06-30', amount: '230.00', supply_information_held: true, job_id: quote.id, note: 'Cylinder, "big"' });
    const mitre = await t.post('/costs', { kind: 'receipt', supplier: 'Mitre 10', date: '2025-05-01', amount: '46.00' }, u.token);
    expect(mitre.status).toBe(201);
    // Its receipt, a PDF from the supplier's email: in the ZIP beside the CSV that names it.
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n');
    const fd = new FormData();
    fd.append('file', new File([pdf], 'mitre.pdf'));
    expect((await t.call('POST', `/costs/${mitre.json.id}/receipt`, { token: u.token, body: fd })).status).toBe(200);
    const receiptName = `receipts/2025-05-01 Mitre 10 ${String(mitre.json.id).replace(/-/g, '').slice(-8)}.pdf`;
    await post('/costs', { kind: 'expense', supplier: 'Z Energy', date: '2025-07-01', amount: '92.00', category: 'fuel' });
    await post('/costs', { kind: 'receipt', supplier: 'Before the year', date: '2025-03-31', amount: '10.00' });
    await post('/hours', { who: 'Tama', date: '2025-06-02', hours: '1.5', rate: '45.00', job_id: quote.id });
    await post('/costs', { kind: 'receipt', supplier: 'Secret supplier of B', date: '2025-06-01', amount: '11.50' }, other.token);

    const res = await t.app.request('/api/v1/reports/export/accountant-zip?year=2026', { headers: { Authorization: `Bearer ${u.token}` } });
    expect(res.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const read = (name: string): string[][] => parse(new TextDecoder().decode(zip[name]!), { bom: true }) as string[][];
    expect(read('purchases.csv')).toEqual([
      ['Date', 'Paid date', 'Kind', 'Supplier', 'Category', 'Job', 'Incl. GST', 'GST', 'GST claimed', 'Why not claimed', 'Tax invoice held', 'Supplier credit', 'Note', 'Receipt file'],
      ['2025-05-01', '', 'receipt', 'Mitre 10', 'materials', '', '46.00', '15%', '6.00', '', 'No', 'No', '', receiptName],
      ['2025-06-02', '2025-06-30', 'bill', `'=HYPERLINK("x")`, 'materials', quote.reference, '230.00', '15%', '30.00', '', 'Yes', 'No', 'Cylinder, "big"', ''],
    ]);
    expect(zip[receiptName]).toEqual(pdf);
    expect(Object.keys(zip).filter((n) => n.startsWith('receipts/'))).toEqual([receiptName]);
    expect(read('expenses.csv').slice(1)).toEqual([['2025-07-01', '', 'expense', 'Z Energy', 'fuel', '', '92.00', '15%', '12.00', '', 'No', 'No', '', '']]);
    expect(read('hours.csv')).toEqual([['Date', 'Who', 'Hours', 'Hourly cost', 'Cost', 'Job', 'Note'], ['2025-06-02', 'Tama', '1.5', '45.00', '67.50', quote.reference, '']]);
  });
});
