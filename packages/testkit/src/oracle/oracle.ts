// An independent oracle for the product's money: document totals, payments-basis GST shares, the
// GST report and the annual summary, written from the tax rules (docs/decisions/0001, 0002 and the
// fixtures' README) with integer cents and exact fractions of BigInts. It imports nothing of the
// product on purpose: property tests compare the domain (and the API) with it, so a mistake has to
// be made twice, the same way, to go unseen. Keep it simple rather than fast.

// ---- exact fractions ------------------------------------------------------------------------

/** n/d with d > 0, not necessarily reduced. */
interface Frac {
  n: bigint;
  d: bigint;
}

const frac = (n: bigint, d: bigint): Frac => (d < 0n ? { n: -n, d: -d } : { n, d });
const plus = (a: Frac, b: Frac): Frac => frac(a.n * b.d + b.n * a.d, a.d * b.d);
const times = (a: Frac, b: Frac): Frac => frac(a.n * b.n, a.d * b.d);

/** A plain decimal text ("2.75", "0.0044", "12") as an exact fraction. */
function decimal(text: string): Frac {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`oracle: '${text}' is not a plain decimal`);
  const fracDigits = m[3] ?? '';
  const n = BigInt(`${m[2]}${fracDigits}`);
  return frac(m[1] ? -n : n, 10n ** BigInt(fracDigits.length));
}

/** Whole cents of |x| split into floor and remainder, sign kept aside. */
function split(x: Frac): { negative: boolean; whole: bigint; rem: bigint; d: bigint } {
  const negative = x.n < 0n;
  const n = negative ? -x.n : x.n;
  return { negative, whole: n / x.d, rem: n % x.d, d: x.d };
}

/** Nearest cent, an exact half away from zero (line amounts, payment shares, return Box 8). */
function roundHalfAway(x: Frac): bigint {
  const s = split(x);
  const r = 2n * s.rem >= s.d ? s.whole + 1n : s.whole;
  return s.negative ? -r : r;
}

/** GST Act s 19O: a fraction of half a cent or less is dropped, more than half becomes a cent. */
function roundS19O(x: Frac): bigint {
  const s = split(x);
  const r = 2n * s.rem > s.d ? s.whole + 1n : s.whole;
  return s.negative ? -r : r;
}

// ---- documents ------------------------------------------------------------------------------

export interface OracleLine {
  qty: string;
  unitPrice: string;
  /** The unit price already includes GST. */
  inclusive: boolean;
  /** '0.15' standard, '0' zero-rated or no GST. */
  rate: '0.15' | '0';
}

export type OracleRounding = 'total' | 'line';

export interface OracleTotals {
  subtotal: bigint;
  gst: bigint;
  total: bigint;
  /** GST-inclusive value of zero-rated lines (GST return Box 6). */
  zeroRated: bigint;
  /** Each line's qty × unit price to the cent. */
  lineAmounts: bigint[];
}

/** Each line's exact GST in cents: 15/100 of an exclusive amount, 15/115 (3/23) of an inclusive one. */
function exactTax(amountCents: bigint, l: OracleLine): Frac {
  if (l.rate === '0') return frac(0n, 1n);
  return l.inclusive ? frac(amountCents * 15n, 115n) : frac(amountCents * 15n, 100n);
}

/**
 * A document's totals. Per line: each line's GST is rounded (s 19O) and the subtotal is what is
 * left of the inclusive lines plus the exclusive lines. On the total: the exact taxes are added and
 * rounded once; the client pays the inclusive lines as priced plus the exclusive lines with their
 * GST (rounded once on their own), and the subtotal is that total less the GST.
 */
export function oracleTotals(lines: readonly OracleLine[], rounding: OracleRounding): OracleTotals {
  const lineAmounts = lines.map((l) => roundHalfAway(times(times(decimal(l.qty), decimal(l.unitPrice)), frac(100n, 1n))));
  const zeroRated = lines.reduce((a, l, i) => (l.rate === '0' ? a + lineAmounts[i]! : a), 0n);
  if (rounding === 'line') {
    let subtotal = 0n;
    let gst = 0n;
    lines.forEach((l, i) => {
      const tax = roundS19O(exactTax(lineAmounts[i]!, l));
      gst += tax;
      subtotal += l.inclusive ? lineAmounts[i]! - tax : lineAmounts[i]!;
    });
    return { subtotal, gst, total: subtotal + gst, zeroRated, lineAmounts };
  }
  let allTax = frac(0n, 1n);
  let exclusiveTax = frac(0n, 1n);
  let payable = 0n;
  lines.forEach((l, i) => {
    const tax = exactTax(lineAmounts[i]!, l);
    allTax = plus(allTax, tax);
    payable += lineAmounts[i]!;
    if (!l.inclusive) exclusiveTax = plus(exclusiveTax, tax);
  });
  const gst = roundS19O(allTax);
  const total = payable + roundS19O(exclusiveTax);
  return { subtotal: total - gst, gst, total, zeroRated, lineAmounts };
}

// ---- an invoice's history -------------------------------------------------------------------

/** What happened to money on an invoice, in the order it happened. Dates are NZ calendar days. */
export type OracleStep = { kind: 'pay'; id: string; cents: bigint; date: string } | { kind: 'remove'; id: string; date: string };

/**
 * A credit note of an amount (GST included) issued on `date`, after the invoice's payments and
 * removals, and the money paid back against it (each on or after its date).
 */
export interface OracleCredit {
  id: string;
  date: string;
  cents: bigint;
  refunds: { date: string; cents: bigint }[];
}

export interface OracleInvoice {
  id: string;
  issueDate: string;
  /** The client's name as the reports show it; '' for none. */
  client: string;
  lines: OracleLine[];
  rounding: OracleRounding;
  /** Sent, marked issued or paid against. A payment always issues it. */
  issued: boolean;
  /**
   * The NZ day it was marked issued, when `issued` (default: `issueDate`). Before `issueDate`: the
   * invoice was dated ahead (postdated) and given to the client on this day.
   */
  issuedOn?: string;
  steps: OracleStep[];
  /** The NZ day it was voided, or null. Only an invoice with nothing paid can be voided. */
  voidDate: string | null;
  /** Credit notes of amounts, in order (an invoice with one is never voided). */
  credits?: OracleCredit[];
}

interface Flow {
  date: string;
  cents: bigint;
  gst: bigint;
  zero: bigint;
  /** A payment removed, or money paid back on a credit note: a correction on the payments basis. */
  correction: 'removal' | 'refund' | 'credit' | null;
}

/** A credit note's own figures: its GST and zero-rated part are the invoice's in proportion. */
interface CreditFacts {
  date: string;
  total: bigint;
  gst: bigint;
  zero: bigint;
  subtotal: bigint;
}

interface Facts {
  inv: OracleInvoice;
  totals: OracleTotals;
  issued: boolean;
  supplyDate: string;
  received: bigint;
  paid: boolean;
  voided: boolean;
  flows: Flow[];
  credits: CreditFacts[];
}

/**
 * The facts the reports use. A payment's GST share (and zero-rated share) is the rounded share of
 * the running balance received after it, less that before it — a removal is a negative step — so
 * shares never change once made and a fully paid invoice's payments carry exactly its GST.
 */
function factsOf(inv: OracleInvoice): Facts {
  const totals = oracleTotals(inv.lines, inv.rounding);
  const amounts = new Map<string, bigint>();
  let received = 0n;
  const share = (of: bigint, balance: bigint): bigint => (totals.total === 0n ? 0n : roundHalfAway(frac(of * balance, totals.total)));
  const flows: Flow[] = [];
  for (const s of inv.steps) {
    const cents = s.kind === 'pay' ? s.cents : -(amounts.get(s.id) ?? 0n);
    if (s.kind === 'pay') amounts.set(s.id, s.cents);
    const after = received + cents;
    flows.push({ date: s.date, cents, gst: share(totals.gst, after) - share(totals.gst, received), zero: share(totals.zeroRated, after) - share(totals.zeroRated, received), correction: s.kind === 'remove' ? 'removal' : null });
    received = after;
  }
  // Credit notes: each one's GST (and zero-rated part) is the invoice's share of what has been
  // credited after it less that before it, so credit notes of the whole invoice carry its GST. Money
  // paid back on one is a negative flow with the note's share of its own GST over what was paid back.
  // On the payments basis, money held carries its share of the invoice net of the credit notes so
  // far — (GST − credited GST) × held ÷ (total − credited), at the invoice's own rate while it is
  // all credited — and each flow is what the money held carries after it less before it. A credit
  // note that leaves nothing owed either way while money is held is a flow of no money that brings
  // the GST carried to the invoice's net of credits.
  const credits: CreditFacts[] = [];
  let credited = 0n;
  let refunded = 0n;
  let held = received;
  const creditedOf = { gst: 0n, zero: 0n };
  const carried = { gst: share(totals.gst, received), zero: share(totals.zeroRated, received) };
  const heldShare = (of: bigint, creditedPart: bigint): bigint =>
    totals.total - credited > 0n ? roundHalfAway(frac((of - creditedPart) * held, totals.total - credited)) : share(of, held);
  const flowTo = (date: string, cents: bigint, correction: 'refund' | 'credit'): void => {
    const gst = heldShare(totals.gst, creditedOf.gst);
    const zero = heldShare(totals.zeroRated, creditedOf.zero);
    if (correction === 'refund' || gst !== carried.gst || zero !== carried.zero) flows.push({ date, cents, gst: gst - carried.gst, zero: zero - carried.zero, correction });
    carried.gst = gst;
    carried.zero = zero;
  };
  for (const c of inv.credits ?? []) {
    const gst = share(totals.gst, credited + c.cents) - share(totals.gst, credited);
    const zero = share(totals.zeroRated, credited + c.cents) - share(totals.zeroRated, credited);
    credits.push({ date: c.date, total: c.cents, gst, zero, subtotal: c.cents - gst });
    credited += c.cents;
    creditedOf.gst += gst;
    creditedOf.zero += zero;
    if (held !== 0n && held === totals.total - credited) flowTo(c.date, 0n, 'credit');
    for (const r of c.refunds) {
      held -= r.cents;
      flowTo(r.date, -r.cents, 'refund');
      refunded += r.cents;
    }
  }
  const issued = inv.issued || inv.steps.some((s) => s.kind === 'pay');
  const payDates = inv.steps.filter((s) => s.kind === 'pay').map((s) => s.date);
  // GST Act s 9(1): the earlier of the invoice being issued and any payment. A postdated invoice
  // is issued on the day it is given, a backdated one counts at the date written on it.
  const issuedOn = inv.issued ? (inv.issuedOn ?? inv.issueDate) : inv.issueDate;
  const supplyDate = [inv.issueDate, issuedOn, ...payDates].sort()[0]!;
  const voided = inv.voidDate !== null;
  // Paid in full: nothing owing once what was paid (less what was paid back) and credited is counted.
  const paid = !voided && received - refunded + credited >= totals.total;
  return { inv, totals, issued, supplyDate, received, paid, voided, flows, credits };
}

// ---- reports --------------------------------------------------------------------------------

const inRange = (d: string, start: string, end: string): boolean => d >= start && d <= end;
const month = (d: string): string => d.slice(0, 7);

function monthsOf(start: string, end: string): string[] {
  const out: string[] = [];
  let [y, m] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
  const last = month(end);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    out.push(key);
    if (key >= last) return out;
    m += 1;
    if (m === 13) [y, m] = [y + 1, 1];
  }
}

/** Cents to the JSON number the API answers (dollars, 2 dp). */
export const dollars = (cents: bigint): number => Number(cents) / 100;

export interface OracleGstReport {
  total_sales: number;
  total_gst_collected: number;
  invoice_count: number;
  paid_invoices_count: number;
  unpaid_invoices_count: number;
  voided_invoices_count: number;
  breakdown_by_month: { month: string; sales: number; gst: number; count: number }[];
  gst_return: {
    box5: number; box6: number; box7: number; box8: number; box9: number; box10: number;
    box11: number; box12: number; box13: number; box14: number; box15: number;
  };
  corrections: { count: number; sales: number; gst: number; invoices_voided: number; credit_notes: number; payments_removed: number; refunds: number };
  drafts_left_out: number;
  /** Invoices carried into the range from a period exported before they were issued (invoice basis), in carry-date order. */
  adjustments_to_carry: { count: number; sales: number; gst: number; invoices: OracleCarried[] };
  /** Cost changes carried from an exported period: none among these facts (purchases.ts works the purchases). */
  purchase_adjustments: { count: number; amount: number; claimed: number; lines: never[] };
}

/** A GST report on the invoice basis exported for the accountant: its range and the instant (ISO, UTC) it was made. */
export interface OracleExport {
  start: string;
  end: string;
  at: string;
}

/** An invoice carried into a report, as the oracle sees it. */
export interface OracleCarried {
  supply_date: string;
  carried_to: string;
  sales: number;
  gst: number;
}

/** The day in New Zealand at an instant, as the calendar there reads it. */
const nzDay = (at: string): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));

const nextDay = (d: string): string => new Date(Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)) + 1)).toISOString().slice(0, 10);

/**
 * Where an invoice goes when the period it counts in was exported before it was issued: issued at
 * midday in New Zealand of the day it was issued (00:00 UTC of that day, as the oracle's event logs
 * are written), it is carried when an export made before then holds its time of supply, to the
 * first day from the day it was issued that no such export holds (walked a day at a time).
 */
function carryOf(f: Facts, exports: readonly OracleExport[]): string | null {
  if (!f.issued) return null;
  const firstPay = f.inv.steps.find((s) => s.kind === 'pay')?.date;
  const issuedDay = f.inv.issued ? (f.inv.issuedOn ?? f.inv.issueDate) : firstPay!;
  const issuedAt = `${issuedDay}T00:00:00.000Z`;
  // Only a file made after its range ended closes the range (a mid-period look is not a filing).
  const before = exports.filter((e) => e.at < issuedAt && nzDay(e.at) > e.end);
  if (!before.some((e) => inRange(f.supplyDate, e.start, e.end))) return null;
  let day = issuedDay < f.supplyDate ? f.supplyDate : issuedDay;
  while (before.some((e) => inRange(day, e.start, e.end))) day = nextDay(day);
  return day;
}

/**
 * The GST report for [start, end]. Invoice basis: each issued invoice at its full value on its time
 * of supply (the earliest of its date, the day it was issued and any payment), less each invoice voided in the range on the day
 * of the void. Payments basis: each payment received in the range with its GST share, less each
 * payment removed in it. Counts: invoices supplied (or with a payment received) in the range, split
 * paid / voided / unpaid as of now. Box 8 is Box 7 × 3/23 to the nearest cent.
 */
export function oracleGstReport(invoices: readonly OracleInvoice[], start: string, end: string, basis: 'invoice' | 'payments', exports: readonly OracleExport[] = []): OracleGstReport {
  const facts = invoices.map(factsOf);
  const months = new Map(monthsOf(start, end).map((m) => [m, { sales: 0n, gst: 0n, count: 0 }]));
  let sales = 0n;
  let gst = 0n;
  let zero = 0n;
  const counted: Facts[] = [];
  const corrections = { count: 0, sales: 0n, gst: 0n, invoices_voided: 0, credit_notes: 0, payments_removed: 0, refunds: 0 };
  const add = (date: string, s: bigint, g: bigint, z: bigint) => {
    const m = months.get(month(date))!;
    m.sales += s;
    m.gst += g;
    sales += s;
    gst += g;
    zero += z;
  };
  const carried: (OracleCarried & { cents: bigint; gstCents: bigint })[] = [];
  for (const f of facts) {
    if (!f.issued) continue;
    if (basis === 'invoice') {
      const carriedTo = carryOf(f, exports);
      if (carriedTo !== null) {
        // Not in the exported period (it was not in the export): reported where it is carried to.
        if (inRange(carriedTo, start, end)) {
          add(carriedTo, f.totals.total, f.totals.gst, f.totals.zeroRated);
          months.get(month(carriedTo))!.count += 1;
          counted.push(f);
          carried.push({ supply_date: f.supplyDate, carried_to: carriedTo, sales: dollars(f.totals.total), gst: dollars(f.totals.gst), cents: f.totals.total, gstCents: f.totals.gst });
        }
      } else if (inRange(f.supplyDate, start, end)) {
        add(f.supplyDate, f.totals.total, f.totals.gst, f.totals.zeroRated);
        months.get(month(f.supplyDate))!.count += 1;
        counted.push(f);
      }
      if (f.inv.voidDate !== null && inRange(f.inv.voidDate, start, end)) {
        add(f.inv.voidDate, -f.totals.total, -f.totals.gst, -f.totals.zeroRated);
        corrections.count += 1;
        corrections.invoices_voided += 1;
        corrections.sales -= f.totals.total;
        corrections.gst -= f.totals.gst;
      }
      // A credit note: its whole value taken off on its date, whatever period the invoice fell in.
      for (const c of f.credits) {
        if (!inRange(c.date, start, end)) continue;
        add(c.date, -c.total, -c.gst, -c.zero);
        corrections.count += 1;
        corrections.credit_notes += 1;
        corrections.sales -= c.total;
        corrections.gst -= c.gst;
      }
    } else {
      const monthsPaid = new Set<string>();
      for (const flow of f.flows) {
        if (!inRange(flow.date, start, end)) continue;
        add(flow.date, flow.cents, flow.gst, flow.zero);
        if (flow.correction !== null) {
          corrections.count += 1;
          if (flow.correction === 'refund') corrections.refunds += 1;
          else if (flow.correction === 'removal') corrections.payments_removed += 1;
          corrections.sales += flow.cents;
          corrections.gst += flow.gst;
        } else monthsPaid.add(month(flow.date));
      }
      for (const m of monthsPaid) months.get(m)!.count += 1;
      if (monthsPaid.size > 0) counted.push(f);
    }
  }
  const paid = counted.filter((f) => f.paid).length;
  const voided = counted.filter((f) => f.voided).length;
  const box7 = sales - zero;
  const box8 = roundHalfAway(frac(box7 * 3n, 23n));
  return {
    total_sales: dollars(sales),
    total_gst_collected: dollars(gst),
    invoice_count: counted.length,
    paid_invoices_count: paid,
    unpaid_invoices_count: counted.length - paid - voided,
    voided_invoices_count: voided,
    breakdown_by_month: [...months].map(([m, v]) => ({ month: m, sales: dollars(v.sales), gst: dollars(v.gst), count: v.count })),
    // No purchases among these facts: Boxes 11–14 are nothing and Box 15 is Box 10 (purchases.ts works the purchases).
    gst_return: { box5: dollars(sales), box6: dollars(zero), box7: dollars(box7), box8: dollars(box8), box9: 0, box10: dollars(box8), box11: 0, box12: 0, box13: 0, box14: 0, box15: dollars(box8) },
    corrections: { ...corrections, sales: dollars(corrections.sales), gst: dollars(corrections.gst) },
    drafts_left_out: facts.filter((f) => !f.issued && !f.voided && inRange(f.inv.issueDate, start, end)).length,
    adjustments_to_carry: {
      count: carried.length,
      sales: dollars(carried.reduce((a, c) => a + c.cents, 0n)),
      gst: dollars(carried.reduce((a, c) => a + c.gstCents, 0n)),
      invoices: carried
        .sort((a, b) => (a.carried_to < b.carried_to ? -1 : a.carried_to > b.carried_to ? 1 : 0))
        .map(({ cents: _c, gstCents: _g, ...c }) => c),
    },
    purchase_adjustments: { count: 0, amount: 0, claimed: 0, lines: [] },
  };
}

export interface OracleAnnualSummary {
  total_revenue: number;
  total_gst: number;
  paid_revenue: number;
  unpaid_revenue: number;
  top_clients: { name: string; revenue: number }[];
  monthly_breakdown: { month: string; revenue: number; gst: number; count: number; paid_count: number }[];
  corrections: { count: number; revenue: number; gst: number };
  voided: { count: number; revenue: number; gst: number };
  credited: { count: number; revenue: number; gst: number };
  refunded: { count: number; amount: number };
  drafts_left_out: number;
}

/**
 * The annual summary for the tax year ending 31 March `year`: issued invoices by issue date,
 * GST-exclusive revenue, less invoices voided in the year (in the month of the void) and credit
 * notes issued in it (in their month); paid revenue is what of that belongs to invoices paid in
 * full (an invoice issued in the year, less its credit notes of the year), unpaid the rest; money
 * paid back in the year apart; the ten clients with the most revenue (net of voids and credits,
 * none at zero), ties by name in code-point order.
 */
export function oracleAnnualSummary(invoices: readonly OracleInvoice[], year: number): OracleAnnualSummary {
  const [start, end] = [`${year - 1}-04-01`, `${year}-03-31`];
  const facts = invoices.map(factsOf);
  const months = new Map(monthsOf(start, end).map((m) => [m, { revenue: 0n, gst: 0n, count: 0, paid: 0 }]));
  const clients = new Map<string, bigint>();
  let revenue = 0n;
  let gst = 0n;
  let paidRevenue = 0n;
  const corrections = { count: 0, revenue: 0n, gst: 0n };
  const credited = { count: 0, revenue: 0n, gst: 0n };
  const refunded = { count: 0, cents: 0n };
  const client = (name: string, cents: bigint) => {
    if (name !== '') clients.set(name, (clients.get(name) ?? 0n) + cents);
  };
  for (const f of facts) {
    if (!f.issued) continue;
    if (inRange(f.inv.issueDate, start, end)) {
      const m = months.get(month(f.inv.issueDate))!;
      m.revenue += f.totals.subtotal;
      m.gst += f.totals.gst;
      m.count += 1;
      revenue += f.totals.subtotal;
      gst += f.totals.gst;
      if (f.paid) {
        m.paid += 1;
        paidRevenue += f.totals.subtotal;
      }
      client(f.inv.client, f.totals.subtotal);
    }
    if (f.inv.voidDate !== null && inRange(f.inv.voidDate, start, end)) {
      const m = months.get(month(f.inv.voidDate))!;
      m.revenue -= f.totals.subtotal;
      m.gst -= f.totals.gst;
      revenue -= f.totals.subtotal;
      gst -= f.totals.gst;
      client(f.inv.client, -f.totals.subtotal);
      corrections.count += 1;
      corrections.revenue -= f.totals.subtotal;
      corrections.gst -= f.totals.gst;
    }
    for (const c of f.credits) {
      if (!inRange(c.date, start, end)) continue;
      const m = months.get(month(c.date))!;
      m.revenue -= c.subtotal;
      m.gst -= c.gst;
      revenue -= c.subtotal;
      gst -= c.gst;
      if (f.paid) paidRevenue -= c.subtotal;
      client(f.inv.client, -c.subtotal);
      corrections.count += 1;
      corrections.revenue -= c.subtotal;
      corrections.gst -= c.gst;
      credited.count += 1;
      credited.revenue -= c.subtotal;
      credited.gst -= c.gst;
    }
    for (const flow of f.flows) {
      if (flow.correction !== 'refund' || !inRange(flow.date, start, end)) continue;
      refunded.count += 1;
      refunded.cents -= flow.cents;
    }
  }
  const ranked = [...clients].filter(([, c]) => c !== 0n).sort(([an, ac], [bn, bc]) => (ac !== bc ? (ac > bc ? -1 : 1) : an < bn ? -1 : an > bn ? 1 : 0));
  return {
    total_revenue: dollars(revenue),
    total_gst: dollars(gst),
    paid_revenue: dollars(paidRevenue),
    unpaid_revenue: dollars(revenue - paidRevenue),
    top_clients: ranked.slice(0, 10).map(([name, c]) => ({ name, revenue: dollars(c) })),
    monthly_breakdown: [...months].map(([m, v]) => ({ month: m, revenue: dollars(v.revenue), gst: dollars(v.gst), count: v.count, paid_count: v.paid })),
    corrections: { count: corrections.count, revenue: dollars(corrections.revenue), gst: dollars(corrections.gst) },
    voided: { count: corrections.count - credited.count, revenue: dollars(corrections.revenue - credited.revenue), gst: dollars(corrections.gst - credited.gst) },
    credited: { count: credited.count, revenue: dollars(credited.revenue), gst: dollars(credited.gst) },
    refunded: { count: refunded.count, amount: dollars(refunded.cents) },
    drafts_left_out: facts.filter((f) => !f.issued && !f.voided && inRange(f.inv.issueDate, start, end)).length,
  };
}

// ---- lines as shown -------------------------------------------------------------------------

/**
 * Each line's value without GST, exactly, in cents: an exclusive (or zero-rated) line's amount; an
 * inclusive one's amount less its GST — 3/23 of it exactly with rounding on the total, less its own
 * GST rounded (s 19O) with per-line rounding.
 */
export function oracleLineValuesExclusive(lines: readonly OracleLine[], rounding: OracleRounding): { n: bigint; d: bigint }[] {
  const amounts = oracleTotals(lines, rounding).lineAmounts;
  return lines.map((l, i) => {
    const a = amounts[i]!;
    if (!l.inclusive || l.rate === '0') return frac(a, 1n);
    return rounding === 'line' ? frac(a - roundS19O(exactTax(a, l)), 1n) : plus(frac(a, 1n), frac(-a * 15n, 115n));
  });
}

/**
 * Whether line amounts shown under a subtotal are right: they add up to `subtotal` (the document's
 * own, by default) and each is within one cent of the line's exact value without GST. The
 * problem in words, or null when there is none.
 */
export function oracleShownLinesProblem(lines: readonly OracleLine[], rounding: OracleRounding, shown: readonly bigint[], subtotal = oracleTotals(lines, rounding).subtotal): string | null {
  if (shown.length !== lines.length) return `${shown.length} amounts shown for ${lines.length} lines`;
  const sumShown = shown.reduce((a, b) => a + b, 0n);
  if (sumShown !== subtotal) return `the lines shown add up to ${sumShown} cents, the subtotal is ${subtotal}`;
  const exact = oracleLineValuesExclusive(lines, rounding);
  for (const [i, s] of shown.entries()) {
    const x = exact[i]!;
    const diff = s * x.d - x.n;
    if ((diff < 0n ? -diff : diff) >= x.d) return `line ${i + 1} shows ${s} cents, its value without GST is ${x.n}/${x.d}`;
  }
  return null;
}
