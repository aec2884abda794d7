// A command's today (documents/commands/run.ts nzToday): the domain's NZ day, asked of Intl once per UTC hour.
import { nzDateOf } from '@tradie/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nzToday } from '../../src/documents/commands/work.ts';

describe('nzToday', () => {
  it('is nzDateOf for any instant, across both daylight-saving changes of many years', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) }), (t) => {
        expect(nzToday(new Date(t))).toBe(nzDateOf(new Date(t)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('is right on both sides of every NZ midnight and clock change in 2026 (each hour, the first and the last millisecond)', () => {
    for (let h = Date.UTC(2026, 0, 1); h < Date.UTC(2027, 0, 1); h += 3_600_000) {
      for (const t of [h, h + 3_599_999]) expect(nzToday(new Date(t)), new Date(t).toISOString()).toBe(nzDateOf(new Date(t)));
    }
  });
});
