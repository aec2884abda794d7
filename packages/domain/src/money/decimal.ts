import { Decimal as DecimalJs } from 'decimal.js';

/**
 * The domain's own Decimal: a clone, so no other code's global configuration can change our
 * arithmetic. 40 significant digits hold any product of a 4-dp quantity and a 4-dp price
 * exactly; rounding is never left to the default — every step names its mode (rounding.ts).
 */
export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Decimal = InstanceType<typeof Decimal>;
export type DecimalValue = string | number | Decimal;

export const ROUND_HALF_UP = DecimalJs.ROUND_HALF_UP;
export const ROUND_HALF_DOWN = DecimalJs.ROUND_HALF_DOWN;
export const ROUND_DOWN = DecimalJs.ROUND_DOWN;

export const ZERO = new Decimal(0);

export const dec = (v: DecimalValue): Decimal => new Decimal(v);

/** Number of decimal places a value was written with (0.10 → 1, 5 → 0). */
export const decimalPlaces = (v: Decimal): number => v.decimalPlaces();
