// Purchases in a GST period already exported for the accountant. What was exported is what the
// accountant files, so a cost recorded, changed or deleted afterwards with a date inside that period
// must not change its figures. As with a backdated invoice (reports/gstCarry.ts), the change is
// carried to the first period not yet exported, on or after the day it was made, and listed there as
// an adjustment.
//
// A cost's history is the list of its versions (each recorded, changed or removed at an instant).
// Each change is two lines: the version it replaces taken back, and the new one added. A line
// counts on its own date unless an export made before the change, after its range had ended, holds
// that date: then it counts on the carry date. Without any carry the lines telescope to the cost's
// current version on its own date, which is what the costs table already holds; so only a cost with
// a carried line is replaced by its lines. The exported period keeps exactly the versions known when
// it was exported; the later period gets the difference. A tax invoice obtained later (the box
// ticked after the export) so moves the claim into the period in which it was obtained.
//
// The carry applies to the invoice basis, as for sales: the exports recorded are of that basis.
import { formatNzDateLong, type LocalDate } from '../dates/dates.ts';
import { gstCarryOf, periodLabel, type GstExportRecord } from '../reports/gstCarry.ts';
import { centsToNumber } from '../money/money.ts';
import { type CostEntry, isClaimable, signedCostCents } from './costs.ts';

/** One version of a cost: what it was from the instant `at` (ISO 8601); null once removed. */
export interface CostVersion {
  at: string;
  entry: CostEntry | null;
}

/** A line of a cost's history that counts in another period than its own date. */
export interface CarriedPurchase {
  costId: string;
  supplier: string;
  /** The cost's own date in the version this line adds or takes back. */
  date: LocalDate;
  /** The day it counts on instead. */
  carriedTo: LocalDate;
  /** The exported period its date lies in ('Jan–Feb 2027'). */
  exportedPeriod: string;
  /** 'added': a version recorded after the export; 'taken back': the export's version changed or deleted since. */
  change: 'added' | 'taken back';
  /** The line as sumPurchases counts it (a taken-back line has `reverses`). */
  entry: CostEntry;
}

/** A purchase line: a cost's version, added or taken back, dated the day it counts on. */
interface Line {
  entry: CostEntry;
  carried: CarriedPurchase | null;
}

function linesOf(costId: string, versions: readonly CostVersion[], exports: readonly GstExportRecord[]): Line[] {
  const lines: Line[] = [];
  let before: CostEntry | null = null;
  for (const v of versions) {
    const sides: [CostEntry, 'added' | 'taken back'][] = [];
    if (before) sides.push([{ ...before, reverses: true }, 'taken back']);
    if (v.entry) sides.push([v.entry, 'added']);
    for (const [entry, change] of sides) {
      const carry = gstCarryOf({ supplyDate: entry.date, issuedAt: v.at }, exports);
      if (!carry) {
        lines.push({ entry, carried: null });
        continue;
      }
      const moved = { ...entry, date: carry.carryDate };
      lines.push({
        entry: moved,
        carried: { costId, supplier: entry.supplier, date: entry.date, carriedTo: carry.carryDate, exportedPeriod: periodLabel(carry.exported), change, entry: moved },
      });
    }
    before = v.entry;
  }
  return lines;
}

/**
 * The costs to sum for a period on the invoice basis, with the exports taken into account:
 * `current` are the live costs dated in the range (by id), `histories` the versions of every cost
 * that may have a carried line (any other cost has none). A cost with a carried line is replaced by
 * its lines that count in the range; `carried` lists the carried lines that count in the range.
 */
export function purchasesWithCarries(
  current: readonly { id: string; entry: CostEntry }[],
  histories: ReadonlyMap<string, readonly CostVersion[]>,
  exports: readonly GstExportRecord[],
  range: { start: LocalDate; end: LocalDate },
): { entries: CostEntry[]; carried: CarriedPurchase[] } {
  const inRange = (d: LocalDate): boolean => d >= range.start && d <= range.end;
  const replaced = new Set<string>();
  const entries: CostEntry[] = [];
  const carried: CarriedPurchase[] = [];
  for (const [id, versions] of histories) {
    const lines = linesOf(id, versions, exports);
    if (!lines.some((l) => l.carried)) continue;
    replaced.add(id);
    for (const l of lines) {
      if (!inRange(l.entry.date)) continue;
      entries.push(l.entry);
      if (l.carried) carried.push(l.carried);
    }
  }
  for (const c of current) if (!replaced.has(c.id)) entries.push(c.entry);
  carried.sort((a, b) => (a.carriedTo < b.carriedTo ? -1 : a.carriedTo > b.carriedTo ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { entries, carried };
}

/**
 * What a cost says when a change to it at `at` lands in a GST period already exported (the version
 * it replaces or the new one is dated in it), or null: 'recorded' for the answer to a new cost,
 * 'made' for the answer to a change, 'would be' for a cost shown for editing (a change or deletion
 * now would be carried).
 */
export function purchaseCarryNotice(dates: readonly LocalDate[], at: string, exports: readonly GstExportRecord[], tense: 'recorded' | 'made' | 'would be' = 'made'): string | null {
  for (const date of dates) {
    const carry = gstCarryOf({ supplyDate: date, issuedAt: at }, exports);
    if (!carry) continue;
    const what = tense === 'recorded' ? 'It is listed' : tense === 'made' ? 'This change is listed' : 'A change or deletion now is listed';
    return (
      `This cost is dated in ${periodLabel(carry.exported)}, a GST period you have already exported for your accountant. ` +
      `${what} as an adjustment to carry in the GST report that includes ${formatNzDateLong(carry.carryDate)}; the figures you exported stay as they were.`
    );
  }
  return null;
}

/** The adjustments a GST report lists: each carried line with its GST-inclusive amount and what it adds to Box 11. */
export interface PurchaseAdjustments {
  count: number;
  amount: number;
  claimed: number;
  lines: { supplier: string; date: string; carried_to: string; exported_period: string; change: 'added' | 'taken back'; amount: number; claimed: number }[];
}

export const NO_PURCHASE_ADJUSTMENTS: PurchaseAdjustments = { count: 0, amount: 0, claimed: 0, lines: [] };

/** The carried lines as the report lists them; the amounts are signed as sumPurchases counts them. */
export function purchaseAdjustments(carried: readonly CarriedPurchase[], registered: boolean): PurchaseAdjustments {
  let amount = 0n;
  let claimed = 0n;
  const lines = carried.map((c) => {
    const signed = signedCostCents(c.entry);
    const counted = isClaimable(c.entry, registered) ? signed : 0n;
    amount += signed;
    claimed += counted;
    return { supplier: c.supplier, date: c.date, carried_to: c.carriedTo, exported_period: c.exportedPeriod, change: c.change, amount: centsToNumber(signed), claimed: centsToNumber(counted) };
  });
  return { count: lines.length, amount: centsToNumber(amount), claimed: centsToNumber(claimed), lines };
}
