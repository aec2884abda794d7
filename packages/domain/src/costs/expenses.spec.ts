import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CostEntry } from './costs.ts';
import { sumExpenses } from './expenses.ts';

const YEAR = { start: '2025-04-01', end: '2026-03-31' } as const;
const cost = (amountCents: bigint, over: Partial<CostEntry> = {}): CostEntry => ({
  kind: 'receipt', supplier: 'Plumbing World', date: '2025-05-05', paidDate: null, amountCents, gst: 'standard', category: 'materials', jobId: null, supplyInformationHeld: false, ...over,
});

describe('sumExpenses', () => {
  it('hand-worked: claimed GST taken off, unclaimed kept, a supplier credit taking away, outside the year left out', () => {
    const sums = sumExpenses(
      [
        cost(16100n), // 161.00 incl. 21.00 claimed → 140.00
        cost(23000n, { category: 'Equipment' }), // over $200 without the tax invoice: 230.00 whole
        cost(1150n, { credit: true }), // a credit of 11.50 incl. 1.50 → −10.00
        cost(5000n, { gst: 'none', category: 'Fuel' }), // no GST: 50.00, under its own name
        cost(99999n, { date: '2026-04-01' }), // the next tax year
      ],
      YEAR,
      true,
    );
    expect(sums.totalCents).toBe(14000n + 23000n - 1000n + 5000n);
    expect(sums.count).toBe(4);
    expect(sums.byCategory).toEqual([
      { category: 'equipment', cents: 23000n },
      { category: 'materials', cents: 13000n },
      { category: 'fuel', cents: 5000n },
    ]);
  });

  it('not registered for GST: every cost counts whole', () => {
    expect(sumExpenses([cost(16100n), cost(1150n, { credit: true })], YEAR, false).totalCents).toBe(16100n - 1150n);
  });

  it('the categories add up to the total, and each cost is counted at most once, against a plain sum', () => {
    const entry = fc.record({
      amountCents: fc.bigInt({ min: 1n, max: 5_000_000n }),
      gst: fc.constantFrom('standard' as const, 'none' as const),
      supplyInformationHeld: fc.boolean(),
      credit: fc.boolean(),
      category: fc.constantFrom('materials', 'labour', 'equipment', 'Fuel', 'subcontractor'),
      date: fc.constantFrom('2025-03-31', '2025-04-01', '2025-12-25', '2026-03-31', '2026-04-01'),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), fc.boolean(), (rows, registered) => {
        const entries = rows.map((r) => cost(r.amountCents, r));
        const sums = sumExpenses(entries, YEAR, registered);
        expect(sums.byCategory.reduce((s, c) => s + c.cents, 0n)).toBe(sums.totalCents);
        const inYear = rows.filter((r) => r.date >= YEAR.start && r.date <= YEAR.end);
        expect(sums.count).toBe(inYear.length);
        // The oracle: a claimable cost loses round-half-up(amount × 3 / 23); anything else counts whole.
        const plain = inYear.reduce((s, r) => {
          const signed = r.credit ? -r.amountCents : r.amountCents;
          const size = r.amountCents;
          const claimable = registered && r.gst === 'standard' && (size <= 20000n || r.supplyInformationHeld);
          const gst = (2n * signed * 3n + (signed >= 0n ? 23n : -23n)) / 46n;
          return s + (claimable ? signed - gst : signed);
        }, 0n);
        expect(sums.totalCents).toBe(plain);
      }),
    );
  });
});
