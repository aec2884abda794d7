// The card surcharge a business may pass on to its client: a percentage of what the invoice still
// owes, at most SURCHARGE_MAX_PERCENT, rounded DOWN to the cent so it is never more than the
// percentage the client was shown (and the business says is its card fee). Exact decimals only.
import { SURCHARGE_MAX_PERCENT } from '@tradie/contracts';
import { Decimal as DecimalJs } from 'decimal.js';

/** Decimal with enough precision for cents × percent, whole cents out. */
const D = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_DOWN, toExpNeg: -40, toExpPos: 40 });
type D = InstanceType<typeof D>;

/** A percentage as the settings keep it: 0–5 with at most 2 decimal places, else null. */
export function validSurchargePercent(percent: number | string): D | null {
  let d: D;
  try {
    d = new D(percent);
  } catch {
    return null;
  }
  if (!d.isFinite() || d.isNegative() || d.greaterThan(SURCHARGE_MAX_PERCENT) || d.decimalPlaces() > 2) return null;
  return d;
}

/**
 * The surcharge in cents on `balanceCents` at `percent` %: floor(balance × percent / 100).
 * Throws RangeError for a percentage outside 0–SURCHARGE_MAX_PERCENT or a negative balance.
 */
export function surchargeCents(balanceCents: bigint, percent: number | string): bigint {
  const p = validSurchargePercent(percent);
  if (!p) throw new RangeError(`A surcharge must be 0–${SURCHARGE_MAX_PERCENT}% with at most 2 decimal places`);
  if (balanceCents < 0n) throw new RangeError('The balance cannot be negative');
  const cents = new D(balanceCents.toString()).times(p).dividedBy(100).toDecimalPlaces(0, DecimalJs.ROUND_DOWN);
  return BigInt(cents.toFixed(0));
}
