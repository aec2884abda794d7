import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appliedMarginNotice, applyMargin, isLowMargin, marginFigures, parseMarginInput } from './margin.ts';
import { documentTotals } from '../gst/gst.ts';
import { toCents } from '../money/money.ts';
import { exclusiveLineArb } from '../../test/arbitraries.ts';

describe('profit margin', () => {
  it('profit = subtotal × m%, charge client = cost + profit (spec §9)', () => {
    const f = marginFigures(toCents('400'), 25);
    expect([f.costsCents, f.profitCents, f.chargeClientCents]).toEqual([toCents('400'), toCents('100'), toCents('500')]);
    expect(marginFigures(toCents('33.33'), 25).profitCents).toBe(toCents('8.33')); // 8.3325
  });

  it('low margin is above 0 and below 15', () => {
    expect([0, 1, 14, 15, 25, 100].map(isLowMargin)).toEqual([false, true, true, false, false, false]);
  });

  it('margin input: 0–100, whole numbers, empty or invalid becomes 0', () => {
    expect(['', 'abc', '25', '25.6', '-5', '150', null, 30].map(parseMarginInput)).toEqual([0, 0, 25, 26, 0, 100, 0, 30]);
  });

  it('apply margin raises each unit price by m% to the cent, and says so', () => {
    expect(applyMargin([{ unit_price: '80' }, { unit_price: '19.99' }], 25).map((l) => l.unit_price)).toEqual(['100.00', '24.99']);
    expect(appliedMarginNotice(25)).toBe('Applied 25% margin to all line items! The client will see the final prices without any "profit" or "markup" labels.');
  });

  describe('properties', () => {
    it('apply margin, then subtotal = Charge Client within half a cent per unit of quantity per line (plus a cent)', () => {
      fc.assert(fc.property(fc.array(exclusiveLineArb, { minLength: 1, maxLength: 15 }), fc.integer({ min: 0, max: 100 }), (lines, m) => {
        const charge = marginFigures(documentTotals(lines).subtotalCents, m).chargeClientCents;
        const after = documentTotals(applyMargin(lines, m)).subtotalCents;
        const diff = after > charge ? after - charge : charge - after;
        // each new unit price is rounded to the cent (±½ c per unit), each line amount to the cent (±½ c)
        const bound = lines.reduce((acc, l) => acc + Number(l.qty) * 0.5 + 0.5, 0.5);
        expect(Number(diff)).toBeLessThanOrEqual(Math.ceil(bound));
      }));
    });

    it('with unit quantities it is within a cent per line', () => {
      fc.assert(fc.property(fc.array(exclusiveLineArb.map((l) => ({ ...l, qty: '1' })), { minLength: 1, maxLength: 15 }), fc.integer({ min: 0, max: 100 }), (lines, m) => {
        const charge = marginFigures(documentTotals(lines).subtotalCents, m).chargeClientCents;
        const after = documentTotals(applyMargin(lines, m)).subtotalCents;
        const diff = after > charge ? after - charge : charge - after;
        expect(diff <= BigInt(lines.length)).toBe(true);
      }));
    });

    it('margin 0 changes nothing but trailing zeros', () => {
      fc.assert(fc.property(fc.array(exclusiveLineArb, { minLength: 1, maxLength: 10 }), (lines) => {
        const twoDp = lines.map((l) => ({ ...l, unit_price: Number(l.unit_price).toFixed(2) }));
        const r = applyMargin(twoDp, 0);
        expect(r.map((l) => Number(l.unit_price))).toEqual(twoDp.map((l) => Number(l.unit_price)));
      }));
    });
  });
});
