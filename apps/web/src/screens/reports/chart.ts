// Geometry of the monthly bar chart (pure; BarChart.tsx draws it). Amounts stay whole cents
// (bigint); only the pixel positions are floating point.
import { formatMonth, formatNzd } from '@tradie/domain';

export interface Scale {
  /** The value at the top of the chart (a whole number of steps). */
  top: bigint;
  step: bigint;
  /** 0, step, 2·step, … top. */
  ticks: bigint[];
}

/**
 * A 'nice' axis for values up to `max` cents: the smallest step of 1, 2, 2.5 or 5 × 10ⁿ dollars
 * (at least $1) such that `count` steps reach `max`.
 */
export function niceScale(max: bigint, count = 4): Scale {
  const steps = BigInt(count);
  let step = 100n;
  if (max > 0n) {
    const factors = [10n, 20n, 25n, 50n];
    outer: for (let magnitude = 10n; ; magnitude *= 10n) {
      for (const f of factors) {
        const candidate = f * magnitude; // 100, 200, 250, 500, 1000, … cents
        if (candidate * steps >= max) {
          step = candidate;
          break outer;
        }
      }
    }
  }
  const n = max > 0n ? (max + step - 1n) / step : steps;
  const ticks: bigint[] = [];
  for (let i = 0n; i <= n; i++) ticks.push(i * step);
  return { top: n * step, step, ticks };
}

/** '$2,500' for whole dollars, '$2.50' otherwise. */
export function tickLabel(cents: bigint): string {
  const text = formatNzd(cents);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}

/** The fraction of the chart's height a value fills, 0…1. */
export function heightFraction(value: bigint, top: bigint): number {
  if (top <= 0n || value <= 0n) return 0;
  if (value >= top) return 1;
  return Number((value * 1_000_000n) / top) / 1_000_000;
}

/** Show every n-th month's label so that labels at least `minLabelWidth` px wide never collide. */
export function labelEvery(months: number, plotWidth: number, minLabelWidth = 34): number {
  if (months <= 0) return 1;
  const slot = plotWidth / months;
  return Math.max(1, Math.ceil(minLabelWidth / slot));
}

export interface MonthLabel {
  /** 'Jan' */
  month: string;
  /** '2026' on the first label and wherever the year changes, else ''. */
  year: string;
}

/** Labels for the x axis: the month's short name, and the year where it starts or changes. */
export function monthLabels(months: readonly string[], every: number): (MonthLabel | null)[] {
  let lastYear = '';
  return months.map((m, i) => {
    if (i % every !== 0) return null;
    const [name = '', year = ''] = formatMonth(m).split(' ');
    const shownYear = year !== lastYear ? year : '';
    lastYear = year;
    return { month: name, year: shownYear };
  });
}
