// What a benchmark reports: one figure per line, {"name","value","unit"} (npm run bench).
export interface Figure {
  name: string;
  value: number;
  unit: string;
}

export const median = (xs: readonly number[]): number => percentile(xs, 50);

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length) - 1;
  return s[Math.min(s.length - 1, Math.max(0, rank))]!;
}

export const round = (x: number, places = 2): number => Number(x.toFixed(places));

/** A small deterministic generator, so every run benchmarks the same data. */
export function seeded(seed = 42): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function timeIt<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}
