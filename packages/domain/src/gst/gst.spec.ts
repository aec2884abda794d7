import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateGst, applyGstSwitch, documentTotals, type LineForTotals } from './gst.ts';
import { toCents } from '../money/money.ts';
import { exclusiveLineArb, linesArb } from '../../test/arbitraries.ts';

const line = (qty: string, unit_price: string, extra: Partial<LineForTotals> = {}): LineForTotals => ({ qty, unit_price, ...extra });
const c = toCents;

describe('document totals', () => {
  it('G21–G23: per-line and on-the-total rounding differ exactly as the rules say', () => {
    const g21 = [line('1', '0.10'), line('1', '0.10'), line('1', '0.10')];
    expect(documentTotals(g21, 'line').gstCents).toBe(c('0.03'));
    expect(documentTotals(g21, 'total').gstCents).toBe(c('0.04'));
    const g22 = [1, 2, 3].map(() => line('1', '10.00', { tax_included: true }));
    expect(documentTotals(g22, 'line').gstCents).toBe(c('3.90'));
    expect(documentTotals(g22, 'total').gstCents).toBe(c('3.91'));
    const g23 = [1, 2, 3].map(() => line('1', '19.99'));
    expect(documentTotals(g23, 'line').gstCents).toBe(c('9.00'));
    expect(documentTotals(g23, 'total').gstCents).toBe(c('9.00'));
  });

  it('a GST-inclusive $200 line: GST $26.09, excl $173.91, total $200 (G7)', () => {
    const t = documentTotals([line('1', '200', { tax_included: true })]);
    expect([t.subtotalCents, t.gstCents, t.totalCents]).toEqual([c('173.91'), c('26.09'), c('200.00')]);
  });

  it('subtotal = Σ qty × unit_price, GST 15% of it, total = subtotal + GST', () => {
    const t = documentTotals([line('2', '45.50'), line('3.5', '80'), line('1', '19.99')]);
    expect(t.subtotalCents).toBe(c('390.99'));
    expect(t.gstCents).toBe(c('58.65')); // 58.6485
    expect(t.totalCents).toBe(c('449.64'));
  });

  it('zero-rated lines carry no GST and are counted for Box 6', () => {
    const t = documentTotals([line('1', '100', { tax_rate: '0' }), line('1', '100')]);
    expect([t.subtotalCents, t.gstCents, t.totalCents, t.zeroRatedCents]).toEqual([c('200'), c('15'), c('215'), c('100')]);
  });

  it('the Include GST switch off sends every line at rate 0: no GST anywhere', () => {
    fc.assert(fc.property(linesArb(), (lines) => {
      const t = documentTotals(applyGstSwitch(lines, false));
      expect(t.gstCents).toBe(0n);
      expect(t.totalCents).toBe(t.subtotalCents);
    }));
  });

  describe('properties', () => {
    it('total = subtotal + GST, to the cent, in both rounding modes', () => {
      fc.assert(fc.property(linesArb(), fc.constantFrom('total' as const, 'line' as const), (lines, mode) => {
        const t = documentTotals(lines, mode);
        expect(t.totalCents).toBe(t.subtotalCents + t.gstCents);
        expect(t.gstCents >= 0n && t.subtotalCents >= 0n).toBe(true);
      }));
    });

    it('line order never changes the totals', () => {
      fc.assert(fc.property(linesArb(), fc.constantFrom('total' as const, 'line' as const), fc.nat(), (lines, mode, seed) => {
        const shuffled = [...lines].sort((a, b) => ((a.qty + a.unit_price + seed).length % 3) - ((b.qty + b.unit_price).length % 3));
        const reversed = [...lines].reverse();
        const t = documentTotals(lines, mode);
        for (const other of [shuffled, reversed]) {
          const u = documentTotals(other, mode);
          expect([u.subtotalCents, u.gstCents, u.totalCents]).toEqual([t.subtotalCents, t.gstCents, t.totalCents]);
        }
      }));
    });

    it('splitting a line in two changes GST by at most a cent per line', () => {
      fc.assert(fc.property(fc.array(exclusiveLineArb, { minLength: 1, maxLength: 10 }), fc.nat(), fc.integer({ min: 1, max: 99 }), fc.constantFrom('total' as const, 'line' as const), (lines, pick, pct, mode) => {
        const i = pick % lines.length;
        const l = lines[i]!;
        // split the quantity: qty = a + b, both on 0.01 steps
        const qtyCents = toCents(l.qty);
        const a = (qtyCents * BigInt(pct)) / 100n;
        const b = qtyCents - a;
        const dollars = (x: bigint) => `${x / 100n}.${String(x % 100n).padStart(2, '0')}`;
        const split = [...lines.slice(0, i), { ...l, qty: dollars(a) }, { ...l, qty: dollars(b) }, ...lines.slice(i + 1)];
        const before = documentTotals(lines, mode).gstCents;
        const after = documentTotals(split, mode).gstCents;
        const diff = before > after ? before - after : after - before;
        // one extra line's rounding (line amount and, per line, its tax) can move GST by ≤ 1 cent per line
        expect(diff <= BigInt(split.length)).toBe(true);
      }));
    });

    it('per-line and on-the-total rounding never differ by more than half a cent per line', () => {
      fc.assert(fc.property(linesArb(), (lines) => {
        const a = documentTotals(lines, 'line').gstCents;
        const b = documentTotals(lines, 'total').gstCents;
        const diff = a > b ? a - b : b - a;
        expect(2n * diff <= BigInt(lines.length) + 1n).toBe(true);
      }));
    });

    it('GST-inclusive lines: the client pays exactly what the lines say', () => {
      fc.assert(fc.property(linesArb(), fc.constantFrom('total' as const, 'line' as const), (lines, mode) => {
        const incl = lines.map((l) => ({ ...l, tax_included: true }));
        const t = documentTotals(incl, mode);
        expect(t.totalCents).toBe(t.lines.reduce((a, l) => a + l.amountCents, 0n));
      }));
    });
  });
});

describe('the document GST spread over its lines (for Xero)', () => {
  it('3 × $1.11: 16.65c each, $0.50 in all; the two spare cents go to the first two lines (ties to the earlier line)', () => {
    const t = documentTotals([line('1', '1.11'), line('1', '1.11'), line('1', '1.11')]);
    expect(t.gstCents).toBe(50n);
    expect(allocateGst(t)).toEqual([17n, 17n, 16n]);
  });

  it('the largest fraction gets the cent, whatever its place; a zero-rated line gets nothing', () => {
    // 15% of 1.01 = 15.15c, of 1.03 = 15.45c, of 1.05 = 15.75c: 46.35c → 46c: floors 15+15+15, one cent to 15.75.
    const t = documentTotals([line('1', '1.01'), line('1', '1.03'), line('1', '5', { tax_rate: '0' }), line('1', '1.05')]);
    expect(t.gstCents).toBe(46n);
    expect(allocateGst(t)).toEqual([15n, 15n, 0n, 16n]);
  });

  it('per-line rounding: each line its own rounded GST', () => {
    const t = documentTotals([line('1', '0.10'), line('1', '0.10'), line('1', '0.10')], 'line');
    expect(allocateGst(t)).toEqual([1n, 1n, 1n]); // 1.5c each: s 19O lets the half cent go
    expect(t.gstCents).toBe(3n);
  });

  it('property: the shares add up to the GST exactly; each is its exact tax rounded down or up; the cents go to the largest fractions, earlier first', () => {
    fc.assert(
      fc.property(linesArb(40), fc.constantFrom<'total' | 'line'>('total', 'line'), (lines, rounding) => {
        const t = documentTotals(lines, rounding);
        const shares = allocateGst(t);
        expect(shares.reduce((a, b) => a + b, 0n)).toBe(t.gstCents);
        // Checked with plain integer arithmetic: share × d against the exact tax n/d.
        const floors = t.lines.map((l) => (l.exactTax.n - (((l.exactTax.n % l.exactTax.d) + l.exactTax.d) % l.exactTax.d)) / l.exactTax.d);
        shares.forEach((s, i) => {
          const l = t.lines[i]!;
          if (l.taxRate.isZero()) expect(s).toBe(0n);
          if (rounding === 'line') expect(s).toBe(l.taxCents);
          else expect(s === floors[i] || (s === floors[i]! + 1n && l.exactTax.n % l.exactTax.d !== 0n)).toBe(true);
        });
        if (rounding === 'total') {
          // No line left at its floor has a larger fraction than a line given the cent (or an equal one, earlier).
          const frac = (i: number) => ({ n: t.lines[i]!.exactTax.n - floors[i]! * t.lines[i]!.exactTax.d, d: t.lines[i]!.exactTax.d });
          const up = shares.map((s, i) => s !== floors[i]);
          for (let a = 0; a < shares.length; a++) {
            for (let b = 0; b < shares.length; b++) {
              if (!up[a] || up[b]) continue;
              const fa = frac(a);
              const fb = frac(b);
              const cmp = fb.n * fa.d - fa.n * fb.d; // > 0 when b's fraction is larger
              expect(cmp < 0n || (cmp === 0n && a < b)).toBe(true);
            }
          }
        }
      }),
    );
  });
});
