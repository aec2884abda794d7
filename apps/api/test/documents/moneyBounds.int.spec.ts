// Money at the top of the accepted range, through the HTTP app: a quote or invoice comes to at most
// $999,999,999.99 (GST included), so every amount the API writes as a JSON number reads back to the
// cent; past it, a 422 the screens can show, and nothing is written. The figures come from the
// testkit's oracle, written apart from the domain (docs/decisions/0002-money-and-rounding.md).
import { Decimal, MAX_DOCUMENT_TOTAL, toCents } from '@tradie/domain';
import { oracleTotals, type OracleLine } from '@tradie/testkit/oracle/oracle';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';
import { line, setSettings } from './support.ts';

const MAX = toCents(MAX_DOCUMENT_TOTAL);
const LIMIT = /can come to at most \$999,999,999\.99 \(GST included\)/;

/** The cents a JSON reader gets from a number the API wrote. */
const centsRead = (n: number): bigint => BigInt(new Decimal(JSON.stringify(n)).times(100).toFixed());

const decimalText = (maxUnits: number, dp: number): fc.Arbitrary<string> =>
  fc.bigInt({ min: 0n, max: BigInt(maxUnits) }).map((u) => {
    const s = u.toString().padStart(dp + 1, '0');
    return dp === 0 ? s : `${s.slice(0, -dp)}.${s.slice(-dp)}`;
  });
/** Quantities and unit prices across what the API accepts (≤ 1,000,000 and ≤ $100,000,000, four places), its top most of all. */
const qtyArb = fc.oneof(decimalText(10_000_000_000, 4), fc.constantFrom('999999.999', '1000000', '1', '0.5'), decimalText(100_000, 2));
const priceArb = fc.oneof(decimalText(1_000_000_000_000, 4), fc.constantFrom('99999999.9999', '100000000', '86956521.738', '0.01'), decimalText(100_000_000, 2));
const lineArb = fc.record({ qty: qtyArb, unitPrice: priceArb, inclusive: fc.boolean(), rate: fc.constantFrom<'0.15' | '0'>('0.15', '0.15', '0') });
const body = (lines: OracleLine[]) => lines.map((l, i) => line(`Line ${i + 1}`, l.qty, l.unitPrice, { tax_included: l.inclusive, tax_rate: l.rate }));

describe('money at the top of the accepted range', () => {
  const t = useTestApp();

  it('999999.999 × $99,999,999.9999 + $0.01 is a 422 saying why, not an answer a cent wrong; nothing is made', async () => {
    const u = await signUp(t);
    const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Big job', '999999.999', '99999999.9999'), line('Small part', 1, '0.01')] }, u.token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe('An invoice can come to at most $999,999,999.99 (GST included), and this one comes to $114,999,999,884,885.01. Split the work over more than one invoice.');
    expect((await t.get('/invoices', u.token)).json).toEqual([]);
  });

  it('at the limit to the cent: 10 × $86,956,521.738 + GST is $999,999,999.99, every figure exact; a cent more is refused', async () => {
    const u = await signUp(t);
    const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Tower', 10, '86956521.738')] }, u.token);
    expect(r.status).toBe(201);
    expect(r.text).toContain('"subtotal":869565217.38,"gst":130434782.61,"total":999999999.99');
    expect(r.json.formatted.total).toBe('$999,999,999.99');
    const more = await t.put(`/invoices/${r.json.id}`, { line_items: [line('Tower', 10, '86956521.739')] }, u.token);
    expect(more.status).toBe(422);
    expect(more.json.detail).toMatch(LIMIT);
    expect((await t.get(`/invoices/${r.json.id}`, u.token)).json.total).toBe(999999999.99);
  });

  it('a variation past the limit is refused on the accepted quote', async () => {
    const u = await signUp(t);
    const q = (await t.post('/invoices', { type: 'quote', line_items: [line('Tower', 10, '86956521.738')] }, u.token)).json;
    expect((await t.post(`/invoices/${q.id}/accept`, undefined, u.token)).status).toBe(200);
    const r = await t.post(`/invoices/${q.id}/variations`, { line: line('One more bolt', 1, '0.01') }, u.token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(LIMIT);
  });

  it('random documents at the bounds (fast-check): within the limit every amount reads back as the oracle’s cents; past it, 422 and nothing made', async () => {
    const u = await signUp(t);
    let made = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 4 }), fc.constantFrom<'total' | 'line'>('total', 'line'), async (lines, rounding) => {
        await setSettings(t, u.userId, { gst_rounding: rounding });
        const want = oracleTotals(lines, rounding);
        const r = await t.post('/invoices', { type: 'invoice', line_items: body(lines) }, u.token);
        if (want.total > MAX) {
          expect(r.status).toBe(422);
          expect(r.json.detail).toMatch(LIMIT);
        } else {
          expect(r.status).toBe(201);
          made += 1;
          expect([r.json.subtotal, r.json.gst, r.json.total, r.json.balance].map(centsRead)).toEqual([want.subtotal, want.gst, want.total, want.total]);
          expect(r.json.line_items.map((l: { amount: number }) => centsRead(l.amount))).toEqual(want.lineAmounts);
          const [row] = (await t.get('/invoices?limit=1', u.token)).json;
          expect(centsRead(row.total)).toBe(want.total);
        }
        expect((await t.get('/invoices?limit=200', u.token)).json).toHaveLength(made);
      }),
      { numRuns: 40 },
    );
  });
});
