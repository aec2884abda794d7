import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOverrun, overPercent, overrunWarnings } from './overrun.ts';

const name = (c: string): string => c.charAt(0).toUpperCase() + c.slice(1);

describe('job overrun warnings', () => {
  it("says 'Materials are 18 % over the quote' when $1,180 was spent against $1,000 quoted (over 10 %)", () => {
    expect(overrunWarnings([{ category: 'materials', cents: 100000n }], [{ category: 'materials', cents: 118000n }], 10, name)).toEqual([
      'Materials are 18 % over the quote',
      "The job's costs are 18 % over the quote",
    ]);
  });

  it('is quiet at exactly the chosen percentage, and warns one cent past it', () => {
    expect(overrunWarnings([{ category: 'labour', cents: 100000n }], [{ category: 'labour', cents: 110000n }], 10, name)).toEqual([]);
    expect(overrunWarnings([{ category: 'labour', cents: 100000n }], [{ category: 'labour', cents: 110001n }], 10, name)).toEqual(['Labour is 10 % over the quote', "The job's costs are 10 % over the quote"]);
  });

  it('names a category the quote did not cost', () => {
    expect(overrunWarnings([], [{ category: 'equipment', cents: 4500n }], 10, name)).toEqual(['Equipment: $45.00 spent that the quote did not cost']);
  });

  it('warns exactly when actual × 100 > quoted × (100 + percent), and the percentage shown is the rounded excess', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 100 }), (quoted, actual, percent) => {
        const warned = overrunWarnings([{ category: 'materials', cents: quoted }], [{ category: 'materials', cents: actual }], percent, name).length > 0;
        expect(warned).toBe(actual > 0n && actual * 100n > quoted * BigInt(100 + percent));
        expect(isOverrun(actual, quoted, percent)).toBe(actual * 100n > quoted * BigInt(100 + percent));
        const p = overPercent(actual, quoted)!;
        // |p − 100 (a − q) / q| ≤ 1/2
        const diff = p * quoted * 2n - (actual - quoted) * 200n;
        expect(diff <= quoted && diff >= -quoted).toBe(true);
      }),
    );
  });
});
