import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareJobs, type JobForOrder } from './jobOrder.ts';

const jobs = fc.uniqueArray(
  fc.record({ position: fc.nat({ max: 1000 }), profitCents: fc.bigInt({ min: -100_000n, max: 100_000n }), overrunPercent: fc.option(fc.bigInt({ min: -100n, max: 500n })) }),
  { selector: (j) => j.position, maxLength: 30 },
);

describe('compareJobs', () => {
  it('profit: never a job with less profit before one with more; equal profit, the newer first', () => {
    fc.assert(
      fc.property(jobs, (js) => {
        const sorted = [...js].sort(compareJobs('profit'));
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1]!, sorted[i]!];
          expect(a.profitCents >= b.profitCents).toBe(true);
          if (a.profitCents === b.profitCents) expect(a.position > b.position).toBe(true);
        }
      }),
    );
  });

  it('overrun: the most over first, jobs with nothing quoted at a cost last, newest first among equals', () => {
    fc.assert(
      fc.property(jobs, (js) => {
        const sorted = [...js].sort(compareJobs('overrun'));
        const firstNull = sorted.findIndex((j) => j.overrunPercent === null);
        if (firstNull >= 0) expect(sorted.slice(firstNull).every((j) => j.overrunPercent === null)).toBe(true);
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1]!, sorted[i]!];
          if (a.overrunPercent !== null && b.overrunPercent !== null) expect(a.overrunPercent >= b.overrunPercent).toBe(true);
          if (a.overrunPercent === b.overrunPercent) expect(a.position > b.position).toBe(true);
        }
      }),
    );
  });

  it('recent: newest first, whatever the figures', () => {
    const js: JobForOrder[] = [
      { position: 1, profitCents: 900n, overrunPercent: 50n },
      { position: 3, profitCents: -10n, overrunPercent: null },
      { position: 2, profitCents: 0n, overrunPercent: 0n },
    ];
    expect([...js].sort(compareJobs('recent')).map((j) => j.position)).toEqual([3, 2, 1]);
    expect([...js].sort(compareJobs('profit')).map((j) => j.position)).toEqual([1, 2, 3]);
    expect([...js].sort(compareJobs('overrun')).map((j) => j.position)).toEqual([1, 2, 3]);
  });
});
