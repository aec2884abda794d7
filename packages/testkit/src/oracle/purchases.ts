// An independent oracle for the purchases side of the GST return and a job's real profit, written
// from the rules in docs/decisions/0034-costs-and-purchases-gst.md with plain integer arithmetic,
// importing nothing of the product.
//
// Rules: a cost's GST is claimed only by a GST-registered business, only when the cost carries
// 15 % GST, and above $200.00 incl. GST (not at it) only when the supplier's supply information is
// held. Box 11 is the sum of claimed costs GST-inclusive, a supplier credit subtracting, counted
// by the supplier's invoice date (invoice basis) or the date paid (payments basis, unpaid costs
// not counted); Box 12 is Box 11 × 3/23 to the nearest cent (half away from zero); Box 13 is the
// hand-entered credit adjustments; Box 14 = Box 12 + Box 13; Box 15 = Box 10 − Box 14.
// Job profit: invoiced net − (each cost less its GST when claimed, plus hours × rate to the cent).

export interface OracleCost {
  /** Dollars and cents, GST-inclusive, positive ("230.00"). */
  amount: string;
  gst: 'standard' | 'none';
  held: boolean;
  credit: boolean;
  date: string;
  paidDate: string | null;
  category: string;
}

/** "12.3" → 1230n; dollars with at most 2 dp. */
function cents(text: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) throw new Error(`oracle: '${text}' is not dollars and cents`);
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
}

/** n/d to a whole number, half away from zero (d > 0). */
function nearest(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  let q = a / d;
  if ((a % d) * 2n >= d) q += 1n;
  return neg ? -q : q;
}

function claimed(c: OracleCost, registered: boolean): boolean {
  if (!registered || c.gst !== 'standard') return false;
  return cents(c.amount) <= 20000n || c.held;
}

const signed = (c: OracleCost): bigint => (c.credit ? -cents(c.amount) : cents(c.amount));

export interface OraclePurchaseBoxes {
  box11: bigint;
  box12: bigint;
  box13: bigint;
  box14: bigint;
  box15: bigint;
}

export function oraclePurchaseBoxes(
  costs: readonly OracleCost[],
  start: string,
  end: string,
  basis: 'invoice' | 'payments',
  registered: boolean,
  box10: bigint,
  box13 = 0n,
): OraclePurchaseBoxes {
  let box11 = 0n;
  for (const c of costs) {
    const when = basis === 'invoice' ? c.date : c.paidDate;
    if (when === null || when < start || when > end) continue;
    if (claimed(c, registered)) box11 += signed(c);
  }
  const box12 = nearest(box11 * 3n, 23n);
  const box14 = box12 + box13;
  return { box11, box12, box13, box14, box15: box10 - box14 };
}

export interface OracleHours {
  hours: string;
  rate: string;
}

/** hours × rate to the nearest cent, half away from zero. */
export function oracleHoursCost(h: OracleHours): bigint {
  const split = (t: string): { n: bigint; scale: bigint } => {
    const m = /^(\d+)(?:\.(\d+))?$/.exec(t);
    if (!m) throw new Error(`oracle: '${t}' is not a plain decimal`);
    const f = m[2] ?? '';
    return { n: BigInt(m[1]! + f), scale: 10n ** BigInt(f.length) };
  };
  const a = split(h.hours);
  const b = split(h.rate);
  return nearest(a.n * b.n * 100n, a.scale * b.scale);
}

/** A cost's cost to the business: less its GST when that GST is claimed. */
export function oracleCostToBusiness(c: OracleCost, registered: boolean): bigint {
  const s = signed(c);
  return claimed(c, registered) ? s - nearest(s * 3n, 23n) : s;
}

export function oracleJobProfit(invoicedNet: bigint, costs: readonly OracleCost[], hours: readonly OracleHours[], registered: boolean): { actual: bigint; profit: bigint } {
  let actual = 0n;
  for (const c of costs) actual += oracleCostToBusiness(c, registered);
  for (const h of hours) actual += oracleHoursCost(h);
  return { actual, profit: invoicedNet - actual };
}

/** A version of a cost from the instant `at` (ISO 8601, UTC); null once deleted. */
export interface OracleCostVersion {
  at: string;
  cost: OracleCost | null;
}

/**
 * Box 11 with one GST period exported for the accountant, by snapshots rather than by lines: the
 * exported period (`exported`, exported at `at`, after it ended) keeps exactly the Box 11 of the
 * costs as they stood at that instant (a change at the very instant counts as made before it); the
 * later period `after` (every day after the export's day) has the Box 11 of the costs as they stand
 * now dated in it, plus everything that changed in the exported period since the export. Only for
 * histories whose versions before the export are dated up to `after`'s end and whose later changes
 * are made on days inside `after`.
 */
export function oracleBox11WithExport(
  histories: readonly (readonly OracleCostVersion[])[],
  exported: { start: string; end: string; at: string },
  after: { start: string; end: string },
  registered: boolean,
): { exported: bigint; after: bigint } {
  const T = Date.parse(exported.at);
  const standing = (versions: readonly OracleCostVersion[], until: number): OracleCost | null => {
    let c: OracleCost | null = null;
    for (const v of versions) if (Date.parse(v.at) <= until) c = v.cost;
    return c;
  };
  const box11 = (costs: (OracleCost | null)[], start: string, end: string): bigint =>
    oraclePurchaseBoxes(costs.filter((c): c is OracleCost => c !== null), start, end, 'invoice', registered, 0n).box11;
  const then = histories.map((h) => standing(h, T));
  const now = histories.map((h) => standing(h, Number.POSITIVE_INFINITY));
  const kept = box11(then, exported.start, exported.end);
  return { exported: kept, after: box11(now, after.start, after.end) + box11(now, exported.start, exported.end) - kept };
}
