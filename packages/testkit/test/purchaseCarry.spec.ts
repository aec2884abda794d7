// Costs changed after their GST period was exported, against the independent oracle: random cost
// histories (recorded, changed, deleted, some before the export and some after), one two-monthly
// period exported after it ended. The exported period keeps exactly the Box 11 it had when it was
// exported; the next period takes the difference; nothing is lost or counted twice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CostEntry, type CostVersion, type LocalDate, purchaseAdjustments, purchaseCarryNotice, purchasesWithCarries, sumPurchases, toCents } from '@tradie/domain';
import { addDays } from '../src/oracle/arbitraries.ts';
import { oracleBox11WithExport, type OracleCost, type OracleCostVersion } from '../src/oracle/purchases.ts';

const EXPORT = { start: '2027-01-01' as LocalDate, end: '2027-02-28' as LocalDate, at: '2027-03-05T00:00:00.000Z' };
const AFTER = { start: '2027-03-01' as LocalDate, end: '2027-12-31' as LocalDate };

const costArb: fc.Arbitrary<OracleCost> = fc.record({
  amount: fc.integer({ min: 1, max: 50_000 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`),
  gst: fc.constantFrom('standard' as const, 'standard' as const, 'none' as const),
  held: fc.boolean(),
  credit: fc.constantFrom(false, false, false, false, true),
  date: fc.integer({ min: 0, max: 180 }).map((d) => addDays('2027-01-01', d)),
  paidDate: fc.constant(null),
  category: fc.constant('materials'),
});

/** A history: recorded, then changed or deleted; each step at a later hour, before or after the export. */
const historyArb: fc.Arbitrary<OracleCostVersion[]> = fc
  .tuple(fc.array(fc.tuple(fc.integer({ min: 1, max: 40 * 24 }), fc.option(costArb, { nil: null, freq: 5 })), { minLength: 1, maxLength: 4 }), costArb, fc.integer({ min: 0, max: 58 * 24 }))
  .map(([steps, first, startHour]) => {
    let at = Date.parse('2027-01-01T00:00:00.000Z') + startHour * 3_600_000;
    const out: OracleCostVersion[] = [{ at: new Date(at).toISOString(), cost: first }];
    for (const [hours, cost] of steps) {
      if (out.at(-1)!.cost === null) break;
      at += hours * 3_600_000;
      out.push({ at: new Date(at).toISOString(), cost });
    }
    return out;
  })
  // Every change is made on a day of the later period (so its carry lands there).
  .filter((h) => h.every((v) => v.at.slice(0, 10) <= '2027-12-30'));

const entryOf = (c: OracleCost): CostEntry => ({
  kind: 'receipt', supplier: 'Supplier', date: c.date as LocalDate, paidDate: null, amountCents: toCents(c.amount), gst: c.gst, category: c.category, jobId: null,
  supplyInformationHeld: c.held, credit: c.credit,
});

function domainBox11(histories: OracleCostVersion[][], range: { start: LocalDate; end: LocalDate }, exports: (typeof EXPORT)[]): bigint {
  const map = new Map<string, CostVersion[]>(histories.map((h, i) => [`c${i}`, h.map((v) => ({ at: v.at, entry: v.cost ? entryOf(v.cost) : null }))]));
  const current = histories.flatMap((h, i) => (h.at(-1)!.cost ? [{ id: `c${i}`, entry: entryOf(h.at(-1)!.cost!) }] : [])).filter((c) => c.entry.date >= range.start && c.entry.date <= range.end);
  return sumPurchases(purchasesWithCarries(current, map, exports, range).entries, range, 'invoice', true).claimableCents;
}

describe('costs changed after their GST period was exported', () => {
  it('the exported period keeps its Box 11 and the next period takes the difference, as the oracle works it', () => {
    fc.assert(
      fc.property(fc.array(historyArb, { minLength: 1, maxLength: 8 }), (histories) => {
        const oracle = oracleBox11WithExport(histories, EXPORT, AFTER, true);
        expect(domainBox11(histories, EXPORT, [EXPORT])).toBe(oracle.exported);
        expect(domainBox11(histories, AFTER, [EXPORT])).toBe(oracle.after);
      }),
      { numRuns: 300 },
    );
  });

  it('without an export a cost counts as it stands now, on its own date', () => {
    fc.assert(
      fc.property(fc.array(historyArb, { minLength: 1, maxLength: 8 }), (histories) => {
        const now = histories.map((h) => h.at(-1)!.cost).filter((c): c is OracleCost => c !== null);
        for (const range of [EXPORT, AFTER]) expect(domainBox11(histories, range, [])).toBe(sumPurchases(now.map(entryOf), range, 'invoice', true).claimableCents);
      }),
      { numRuns: 200 },
    );
  });

  it('worked by hand: a $115.00 receipt of 10 January changed to $230.00 and then deleted after Jan–Feb was exported', () => {
    const receipt = (amount: string): CostVersion['entry'] => entryOf({ amount, gst: 'standard', held: true, credit: false, date: '2027-01-10', paidDate: null, category: 'materials' });
    const history: CostVersion[] = [
      { at: '2027-01-10T01:00:00.000Z', entry: receipt('115.00') },
      { at: '2027-03-10T01:00:00.000Z', entry: receipt('230.00') },
    ];
    const current = [{ id: 'r', entry: receipt('230.00')! }];
    const janFeb = purchasesWithCarries(current, new Map([['r', history]]), [EXPORT], EXPORT);
    expect(sumPurchases(janFeb.entries, EXPORT, 'invoice', true).claimableCents).toBe(11500n);
    expect(janFeb.carried).toEqual([]);
    const march = { start: '2027-03-01' as LocalDate, end: '2027-03-31' as LocalDate };
    const changed = purchasesWithCarries([], new Map([['r', history]]), [EXPORT], march);
    expect(sumPurchases(changed.entries, march, 'invoice', true)).toMatchObject({ claimableCents: 11500n, count: 1 });
    expect(purchaseAdjustments(changed.carried, true)).toEqual({
      count: 2, amount: 115, claimed: 115,
      lines: [
        { supplier: 'Supplier', date: '2027-01-10', carried_to: '2027-03-10', exported_period: 'Jan–Feb 2027', change: 'taken back', amount: -115, claimed: -115 },
        { supplier: 'Supplier', date: '2027-01-10', carried_to: '2027-03-10', exported_period: 'Jan–Feb 2027', change: 'added', amount: 230, claimed: 230 },
      ],
    });
    const deleted = [...history, { at: '2027-03-20T01:00:00.000Z', entry: null }];
    const both = purchasesWithCarries([], new Map([['r', deleted]]), [EXPORT], march);
    expect(sumPurchases(both.entries, march, 'invoice', true).claimableCents).toBe(-11500n);
    expect(purchaseCarryNotice(['2027-01-10' as LocalDate], '2027-03-10T01:00:00.000Z', [EXPORT])).toBe(
      'This cost is dated in Jan–Feb 2027, a GST period you have already exported for your accountant. ' +
        'This change is listed as an adjustment to carry in the GST report that includes 10 March 2027; the figures you exported stay as they were.',
    );
    expect(purchaseCarryNotice(['2027-03-10' as LocalDate], '2027-03-10T01:00:00.000Z', [EXPORT])).toBeNull();
  });
});
