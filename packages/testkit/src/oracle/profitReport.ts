// An independent oracle for the profit report, written from the rules in
// docs/decisions/0026-profit-report.md, importing nothing of the product (only the profit oracle
// beside it). A quote counts on the day it was accepted; an invoice counts its lines on the day it
// was issued, each credit note takes its lines' (or its amount's) figures off on its own date, and a
// void takes back what was left on the day of the void. Periods are worked from the date text.
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

export interface OracleReportFigures {
  quoted: OracleProfit;
  invoiced: OracleProfit;
}

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

/** Every figure of the report over [start, end] (inclusive day texts). */
export function oracleProfitReport(docs: readonly OracleProfitDocument[], start: string, end: string, grouping: OracleGrouping): OracleProfitReport {
  const out: OracleProfitReport = { total: { quoted: ZERO, invoiced: ZERO }, periods: new Map(), clients: new Map(), categories: new Map() };
  const add = (map: Map<string, OracleReportFigures> | null, key: string, kind: 'quoted' | 'invoiced', f: OracleProfit, sign: 1n | -1n) => {
    if (map === null) {
      out.total = { ...out.total, [kind]: plus(out.total[kind], f, sign) };
      return;
    }
    const had = map.get(key) ?? { quoted: ZERO, invoiced: ZERO };
    map.set(key, { ...had, [kind]: plus(had[kind], f, sign) });
  };
  const count = (date: string | null, client: string, kind: 'quoted' | 'invoiced', total: OracleProfit, byCategory: Map<string, OracleProfit>, sign: 1n | -1n) => {
    if (date === null || date < start || date > end) return;
    add(null, '', kind, total, sign);
    add(out.periods, oraclePeriod(date, grouping), kind, total, sign);
    add(out.clients, client, kind, total, sign);
    for (const [category, f] of byCategory) add(out.categories, category, kind, f, sign);
  };
  const sum = (by: Map<string, OracleProfit>): OracleProfit => [...by.values()].reduce((a, b) => plus(a, b, 1n), ZERO);
  for (const d of docs) {
    const own = oracleProfit(d.lines, d.rounding);
    if (d.kind === 'quote') {
      count(d.acceptedOn, d.client, 'quoted', own.total, own.byCategory, 1n);
      continue;
    }
    if (d.issuedOn === null) continue;
    count(d.issuedOn, d.client, 'invoiced', own.total, own.byCategory, 1n);
    // What is left after every credit: the lines' figures less each credit's, by category.
    const left = new Map(own.byCategory);
    for (const c of d.credits) {
      const by = creditFigures(c, d.rounding);
      count(c.date, d.client, 'invoiced', sum(by), by, -1n);
      for (const [category, f] of by) left.set(category, plus(left.get(category) ?? ZERO, f, -1n));
    }
    if (d.voidedOn !== null) count(d.voidedOn, d.client, 'invoiced', sum(left), left, -1n);
  }
  return out;
}
