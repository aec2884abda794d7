// The lines shown add up to the subtotal shown, on every surface the API makes: the detail, the
// client's link page, the PDF (read back with pdftotext), a credit note and its PDF — for a stage
// (deposit) invoice, a credit note of it, a payment claim and an ordinary invoice with prices typed
// with GST in. Each subtotal and each line's value without GST is checked against the independent
// money oracle (packages/testkit/src/oracle).
//
// The deposit worked by hand: a quote of 1 × $1,812.50 (Rinnai water heater), 8 × $85 (labour) and
// 1 × $39.38 (fittings), + GST on the total = $2,911.66. A 30 % deposit prices its lines GST-inclusive
// at $625.31, $234.60 and $13.59 = $873.50; GST 113.93, subtotal $759.57. Without GST the lines are
// $543.75 (30 % of $1,812.50), $204.00 and $11.82 = $759.57 — not $873.50 under a $759.57 subtotal.
import { oracleShownLinesProblem, oracleTotals, type OracleLine } from '@tradie/testkit/oracle/oracle';
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';
import { publicClient, sendAndReadLink } from '../clientLinks/support.ts';
import { addClient, line, pdfText, setSettings } from './support.ts';

const t = useTestApp();
type User = Awaited<ReturnType<typeof signUp>>;

interface ShownLine {
  description: string;
  qty: number;
  unit_price: number;
  tax_included: boolean;
  tax_rate: number;
  amount_excl_gst: number;
  formatted: { unit_price: string; amount: string };
}

const cents = (money: string): bigint => BigInt(money.replace(/[$,.]/g, ''));
const centsOfNumber = (n: number): bigint => BigInt(Math.round(n * 100));
const asOracle = (l: ShownLine): OracleLine => ({ qty: String(l.qty), unitPrice: String(l.unit_price), inclusive: l.tax_included, rate: l.tax_rate === 0 ? '0' : '0.15' });

/** The API's lines and subtotal (number and text) add up, and agree with the oracle's; the lines' amounts in cents. */
function expectLinesAddUp(lines: readonly ShownLine[], subtotal: number, formattedSubtotal: string, oracleSubtotal?: bigint): bigint[] {
  const shown = lines.map((l) => cents(l.formatted.amount));
  expect(lines.map((l) => centsOfNumber(l.amount_excl_gst))).toEqual(shown);
  expect(shown.reduce((a, b) => a + b, 0n)).toBe(cents(formattedSubtotal));
  expect(centsOfNumber(subtotal)).toBe(cents(formattedSubtotal));
  const oracleLines = lines.map(asOracle);
  const expected = oracleSubtotal ?? oracleTotals(oracleLines, 'total').subtotal;
  expect(cents(formattedSubtotal)).toBe(expected);
  expect(oracleShownLinesProblem(oracleLines, 'total', shown, expected)).toBeNull();
  return shown;
}

/**
 * The line amounts the PDF prints (the last amount of each row between the table's header and the
 * subtotal) and the subtotal printed.
 */
function pdfLines(text: string): { amounts: bigint[]; subtotal: bigint } {
  const rows = text.split('\n');
  const start = rows.findIndex((r) => /Amount excl\. GST/.test(r));
  const end = rows.findIndex((r, i) => i > start && /Subtotal \(excl\. GST\)|Credit excl\. GST/.test(r));
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  const amounts = rows
    .slice(start + 1, end)
    .map((r) => /(\$[\d,]+\.\d{2})\s*$/.exec(r)?.[1])
    .filter((m): m is string => m !== undefined)
    .map(cents);
  const subtotal = /(?:Subtotal \(excl\. GST\)|Credit excl\. GST)\s+(\$[\d,]+\.\d{2})/.exec(rows[end]!)![1]!;
  return { amounts, subtotal: cents(subtotal) };
}

async function pdfOf(path: string, token?: string): Promise<string> {
  const r = await t.app.request(`/api/v1${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {}, { remoteAddress: '198.51.100.77' });
  expect(r.status).toBe(200);
  return pdfText(Buffer.from(await r.arrayBuffer()));
}

async function acceptedQuote(u: User, clientId: string, lines = [line('Rinnai water heater', 1, '1812.50'), line('Labour', 8, 85), line('Fittings and sundries', 1, '39.38')]) {
  const q = await t.post('/invoices', { type: 'quote', client_id: clientId, line_items: lines }, u.token);
  expect(q.status).toBe(201);
  expect(q.json.total).toBe(2911.66);
  expect((await t.post(`/invoices/${q.json.id}/accept`, undefined, u.token)).status).toBe(200);
  return q.json.id as string;
}

describe('the lines shown add up to the subtotal shown', () => {
  it('a 30 % deposit: the detail, the client’s page and the PDF; then a credit note of it and its PDF', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { business_name: 'Kōwhai Plumbing Limited', gst_number: '49-091-850' });
    const clientId = await addClient(t, u.userId, { name: 'Aroha Ngata', email: 'aroha@example.nz' });
    const quoteId = await acceptedQuote(u, clientId);
    const deposit = await t.post(`/invoices/${quoteId}/stages`, { kind: 'deposit', percent: 30 }, u.token);
    expect(deposit.status).toBe(201);
    const id = deposit.json.id as string;

    const detail = (await t.get(`/invoices/${id}`, u.token)).json;
    expect([detail.total, detail.gst, detail.subtotal]).toEqual([873.5, 113.93, 759.57]);
    expect(expectLinesAddUp(detail.line_items, detail.subtotal, detail.formatted.subtotal)).toEqual([54375n, 20400n, 1182n]);
    expect(detail.line_items[0].formatted).toEqual({ unit_price: '$543.75', amount: '$543.75' });

    const { token } = await sendAndReadLink(t, u, id);
    const page = (await publicClient(t).get(`/invoices/${token}`)).json;
    // The client's page shows the same lines, without what they cost the business.
    const clientSees = (lines: Record<string, unknown>[]) => lines.map(({ cost: _cost, cost_amount: _costAmount, category: _category, markup: _markup, price_book_item_id: _item, ...l }) => l);
    expect(page.document.line_items).toEqual(clientSees(detail.line_items));
    expectLinesAddUp(page.document.line_items, page.document.subtotal, page.document.formatted.subtotal);

    for (const text of [await pdfOf(`/invoices/${id}/pdf`, u.token), await pdfOf(`/public/invoices/${token}/pdf`)]) {
      const printed = pdfLines(text);
      expect(printed.amounts).toEqual([54375n, 20400n, 1182n]);
      expect(printed.subtotal).toBe(75957n);
    }

    // A credit of the labour line: $234.60 incl. GST is $204.00 without it.
    const cn = await t.post(`/invoices/${id}/credit-notes`, { lines: [{ line_index: 1 }], reason: 'Labour not needed' }, u.token);
    expect(cn.status).toBe(201);
    expect(expectLinesAddUp(cn.json.line_items, cn.json.subtotal, cn.json.formatted.subtotal)).toEqual([20400n]);
    const printed = pdfLines(await pdfOf(`/credit-notes/${cn.json.id}/pdf`, u.token));
    expect(printed).toEqual({ amounts: [20400n], subtotal: 20400n });
  });

  it('a payment claim: its invoice lines add up on the detail and the PDF', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { business_name: 'Waikato Framing Ltd', gst_number: '123-456-788' });
    const clientId = await addClient(t, u.userId, { name: 'Hemi Parata', email: 'hemi@example.com', address: '12 Kahikatea Drive, Hamilton' });
    expect((await t.put(`/payment-claims/clients/${clientId}`, { payment_claims: true }, u.token)).status).toBe(200);
    const quoteId = await acceptedQuote(u, clientId);
    const claim = await t.post(`/invoices/${quoteId}/stages`, { kind: 'progress', percent_complete: 40 }, u.token);
    expect(claim.json.is_payment_claim).toBe(true);
    const detail = (await t.get(`/invoices/${claim.json.id}`, u.token)).json;
    const shown = expectLinesAddUp(detail.line_items, detail.subtotal, detail.formatted.subtotal);
    const printed = pdfLines(await pdfOf(`/invoices/${claim.json.id}/pdf`, u.token));
    expect(printed).toEqual({ amounts: shown, subtotal: centsOfNumber(detail.subtotal) });
  });

  it('an ordinary invoice with prices typed with GST in, and one without: the detail and the PDF', async () => {
    const u = await signUp(t);
    const clientId = await addClient(t, u.userId, { name: 'Ben Smith', email: 'ben@example.nz' });
    const lines = [line('Heat pump, supplied', 1, 2300, { tax_included: true }), line('Filters', 3, 10, { tax_included: true }), line('Install labour', 3, 85), line('Export crate', 1, 40, { tax_rate: 0 })];
    const doc = await t.post('/invoices', { type: 'invoice', client_id: clientId, line_items: lines }, u.token);
    expect(doc.status).toBe(201);
    const detail = (await t.get(`/invoices/${doc.json.id}`, u.token)).json;
    // $2,300.00 incl. is $2,000.00 without GST; 3 × $10 incl. ($30.00, 3.913… GST) is $26.09, which
    // no 4-decimal price times 3 makes: its price is shown as charged, with GST.
    expect(detail.line_items.map((l: ShownLine) => l.formatted)).toEqual([
      { unit_price: '$2,000.00', amount: '$2,000.00' },
      { unit_price: '$10.00 incl. GST', amount: '$26.09' },
      { unit_price: '$85.00', amount: '$255.00' },
      { unit_price: '$40.00', amount: '$40.00' },
    ]);
    const shown = expectLinesAddUp(detail.line_items, detail.subtotal, detail.formatted.subtotal);
    const printed = pdfLines(await pdfOf(`/invoices/${doc.json.id}/pdf`, u.token));
    expect(printed).toEqual({ amounts: shown, subtotal: centsOfNumber(detail.subtotal) });
  });

  it('a price finer than a cent is shown with four decimals, never three: $231.8750 on the detail and the client’s page', async () => {
    const u = await signUp(t);
    const clientId = await addClient(t, u.userId, { name: 'Ben Smith', email: 'ben@example.nz' });
    const q = await t.post('/invoices', { type: 'quote', client_id: clientId, line_items: [line('Hot water cylinder', 1, '231.875'), line('Screws', 1000, '0.0055')] }, u.token);
    const detail = (await t.get(`/invoices/${q.json.id}`, u.token)).json;
    expect(detail.line_items.map((l: ShownLine) => l.formatted)).toEqual([{ unit_price: '$231.8750', amount: '$231.88' }, { unit_price: '$0.0055', amount: '$5.50' }]);
    const { token } = await sendAndReadLink(t, u, q.json.id);
    const page = (await publicClient(t).get(`/quotes/${token}`)).json;
    expect(page.document.line_items.map((l: ShownLine) => l.formatted.unit_price)).toEqual(['$231.8750', '$0.0055']);
    expect(pdfText(Buffer.from(await (await t.app.request(`/api/v1/invoices/${q.json.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } })).arrayBuffer()))).toContain('$231.8750');
  });
});
