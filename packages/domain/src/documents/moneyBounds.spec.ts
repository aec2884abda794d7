// The most a document may come to, and why: every amount it shows must be exact as a JSON number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../money/decimal.ts';
import { centsToNumber, toCents } from '../money/money.ts';
import { DomainError } from '../errors.ts';
import { decimalString } from '../../test/arbitraries.ts';
import { type DocumentCommand, type DraftInput, documentDecider, documentFigures, foldDocument, type DocumentView } from './document.ts';
import { LINE_LIMITS, MAX_DOCUMENT_TOTAL, type Line } from './lineValues.ts';

const MAX = toCents(MAX_DOCUMENT_TOTAL);

const draft = (lines: Line[], over: Partial<DraftInput> = {}): DocumentCommand => ({
  type: 'DraftDocument',
  data: { documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days', ...over },
});
const line = (qty: string, unit_price: string, extra: Partial<Line> = {}): Line => ({ description: 'Work', qty, unit_price, tax_included: false, tax_rate: '0.15', ...extra });

/** What a JSON reader gets back for these cents: the number the API writes, printed and read again. */
const jsonCents = (cents: bigint): bigint => BigInt(new Decimal(JSON.stringify(centsToNumber(cents))).times(100).toFixed());

/** Quantities and prices at and near the limits the API accepts, and small ones. */
const boundQty = fc.oneof(decimalString(Number(LINE_LIMITS.maxQty) * 10_000, 4), fc.constantFrom('999999.999', '1000000', '1', '0.0001'), decimalString(1000, 2));
const boundPrice = fc.oneof(decimalString(Number(LINE_LIMITS.maxUnitPrice) * 10_000, 4), fc.constantFrom('99999999.9999', '100000000', '0.01', '86956521.738'), decimalString(10_000_000, 2));
const boundLine = fc.record({
  description: fc.constant('Work'),
  qty: boundQty,
  unit_price: boundPrice,
  tax_included: fc.boolean(),
  tax_rate: fc.constantFrom('0.15', '0'),
});

function decided(command: DocumentCommand): DocumentView | DomainError {
  try {
    return foldDocument(documentDecider.decide(command, { status: 'none' })) as DocumentView;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
}

describe('a document comes to at most $999,999,999.99', () => {
  it('999999.999 × $99,999,999.9999 + $0.01 is refused with the reason, not answered a cent wrong', () => {
    const r = decided(draft([line('999999.999', '99999999.9999'), line('1', '0.01')], {}));
    expect(r).toBeInstanceOf(DomainError);
    expect((r as DomainError).code).toBe('VALIDATION');
    expect((r as DomainError).detail).toMatch(/^An invoice can come to at most \$999,999,999\.99 \(GST included\), and this one comes to \$114,999,999,884,885\.01\. Split the work/);
  });

  it('exactly $999,999,999.99 is allowed; one cent more is not', () => {
    // 10 × $86,956,521.738 = $869,565,217.38, + 15 % = $999,999,999.987 → GST rounded on the total: $130,434,782.61.
    const atMost = decided(draft([line('10', '86956521.738')]));
    expect(atMost).not.toBeInstanceOf(DomainError);
    expect(documentFigures(atMost as DocumentView).totalCents).toBe(99_999_999_999n);
    expect(decided(draft([line('1', '999999999.99', { tax_included: true })]))).not.toBeInstanceOf(DomainError);
    expect(decided(draft([line('1', '1000000000', { tax_included: true })]))).toBeInstanceOf(DomainError);
    expect(decided(draft([line('1', '999999999.99', { tax_rate: '0' }), line('1', '0.01', { tax_rate: '0' })]))).toBeInstanceOf(DomainError);
  });

  it('at the bounds: accepted exactly when the total is within the limit, and then every amount is exact as a JSON number', () => {
    fc.assert(
      fc.property(fc.array(boundLine, { minLength: 1, maxLength: 4 }), fc.constantFrom('total', 'line') as fc.Arbitrary<'total' | 'line'>, (lines, gstRounding) => {
        const r = decided(draft(lines, { gstRounding }));
        // The oracle for the limit: Σ qty × price to the cent, plus at most 15 % of it, decides which side it is.
        const amounts = lines.map((l) => BigInt(new Decimal(l.qty).times(l.unit_price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100).toFixed()));
        const sum = amounts.reduce((a, b) => a + b, 0n);
        if (sum > MAX) expect(r).toBeInstanceOf(DomainError);
        if (r instanceof DomainError) {
          expect(r.code).toBe('VALIDATION');
          expect(r.detail).toMatch(/can come to at most \$999,999,999\.99/);
          return;
        }
        const f = documentFigures(r);
        expect(f.totalCents).toBeLessThanOrEqual(MAX);
        for (const cents of [f.subtotalCents, f.gstCents, f.totalCents, f.balanceCents, ...f.lines.map((l) => l.amountCents), ...f.lines.map((l) => l.taxCents)]) {
          expect(jsonCents(cents)).toBe(cents);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a variation that would take an accepted quote past the limit is refused', () => {
    const quote = documentDecider.decide(draft([line('10', '86956521.738')], { type: 'quote', reference: 'QTE-0001' }), { status: 'none' });
    const state = foldDocument([...quote, { type: 'QuoteAccepted', data: { documentId: 'd1' } }]);
    expect(() => documentDecider.decide({ type: 'ProposeVariation', data: { variationId: 'v1', lines: [line('1', '0.01')], note: '' } }, state)).toThrow(/can come to at most \$999,999,999\.99/);
  });

  it('any whole-cents amount up to the limit survives a JSON number; past 15 digits they do not', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX, max: MAX }), (cents) => {
        expect(jsonCents(cents)).toBe(cents);
      }),
      { numRuns: 2000 },
    );
    expect(jsonCents(9_999_999_989_990_001n)).toBe(9_999_999_989_990_002n); // $99,999,999,899,900.01 reads back as .02: the figure the limit prevents
  });
});
