// The bench figure's arithmetic with a fake clock (timings themselves belong in `npm run bench`).
import { documentFigures } from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { benchInvoice, benchPdf } from '../src/index.ts';

describe('benchPdf', () => {
  it('reports the median of the timed renders', async () => {
    const ticks = [0, 5, 10, 12, 20, 29]; // renders of 5, 2 and 9 ms
    let i = 0;
    const median = await benchPdf({ runs: 3, warmup: 0, now: () => ticks[i++] ?? 0 });
    expect(median).toBe(5);
    expect(i).toBe(6);
  });

  it('renders a 20-line invoice made by the domain', () => {
    const d = benchInvoice(20);
    expect(d.lines).toHaveLength(20);
    expect(documentFigures(d).totalCents > 0n).toBe(true);
  });
});
