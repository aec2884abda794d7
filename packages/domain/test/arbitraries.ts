// fast-check generators for the domain's inputs, shared by the property tests.
import fc from 'fast-check';
import type { ClientSnapshot, StoredLine } from '../src/index.ts';

/** A decimal string with at most `dp` places, between 0 and max (in units of 10^-dp). */
export const decimalString = (maxUnits: number, dp: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: maxUnits }).map((u) => {
    const s = String(u).padStart(dp + 1, '0');
    return dp === 0 ? s : `${s.slice(0, -dp)}.${s.slice(-dp)}`;
  });

/** Whole cents as a dollars string. */
export const amountString = (maxCents: number): fc.Arbitrary<string> => decimalString(maxCents, 2);

/** Quantities on 0.01 steps (the calculator's step) up to 1,000. */
export const qtyArb = decimalString(100_000, 2);
/** Unit prices up to $100,000 with up to 4 decimals (what the API accepts). */
export const priceArb = fc.oneof(decimalString(10_000_000, 2), decimalString(1_000_000_000, 4));
export const taxRateArb = fc.constantFrom('0.15', '0.15', '0.15', '0');

/** A cost per unit, or none recorded (null): never read as zero. */
export const costArb: fc.Arbitrary<string | null> = fc.option(priceArb, { nil: null, freq: 4 });
export const categoryArb: fc.Arbitrary<string> = fc.constantFrom('materials', 'labour', 'subcontractor', 'equipment', 'other', 'hire-gear');

export const lineArb: fc.Arbitrary<StoredLine> = fc.record({
  description: fc.string({ minLength: 1, maxLength: 20 }).map((s) => (s.trim() ? s : 'Labour')),
  qty: qtyArb,
  unit_price: priceArb,
  tax_included: fc.boolean(),
  tax_rate: taxRateArb,
  cost: costArb,
  category: categoryArb,
  markup: fc.option(fc.constantFrom('0', '15', '32.5', '50'), { nil: null, freq: 3 }),
});

export const exclusiveLineArb: fc.Arbitrary<StoredLine> = lineArb.map((l) => ({ ...l, tax_included: false }));

export const linesArb = (max = 20): fc.Arbitrary<StoredLine[]> => fc.array(lineArb, { minLength: 1, maxLength: max });

export const localDateArb = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

export const clientSnapshotArb: fc.Arbitrary<ClientSnapshot> = fc.record({
  id: fc.option(fc.uuid(), { nil: null }),
  name: fc.string({ minLength: 1, maxLength: 30 }),
  email: fc.constantFrom('', 'a@example.co.nz'),
  phone: fc.constantFrom('', '021 555 0100'),
  address: fc.constantFrom('', '12 Queen St, Whangārei'),
  is_business: fc.constantFrom('true', 'false'),
  business_name: fc.constantFrom('', 'Tāmaki Plumbing Ltd'),
  company_number: fc.constantFrom('', '9429041234563'),
  gst_number: fc.constantFrom('', '49-091-850'),
});
