// The order of the jobs list: the newest first, the most profit so far first, or the most over its
// quoted cost first (a job with nothing quoted at a cost has no overrun and goes last). Ties keep
// the newest first, so the order is the same on every load.

export type JobOrder = 'recent' | 'profit' | 'overrun';

export interface JobForOrder {
  /** Newer jobs have a higher position. */
  position: number;
  profitCents: bigint;
  /** Whole percent over the quoted cost (negative: under); null when nothing was quoted at a cost. */
  overrunPercent: bigint | null;
}

const byNewest = (a: JobForOrder, b: JobForOrder): number => b.position - a.position;
const desc = (a: bigint, b: bigint): number => (a === b ? 0 : a > b ? -1 : 1);

export function compareJobs(order: JobOrder): (a: JobForOrder, b: JobForOrder) => number {
  if (order === 'profit') return (a, b) => desc(a.profitCents, b.profitCents) || byNewest(a, b);
  if (order === 'overrun')
    return (a, b) => {
      if (a.overrunPercent === null || b.overrunPercent === null) return (a.overrunPercent === null ? 1 : 0) - (b.overrunPercent === null ? 1 : 0) || byNewest(a, b);
      return desc(a.overrunPercent, b.overrunPercent) || byNewest(a, b);
    };
  return byNewest;
}
