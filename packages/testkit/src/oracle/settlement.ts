// The oracle's account of one invoice's whole life with credit notes: what each credit note
// credits (decision 0014) and the payments-basis rows of every payment, removal, refund and
// credit (decision 0001), worked from the rules with fractions of BigInts. Like oracle.ts it
// imports nothing of the product.
//
// The payments-basis rule written here: money held on the invoice carries its share of the
// invoice as it stands at that moment — its total, GST and zero-rated value less those of the
// credit notes issued so far — rounded to the cent half away from zero; each payment, removal or
// refund carries the change in what the money held carries; a credit note that leaves nothing
// owed either way, with money held, carries that change too (a row of no money). While the whole
// invoice is credited, money not yet paid back carries the invoice's own rate.
import { oracleTotals, type OracleLine, type OracleRounding, type OracleTotals } from './oracle.ts';

/** What happens to an invoice after it is issued, in order. Dates are NZ days. */
export type LifeStep =
  | { kind: 'pay'; id: string; cents: bigint; date: string }
  | { kind: 'remove'; id: string; date: string }
  /** A card refund of part or all of a payment. */
  | { kind: 'refundPayment'; id: string; paymentId: string; cents: bigint; date: string }
  /** A credit note of an amount (GST included). */
  | { kind: 'credit'; id: string; cents: bigint; date: string }
  /** A credit note of some whole lines (by index). */
  | { kind: 'creditLines'; id: string; lines: number[]; date: string }
  /** Money paid back against a credit note. */
  | { kind: 'refundCredit'; id: string; creditId: string; cents: bigint; date: string };

export interface OracleCredit {
  id: string;
  date: string;
  subtotal: bigint;
  gst: bigint;
  total: bigint;
  zeroRated: bigint;
}

export interface OracleMoneyRow {
  kind: 'payment' | 'removal' | 'refund' | 'credit';
  date: string;
  cents: bigint;
  gst: bigint;
  zeroRated: bigint;
}

export interface OracleLife {
  totals: OracleTotals;
  credits: OracleCredit[];
  rows: OracleMoneyRow[];
  /** total − money held − credited: above zero owed by the client, below zero owed back to them. */
  balance: bigint;
}

/** x × n / d to the nearest cent, an exact half away from zero. */
function share(x: bigint, n: bigint, d: bigint): bigint {
  if (d === 0n) return 0n;
  const num = x * n;
  const neg = (num < 0n) !== (d < 0n);
  const a = num < 0n ? -num : num;
  const b = d < 0n ? -d : d;
  const q = a / b;
  const r = a % b;
  const v = 2n * r >= b ? q + 1n : q;
  return neg ? -v : v;
}

export function oracleInvoiceLife(lines: readonly OracleLine[], rounding: OracleRounding, steps: readonly LifeStep[]): OracleLife {
  const totals = oracleTotals(lines, rounding);
  const T = totals.total;
  const G = totals.gst;
  const Z = totals.zeroRated;
  const credits: OracleCredit[] = [];
  const rows: OracleMoneyRow[] = [];
  const paidBy = new Map<string, bigint>();
  let held = 0n;
  let credited = { total: 0n, gst: 0n, zero: 0n, subtotal: 0n };
  let carried = { gst: 0n, zero: 0n };

  /** What the money held carries now, of GST and of the zero-rated value. */
  const carries = (): { gst: bigint; zero: bigint } => {
    const netT = T - credited.total;
    if (netT > 0n) return { gst: share(held, G - credited.gst, netT), zero: share(held, Z - credited.zero, netT) };
    return { gst: share(held, G, T), zero: share(held, Z, T) };
  };
  const row = (kind: OracleMoneyRow['kind'], date: string, cents: bigint): void => {
    const now = carries();
    rows.push({ kind, date, cents, gst: now.gst - carried.gst, zeroRated: now.zero - carried.zero });
    carried = now;
  };

  for (const s of steps) {
    switch (s.kind) {
      case 'pay':
        paidBy.set(s.id, s.cents);
        held += s.cents;
        row('payment', s.date, s.cents);
        break;
      case 'remove': {
        const cents = paidBy.get(s.id) ?? 0n;
        held -= cents;
        row('removal', s.date, -cents);
        break;
      }
      case 'refundPayment':
      case 'refundCredit':
        held -= s.cents;
        row('refund', s.date, -s.cents);
        break;
      case 'credit':
      case 'creditLines': {
        const left = T - credited.total;
        let c: Omit<OracleCredit, 'id' | 'date'>;
        if (s.kind === 'credit' && s.cents === left) {
          // The credit that completes the invoice carries what is left of every figure.
          c = { total: left, gst: G - credited.gst, zeroRated: Z - credited.zero, subtotal: totals.subtotal - credited.subtotal };
        } else if (s.kind === 'credit') {
          // An amount carries the invoice's GST in proportion, cumulatively over what was credited before.
          const gst = share(credited.total + s.cents, G, T) - share(credited.total, G, T);
          const zero = share(credited.total + s.cents, Z, T) - share(credited.total, Z, T);
          c = { total: s.cents, gst, zeroRated: zero, subtotal: s.cents - gst };
        } else {
          // Whole lines, rounded as the invoice is; every line (or as much as the whole invoice) is the whole invoice.
          const t = oracleTotals(s.lines.map((i) => lines[i]!), rounding);
          c = t.total === left ? { total: left, gst: G - credited.gst, zeroRated: Z - credited.zero, subtotal: totals.subtotal - credited.subtotal }
            : { total: t.total, gst: t.gst, zeroRated: t.zeroRated, subtotal: t.subtotal };
        }
        credits.push({ id: s.id, date: s.date, ...c });
        credited = { total: credited.total + c.total, gst: credited.gst + c.gst, zero: credited.zero + c.zeroRated, subtotal: credited.subtotal + c.subtotal };
        if (held !== 0n && held === T - credited.total) {
          const before = rows.length;
          row('credit', s.date, 0n);
          if (rows[before]!.gst === 0n && rows[before]!.zeroRated === 0n) rows.pop();
        }
        break;
      }
    }
  }
  return { totals, credits, rows, balance: T - held - credited.total };
}
