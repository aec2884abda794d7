// An independent oracle for the profit report, written from the rules in
// docs/decisions/0026-profit-report.md, importing nothing of the product (only the profit oracle
// beside it). A quote counts on the day it was accepted; an invoice counts its lines on the day it
// was issued, each credit note takes its lines' (or its amount's) figures off on its own date, and a
// void takes back what was left on the day of the void. Periods are worked from the date text.
// Actual-cost profit: the invoiced sell of invoices made from a job (an accepted quote), less the
// costs and hours recorded against jobs on their own days (a cost at its cost to the business, from
// the purchases oracle), under the job's client and the cost's category (a built-in category id, or
// materials for any other name; hours are labour).
import type { OracleRounding } from './oracle.ts';
import { type OracleCostedLine, type OracleProfit, oracleLineCost, oracleProfit, oracleSell } from './profit.ts';

export interface OracleProfitCredit {
  date: string;
  /** The credited lines (quantity credited); empty for a credit of an amount. */
  lines: OracleCostedLine[];
  /** The credit note's subtotal (excl. GST) in cents. */
  subtotal: bigint;
}

export interface OracleProfitDocument {
  /** Needed only to name a job's client: a quote's id is its job's. */
  id?: string;
  /** An invoice made from a quote: that quote (its job). */
  job?: string | null;
  kind: 'quote' | 'invoice';
  client: string;
  /** Quotes: the day it was accepted; null when it never was. */
  acceptedOn: string | null;
  /** Invoices: the day it was issued; null while a draft. */
  issuedOn: string | null;
  voidedOn: string | null;
  lines: OracleCostedLine[];
  rounding: OracleRounding;
  credits: OracleProfitCredit[];
}

export type OracleGrouping = 'month' | 'quarter' | 'tax_year';

export interface OracleActual {
  sell: bigint;
  cost: bigint;
  profit: bigint;
}

export interface OracleReportFigures {
  quoted: OracleProfit;
  invoiced: OracleProfit;
  actual: OracleActual;
}

/** A cost or hours entry recorded against a job, already at its cost to the business in cents. */
export interface OracleJobCost {
  job: string;
  date: string;
  /** As typed on the cost ('materials', 'fuel', …); hours are 'labour'. */
  category: string;
  cents: bigint;
}

const BUILT_IN = ['materials', 'labour', 'subcontractor', 'equipment', 'other'];
const NO_ACTUAL: OracleActual = { sell: 0n, cost: 0n, profit: 0n };

const ZERO: OracleProfit = { sell: 0n, costedSell: 0n, cost: 0n, grossProfit: 0n, costedLines: 0, uncostedLines: 0, uncostedSell: 0n };

/** Money added or taken away; line counts only where a document is counted (sign 1). */
function plus(a: OracleProfit, b: OracleProfit, sign: 1n | -1n): OracleProfit {
  const counts = sign === 1n;
  return {
    sell: a.sell + sign * b.sell,
    costedSell: a.costedSell + sign * b.costedSell,
    cost: a.cost + sign * b.cost,
    grossProfit: a.grossProfit + sign * b.grossProfit,
    costedLines: a.costedLines + (counts ? b.costedLines : 0),
    uncostedLines: a.uncostedLines + (counts ? b.uncostedLines : 0),
    uncostedSell: a.uncostedSell + sign * b.uncostedSell,
  };
}

/** A credit note's figures, total and by category: its lines spread over its own subtotal; an amount is all price, under 'other'. */
function creditFigures(c: OracleProfitCredit, rounding: OracleRounding): Map<string, OracleProfit> {
  const by = new Map<string, OracleProfit>();
  if (c.lines.length === 0) {
    by.set('other', { ...ZERO, sell: c.subtotal, costedSell: c.subtotal, grossProfit: c.subtotal });
    return by;
  }
  const sells = oracleSell(c.lines, rounding, c.subtotal);
  c.lines.forEach((l, i) => {
    const sell = sells[i]!;
    const cost = l.cost === null ? null : oracleLineCost(l.qty, l.cost);
    const one: OracleProfit = cost === null ? { ...ZERO, sell, uncostedSell: sell } : { ...ZERO, sell, costedSell: sell, cost, grossProfit: sell - cost };
    by.set(l.category, plus(by.get(l.category) ?? ZERO, one, 1n));
  });
  return by;
}

const QUARTER_OF_MONTH = ['Q1', 'Q1', 'Q1', 'Q2', 'Q2', 'Q2', 'Q3', 'Q3', 'Q3', 'Q4', 'Q4', 'Q4'];

export function oraclePeriod(date: string, grouping: OracleGrouping): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  if (grouping === 'month') return date.slice(0, 7);
  if (grouping === 'quarter') return `${year}-${QUARTER_OF_MONTH[month - 1]}`;
  // The NZ tax year ending 31 March of `year`: April onwards belongs to the next.
  return String(month >= 4 ? year + 1 : year);
}

export interface OracleProfitReport {
  total: OracleReportFigures;
  periods: Map<string, OracleReportFigures>;
  clients: Map<string, OracleReportFigures>;
  categories: Map<string, OracleReportFigures>;
}

/** Every figure of the report over [start, end] (inclusive day texts); `jobCosts` are the costs recorded against jobs. */
export function oracleProfitReport(docs: readonly OracleProfitDocument[], start: string, end: string, grouping: OracleGrouping, jobCosts: readonly OracleJobCost[] = []): OracleProfitReport {
  const empty = (): OracleReportFigures => ({ quoted: ZERO, invoiced: ZERO, actual: NO_ACTUAL });
  const out: OracleProfitReport = { total: empty(), periods: new Map(), clients: new Map(), categories: new Map() };
  const inRange = (date: string | null): date is string => date !== null && date >= start && date <= end;
  // Every place one dated figure goes: the total, its period, its client, and (per category) the categories.
  const into = (date: string, client: string, change: (f: OracleReportFigures) => OracleReportFigures) => {
    out.total = change(out.total);
    for (const [map, key] of [[out.periods, oraclePeriod(date, grouping)], [out.clients, client]] as const) map.set(key, change(map.get(key) ?? empty()));
  };
  const intoCategory = (category: string, change: (f: OracleReportFigures) => OracleReportFigures) => out.categories.set(category, change(out.categories.get(category) ?? empty()));
  const actualPlus = (a: OracleActual, sell: bigint, cost: bigint): OracleActual => ({ sell: a.sell + sell, cost: a.cost + cost, profit: a.profit + sell - cost });
  const count = (d: OracleProfitDocument, date: string | null, kind: 'quoted' | 'invoiced', total: OracleProfit, byCategory: Map<string, OracleProfit>, sign: 1n | -1n) => {
    if (!inRange(date)) return;
    const fromJob = kind === 'invoiced' && d.job !== undefined && d.job !== null;
    const change = (f: OracleProfit) => (x: OracleReportFigures): OracleReportFigures => ({ ...x, [kind]: plus(x[kind], f, sign), actual: fromJob ? actualPlus(x.actual, sign * f.sell, 0n) : x.actual });
    into(date, d.client, change(total));
    for (const [category, f] of byCategory) intoCategory(category, change(f));
  };
  const sum = (by: Map<string, OracleProfit>): OracleProfit => [...by.values()].reduce((a, b) => plus(a, b, 1n), ZERO);
  for (const d of docs) {
    const own = oracleProfit(d.lines, d.rounding);
    if (d.kind === 'quote') {
      count(d, d.acceptedOn, 'quoted', own.total, own.byCategory, 1n);
      continue;
    }
    if (d.issuedOn === null) continue;
    count(d, d.issuedOn, 'invoiced', own.total, own.byCategory, 1n);
    // What is left after every credit: the lines' figures less each credit's, by category.
    const left = new Map(own.byCategory);
    for (const c of d.credits) {
      const by = creditFigures(c, d.rounding);
      count(d, c.date, 'invoiced', sum(by), by, -1n);
      for (const [category, f] of by) left.set(category, plus(left.get(category) ?? ZERO, f, -1n));
    }
    if (d.voidedOn !== null) count(d, d.voidedOn, 'invoiced', sum(left), left, -1n);
  }
  const clientOfJob = (job: string): string => docs.find((d) => d.kind === 'quote' && d.id === job)?.client ?? docs.find((d) => d.job === job)?.client ?? '';
  for (const c of jobCosts) {
    if (!inRange(c.date)) continue;
    const change = (x: OracleReportFigures): OracleReportFigures => ({ ...x, actual: actualPlus(x.actual, 0n, c.cents) });
    into(c.date, clientOfJob(c.job), change);
    intoCategory(BUILT_IN.includes(c.category) ? c.category : 'materials', change);
  }
  return out;
}
