// The oracle's word on an accepted quote with variations: what the client agreed to pay. Written
// from the rule in docs/decisions/0020-variations.md, with nothing of the product: the quote the
// client signed is one agreement and each variation they approved is another, each a document of
// its own whose GST is rounded on its own. What can be invoiced is their totals added up; a
// variation not approved (waiting, declined, withdrawn) adds nothing.
import { oracleTotals, type OracleLine, type OracleRounding } from './oracle.ts';

export interface OracleVariation {
  lines: OracleLine[];
  approved: boolean;
}

/** The quote's total plus each approved variation's own total, in cents. */
export function oracleContractSum(quote: { lines: readonly OracleLine[]; rounding: OracleRounding }, variations: readonly OracleVariation[]): bigint {
  let sum = oracleTotals(quote.lines, quote.rounding).total;
  for (const v of variations) if (v.approved) sum += oracleTotals(v.lines, quote.rounding).total;
  return sum;
}
