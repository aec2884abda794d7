// Costs, hours and the purchases side of the GST return: cases worked by hand, and properties over
// random costs checked against the independent purchases oracle (Box 12 = Box 11 × 3/23 to the
// cent; Box 14 = Box 12 + Box 13; Box 15 = Box 10 − Box 14; job profit = invoiced − actual costs).
import { type OracleCost, oracleHoursCost, oracleJobProfit, oraclePurchaseBoxes } from '@tradie/testkit/oracle/purchases';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LocalDate } from '../dates/dates.ts';
import { centsToString } from '../money/money.ts';
import { gstReport } from '../reports/gstReport.ts';
import {
  type CostEntry,
  claimReason,
  costToBusinessCents,
  hoursCostCents,
  jobProfit,
  purchaseBoxesCents,
  requireCostCents,
  requireHours,
  requireRate,
  sumPurchases,
} from './costs.ts';

const d = (s: string): LocalDate => s as LocalDate;
const cost = (amount: bigint, over: Partial<CostEntry> = {}): CostEntry => ({
  kind: 'receipt', supplier: 'Placemakers', date: d('2026-03-10'), paidDate: d('2026-03-10'), amountCents: amount, gst: 'standard',
  category: 'materials', jobId: null, supplyInformationHeld: false, ...over,
});
const MAR_APR = { start: d('2026-03-01'), end: d('2026-04-30') };

describe('claiming the GST on a cost', () => {
  it('a $200.00 receipt is claimable without supply information; $200.01 is not; with it, it is', () => {
    expect(claimReason(cost(20000n), true)).toBe('claimable');
    expect(claimReason(cost(20001n), true)).toBe('needs_supply_information');
    expect(claimReason(cost(20001n, { supplyInformationHeld: true }), true)).toBe('claimable');
  });
  it('nothing is claimed by a business not registered for GST, nor on a cost without GST', () => {
    expect(claimReason(cost(1000n, { supplyInformationHeld: true }), false)).toBe('not_registered');
    expect(claimReason(cost(1000n, { gst: 'none' }), true)).toBe('no_gst');
  });
  it('amounts, hours and rates a person types are bounded with words they can act on', () => {
    expect(requireCostCents('230.00')).toBe(23000n);
    expect(() => requireCostCents('0')).toThrow('The amount must be more than $0.00');
    expect(() => requireCostCents('1.234')).toThrow('dollars and cents');
    expect(() => requireCostCents('100000000.01')).toThrow('at most $100,000,000.00');
    expect(requireHours('1.25')).toBe('1.25');
    expect(() => requireHours('0')).toThrow('more than 0');
    expect(() => requireHours('24.5')).toThrow('at most 24');
    expect(() => requireRate('45.555')).toThrow('dollars and cents');
  });
});

describe('purchases in the GST return, worked by hand', () => {
  // March: a $230.00 bill with a tax invoice (paid in April), a $57.50 receipt, a $345.00 receipt
  // without supply information (not claimed), a $23.00 credit from the supplier of the bill.
  const costs = [
    cost(23000n, { kind: 'bill', date: d('2026-03-05'), paidDate: d('2026-04-20'), supplyInformationHeld: true }),
    cost(5750n, { date: d('2026-03-12'), paidDate: d('2026-03-12') }),
    cost(34500n, { date: d('2026-03-20'), paidDate: d('2026-03-20') }),
    cost(2300n, { kind: 'bill', date: d('2026-03-25'), paidDate: d('2026-04-20'), credit: true, supplyInformationHeld: true }),
  ];
  it('invoice basis, March: Box 11 $264.50 (230 + 57.50 − 23), Box 12 $34.50, the $345 receipt left out and named', () => {
    const p = sumPurchases(costs, { start: d('2026-03-01'), end: d('2026-03-31') }, 'invoice', true);
    expect(p.claimableCents).toBe(26450n);
    expect(p.notClaimed).toEqual({ count: 1, amountCents: 34500n, needsSupplyInformation: 1 });
    expect(purchaseBoxesCents(p, 15000n)).toEqual({ box11: 26450n, box12: 3450n, box13: 0n, box14: 3450n, box15: 11550n });
  });
  it('payments basis: March counts only the $57.50 receipt; April the bill less the credit, paid then', () => {
    expect(sumPurchases(costs, { start: d('2026-03-01'), end: d('2026-03-31') }, 'payments', true).claimableCents).toBe(5750n);
    expect(sumPurchases(costs, { start: d('2026-04-01'), end: d('2026-04-30') }, 'payments', true).claimableCents).toBe(20700n);
  });
  it('the report gives boxes 5–15 from one function: a refund shows as a negative Box 15', () => {
    const r = gstReport({ invoices: [], payments: [], costs, registered: true }, MAR_APR, 'invoice');
    expect(r.gst_return).toEqual({ box5: 0, box6: 0, box7: 0, box8: 0, box9: 0, box10: 0, box11: 264.5, box12: 34.5, box13: 0, box14: 34.5, box15: -34.5 });
  });
  it('without costs Box 15 is Box 10 and Boxes 11–14 are nothing', () => {
    const r = gstReport({ invoices: [], payments: [] }, MAR_APR, 'payments');
    expect([r.gst_return.box11, r.gst_return.box14, r.gst_return.box15]).toEqual([0, 0, r.gst_return.box10]);
  });
});

describe('hours and the job’s real profit, worked by hand', () => {
  it('3 hours at $45.00 cost $135.00; 1.25 hours at $33.33 cost $41.66 (41.6625)', () => {
    expect(hoursCostCents({ hours: '3', rate: '45.00' })).toBe(13500n);
    expect(hoursCostCents({ hours: '1.25', rate: '33.33' })).toBe(4166n);
  });
  it('a $230 claimable bill costs the business $200; an unclaimable $345 receipt costs all of it', () => {
    expect(costToBusinessCents(cost(23000n, { supplyInformationHeld: true }), true)).toBe(20000n);
    expect(costToBusinessCents(cost(34500n), true)).toBe(34500n);
  });
  it('invoiced $1,000 net, $230 materials bill and 3 hours at $45: actual $335, profit $665', () => {
    const p = jobProfit({
      quotedSellCents: 120000n, quotedCostCents: 40000n, invoicedNetCents: 100000n, registered: true,
      costs: [cost(23000n, { supplyInformationHeld: true })], hours: [{ hours: '3', rate: '45.00' }],
    });
    expect(p.byCategory).toEqual([{ category: 'Labour', cents: 13500n }, { category: 'materials', cents: 20000n }]);
    expect(p.actualCostCents).toBe(33500n);
    expect(p.profitSoFarCents).toBe(66500n);
  });
});

// ── Properties against the oracle ────────────────────────────────────────────

const dateArb = fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2026-06-30T00:00:00Z'), noInvalidDate: true }).map((x) => x.toISOString().slice(0, 10));
const costArb = fc.record({
  cents: fc.bigInt({ min: 1n, max: 5_000_000n }),
  gst: fc.constantFrom<'standard' | 'none'>('standard', 'standard', 'none'),
  held: fc.boolean(),
  credit: fc.boolean(),
  date: dateArb,
  paidDate: fc.option(dateArb, { nil: null }),
  category: fc.constantFrom('materials', 'subcontractors', 'fuel'),
});
type Arb = typeof costArb extends fc.Arbitrary<infer T> ? T : never;
const toEntry = (c: Arb): CostEntry => cost(c.cents, { gst: c.gst, supplyInformationHeld: c.held, credit: c.credit, date: d(c.date), paidDate: c.paidDate === null ? null : d(c.paidDate), category: c.category });
const toOracle = (c: Arb): OracleCost => ({ amount: centsToString(c.cents), gst: c.gst, held: c.held, credit: c.credit, date: c.date, paidDate: c.paidDate, category: c.category });

describe('purchases against the oracle', () => {
  it('Boxes 11–15 equal the oracle on both bases, registered or not, with any Box 10 and Box 13', () => {
    fc.assert(fc.property(
      fc.array(costArb, { maxLength: 30 }), fc.constantFrom<'invoice' | 'payments'>('invoice', 'payments'), fc.boolean(),
      fc.bigInt({ min: -1_000_000n, max: 10_000_000n }), fc.bigInt({ min: 0n, max: 100_000n }),
      (xs, basis, registered, box10, box13) => {
        const p = sumPurchases(xs.map(toEntry), MAR_APR, basis, registered, box13);
        expect(purchaseBoxesCents(p, box10)).toEqual(oraclePurchaseBoxes(xs.map(toOracle), MAR_APR.start, MAR_APR.end, basis, registered, box10, box13));
      },
    ));
  });
  it('Box 12 is Box 11 × 3/23 to the nearest cent: within half a cent of the exact figure', () => {
    fc.assert(fc.property(fc.array(costArb, { maxLength: 30 }), (xs) => {
      const b = purchaseBoxesCents(sumPurchases(xs.map(toEntry), MAR_APR, 'invoice', true), 0n);
      const err = b.box12 * 23n - b.box11 * 3n; // 23 × (rounded − exact)
      expect(2n * (err < 0n ? -err : err) <= 23n).toBe(true);
      expect(b.box14).toBe(b.box12 + b.box13);
    }));
  });
  it('job profit = invoiced − actual costs, and equals the oracle; the categories add up to the actual', () => {
    const hoursArb = fc.record({ hours: fc.integer({ min: 1, max: 2400 }).map((h) => (h / 100).toFixed(2)), rate: fc.integer({ min: 0, max: 20000 }).map((r) => (r / 100).toFixed(2)) });
    fc.assert(fc.property(fc.array(costArb, { maxLength: 20 }), fc.array(hoursArb, { maxLength: 10 }), fc.bigInt({ min: 0n, max: 10_000_000n }), fc.boolean(), (xs, hs, invoiced, registered) => {
      const p = jobProfit({ quotedSellCents: 0n, quotedCostCents: 0n, invoicedNetCents: invoiced, costs: xs.map(toEntry), hours: hs, registered });
      const o = oracleJobProfit(invoiced, xs.map(toOracle), hs, registered);
      expect(p.actualCostCents).toBe(o.actual);
      expect(p.profitSoFarCents).toBe(invoiced - p.actualCostCents);
      expect(p.profitSoFarCents).toBe(o.profit);
      expect(p.byCategory.reduce((s, c) => s + c.cents, 0n)).toBe(p.actualCostCents);
      for (const h of hs) expect(hoursCostCents(h)).toBe(oracleHoursCost(h));
    }));
  });
});
