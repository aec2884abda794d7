// Text for the figures a line carries as decimal strings. No arithmetic: the domain formats them
// (formatNzdPrice: whole cents as $1,234.50, anything finer to all four places), as on the screens.
import { checkIrdNumber, formatIrdNumber, formatNzdPrice } from '@tradie/domain';

const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A unit price ("90", "12.5", "0.1234") as NZD: $90.00, $12.50, and sub-cent prices exactly ($0.1234). */
export function formatUnitPrice(unitPrice: string): string {
  return DECIMAL.test(unitPrice) ? formatNzdPrice(unitPrice) : unitPrice;
}

/** A quantity as written ("2.5", "1000" → "1,000"). */
export function formatQty(qty: string): string {
  const m = DECIMAL.exec(qty);
  if (!m) return qty;
  return m[2] ? `${groupThousands(m[1] ?? '0')}.${m[2]}` : groupThousands(m[1] ?? '0');
}

/** A GST number in IRD's display form (123-456-789) when it checks out, else as the business typed it. */
export function formatGstNumber(gst: string): string {
  const c = checkIrdNumber(gst);
  return c.valid ? formatIrdNumber(c.compact) : gst.trim();
}
