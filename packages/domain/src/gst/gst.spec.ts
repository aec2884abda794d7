import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyGstSwitch, documentTotals, type LineForTotals } from './gst.ts';
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

  it('the spec: subtotal = Σ qty × unit_price, GST 15% of it, total = subtotal + GST', () => {
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
