import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { heightFraction, labelEvery, monthLabels, niceScale, tickLabel } from './chart.ts';

describe('niceScale', () => {
  it('picks 1, 2, 2.5 or 5 × 10ⁿ dollar steps that reach the largest value', () => {
    expect(niceScale(345_000n)).toEqual({ top: 400_000n, step: 100_000n, ticks: [0n, 100_000n, 200_000n, 300_000n, 400_000n] });
    expect(niceScale(230_000n).step).toBe(100_000n);
    expect(niceScale(450_000n).step).toBe(200_000n);
    expect(niceScale(900_000n).step).toBe(250_000n);
    expect(niceScale(999n).step).toBe(250n); // $9.99 in four steps of $2.50
    expect(niceScale(399n).step).toBe(100n); // $3.99 in four steps of $1
    expect(niceScale(1n)).toEqual({ top: 100n, step: 100n, ticks: [0n, 100n] });
  });

  it('has a flat scale for all-zero months', () => {
    expect(niceScale(0n)).toEqual({ top: 400n, step: 100n, ticks: [0n, 100n, 200n, 300n, 400n] });
  });

  it('always reaches the value, in at most the asked number of steps', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 14n }), (max) => {
        const s = niceScale(max);
        expect(s.top >= max).toBe(true);
        expect(s.ticks.length - 1 <= 4).toBe(true);
        expect(s.top - s.step < max).toBe(true);
      }),
    );
  });
});

describe('tickLabel', () => {
  it('drops the cents of whole dollars only', () => {
    expect(tickLabel(250_000n)).toBe('$2,500');
    expect(tickLabel(250n)).toBe('$2.50');
    expect(tickLabel(0n)).toBe('$0');
  });
});

describe('heightFraction', () => {
  it('is value / top, clamped to 0…1', () => {
    expect(heightFraction(50n, 200n)).toBe(0.25);
    expect(heightFraction(0n, 200n)).toBe(0);
    expect(heightFraction(-5n, 200n)).toBe(0);
    expect(heightFraction(300n, 200n)).toBe(1);
    expect(heightFraction(5n, 0n)).toBe(0);
  });
});

describe('x-axis labels', () => {
  it('thins the labels when months are narrow', () => {
    expect(labelEvery(12, 600)).toBe(1);
    expect(labelEvery(12, 300)).toBe(2);
    expect(labelEvery(36, 300)).toBe(5);
    expect(labelEvery(0, 300)).toBe(1);
  });

  it('shows the year on the first label and where it changes', () => {
    expect(monthLabels(['2025-11', '2025-12', '2026-01', '2026-02'], 1)).toEqual([
      { month: 'Nov', year: '2025' },
      { month: 'Dec', year: '' },
      { month: 'Jan', year: '2026' },
      { month: 'Feb', year: '' },
    ]);
    expect(monthLabels(['2025-11', '2025-12', '2026-01', '2026-02'], 2)).toEqual([{ month: 'Nov', year: '2025' }, null, { month: 'Jan', year: '2026' }, null]);
  });
});
