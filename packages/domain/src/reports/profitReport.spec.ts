// The profit report: a month worked by hand, and properties over random quotes and invoices (with
// credit notes and voids) checked figure by figure against the independent oracle, by month,
// quarter and tax year, per client and per category; and every invoice's dated pieces adding up to
// the profit its screen shows (profitOfDocument).
import { oracleTotals } from '@tradie/testkit/oracle/oracle';
import type { OracleCostedLine, OracleProfit } from '@tradie/testkit/oracle/profit';
import { type OracleActual, type OracleGrouping, type OracleJobCost, type OracleProfitDocument, oracleProfitReport } from '@tradie/testkit/oracle/profitReport';
import { oracleCostToBusiness, oracleHoursCost } from '@tradie/testkit/oracle/purchases';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linesArb } from '../../test/arbitraries.ts';
import type { Line, StoredLine } from '../documents/lineValues.ts';
import { type ProfitFigures, NO_PROFIT, addProfit, profitOfDocument } from '../profit/profit.ts';
import { actualOfCost, actualOfHours, type ActualCost } from '../costs/actual.ts';
import { type ActualFigures, type ProfitGrouping, type ProfitSource, invoicedThisMonth, profitEntriesOf, profitReport } from './profitReport.ts';

const line = (qty: string, unit_price: string, cost: string | null, category = 'materials'): StoredLine => ({
  description: 'Work', qty, unit_price, tax_included: false, tax_rate: '0.15', cost, category, markup: null,
});
const client = (id: string, name: string) => ({ id, name, is_business: 'false' as const, business_name: '' });

function source(over: Partial<ProfitSource> & Pick<ProfitSource, 'id' | 'type' | 'lines'>): ProfitSource {
  return { status: 'sent', reference: over.id, gstRounding: 'total', acceptedAt: null, issuedOn: null, voidedOn: null, convertedFrom: null, client: client('c1', 'Aroha Ngata'), creditNotes: [], ...over };
}

const figures = (f: ProfitFigures) => [f.sellCents, f.costCents, f.grossProfitCents, f.uncostedSellCents];

describe('the profit report worked by hand', () => {
  // The Rinnai job: heater $1,812.50 costing $1,450; 8 h labour at $85 costing $45; fittings $39.38, cost not recorded.
  const JOB = [line('1', '1812.50', '1450'), line('8', '85', '45', 'labour'), line('1', '39.38', null, 'other')];
  const quote = source({ id: 'q1', type: 'quote', status: 'converted', lines: JOB, acceptedAt: '2026-04-20T02:00:00Z' });
  const invoice = source({
    id: 'i1', type: 'invoice', status: 'sent', lines: JOB, issuedOn: '2026-04-28', convertedFrom: 'q1',
    // 2 of the 8 hours credited in May: $170 of sell and $90 of cost come back.
    creditNotes: [{ date: '2026-05-03', lines: [{ line: line('2', '85', '45', 'labour') }], subtotal: '170.00' }],
  });
  const voided = source({ id: 'i2', type: 'invoice', status: 'void', lines: [line('1', '500', '300')], issuedOn: '2026-04-10', voidedOn: '2026-05-15', client: client('c2', 'Ben Tui') });

  it('by month: April counts the accepted quote and both invoices; May takes off the credit note and the void; cost not recorded stays apart', () => {
    const r = profitReport([quote, invoice, voided], { start: '2026-04-01', end: '2026-05-31' }, 'month');
    expect(r.periods.map((p) => [p.key, p.label, p.quotes, p.invoices])).toEqual([['2026-04', 'Apr 2026', 1, 2], ['2026-05', 'May 2026', 0, 0]]);
    const [april, may] = r.periods as [typeof r.periods[0], typeof r.periods[0]];
    // Quoted: sell 2531.88, cost 1810, gross profit 682.50 on the costed lines, 39.38 not costed.
    expect(figures(april.quoted)).toEqual([253188n, 181000n, 68250n, 3938n]);
    // Invoiced in April: the job and the $500 invoice costing $300.
    expect(figures(april.invoiced)).toEqual([303188n, 211000n, 88250n, 3938n]);
    // May: −$170 sell / −$90 cost (credit), −$500 / −$300 (void).
    expect(figures(may.invoiced)).toEqual([-67000n, -39000n, -28000n, 0n]);
    expect(figures(r.total.invoiced)).toEqual([236188n, 172000n, 60250n, 3938n]);
    expect(r.clients.map((c) => [c.label, c.invoiced.grossProfitCents])).toEqual([['Aroha Ngata', 60250n], ['Ben Tui', 0n]]);
    expect(r.categories.map((c) => [c.key, c.label, c.quoted.grossProfitCents, c.invoiced.grossProfitCents])).toEqual([
      ['materials', 'Materials', 36250n, 36250n],
      ['labour', 'Labour', 32000n, 24000n],
      ['other', 'Other', 0n, 0n],
    ]);
  });

  it('actual-cost profit: the job’s invoice less the receipt and hours recorded against it, each on its own day; an invoice not from a job has none', () => {
    // The heater's receipt, $1,667.50 incl. GST (supply information held): $1,450.00 to the business once its $217.50 GST is claimed.
    // 6 h on 22 April and 2 h on 2 May at $45 an hour.
    const actual = [
      actualOfCost('q1', { date: '2026-04-21', amountCents: 166750n, gst: 'standard', supplyInformationHeld: true, credit: false, category: 'Materials' }, true),
      actualOfHours('q1', { date: '2026-04-22', hours: '6', rate: '45' }),
      actualOfHours('q1', { date: '2026-05-02', hours: '2', rate: '45' }),
    ];
    const r = profitReport([quote, invoice, voided], { start: '2026-04-01', end: '2026-05-31' }, 'month', [], actual);
    const act = (a: ActualFigures) => [a.sellCents, a.costCents, a.profitCents];
    // April: $2,531.88 invoiced from the job (not the $500 invoice), $1,450 + $270 of costs. May: the $170 credit, $90 of hours.
    expect(r.periods.map((p) => act(p.actual))).toEqual([[253188n, 172000n, 81188n], [-17000n, 9000n, -26000n]]);
    expect(act(r.total.actual)).toEqual([236188n, 181000n, 55188n]);
    expect(r.clients.map((c) => [c.label, ...act(c.actual)])).toEqual([['Aroha Ngata', 236188n, 181000n, 55188n], ['Ben Tui', 0n, 0n, 0n]]);
    expect(r.categories.map((c) => [c.key, ...act(c.actual)])).toEqual([
      ['materials', 181250n, 145000n, 36250n],
      ['labour', 51000n, 36000n, 15000n],
      ['other', 3938n, 0n, 3938n],
    ]);
    // A business not registered for GST carries the receipt's GST as a cost.
    expect(actualOfCost('q1', { date: '2026-04-21', amountCents: 166750n, gst: 'standard', supplyInformationHeld: true, credit: false, category: 'fuel' }, false)).toEqual({ jobId: 'q1', date: '2026-04-21', category: 'materials', cents: 166750n });
  });

  it('only what is dated in the range counts: April alone never sees May’s corrections; a quarter and a tax year name themselves', () => {
    const april = profitReport([quote, invoice, voided], { start: '2026-04-01', end: '2026-04-30' }, 'quarter');
    expect(april.periods.map((p) => [p.key, p.label])).toEqual([['2026-Q2', 'Apr–Jun 2026']]);
    expect(april.total.invoiced.grossProfitCents).toBe(88250n);
    const year = profitReport([quote, invoice, voided], { start: '2026-01-01', end: '2026-12-31' }, 'tax_year');
    expect(year.periods.map((p) => [p.key, p.label])).toEqual([['2026', 'Tax year 2025–26'], ['2027', 'Tax year 2026–27']]);
  });

  it('quotes not accepted, draft invoices and a quote accepted then declined count nothing; the home screen’s month is the same report', () => {
    const sent = source({ id: 'q2', type: 'quote', status: 'sent', lines: JOB });
    const draft = source({ id: 'i3', type: 'invoice', status: 'draft', lines: JOB });
    expect(profitEntriesOf(sent)).toEqual([]);
    expect(profitEntriesOf(draft)).toEqual([]);
    expect(invoicedThisMonth([invoice, voided, sent, draft], '2026-04-30')).toEqual(profitReport([invoice, voided], { start: '2026-04-01', end: '2026-04-30' }, 'month').total);
  });
});

// ---- properties against the oracle ---------------------------------------------------------------

const asOracle = (l: Line): OracleCostedLine => ({
  qty: l.qty, unitPrice: l.unit_price, inclusive: l.tax_included, rate: l.tax_rate === '0' ? '0' : '0.15', cost: l.cost ?? null, category: l.category ?? 'other',
});
const dayArb = fc.integer({ min: 0, max: 900 }).map((n) => new Date(Date.UTC(2025, 10, 1) + n * 86_400_000).toISOString().slice(0, 10));
const creditArb = (lines: StoredLine[]) =>
  fc.record({
    date: dayArb,
    kind: fc.constantFrom('lines' as const, 'amount' as const),
    pick: fc.subarray(lines.map((_, i) => i), { minLength: 1 }),
    amountCents: fc.bigInt({ min: 1n, max: 100_000n }),
  });
const docArb = linesArb(6).chain((lines) =>
  fc.record({
    type: fc.constantFrom('quote' as const, 'invoice' as const),
    lines: fc.constant(lines),
    rounding: fc.constantFrom('total' as const, 'line' as const),
    day: dayArb,
    accepted: fc.boolean(),
    issued: fc.boolean(),
    voidAfter: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null, freq: 3 }),
    client: fc.constantFrom('c1', 'c2', 'c3'),
    credits: fc.array(creditArb(lines), { maxLength: 2 }),
    // An invoice made from a quote: one of the first documents (a quote or not), or one not in the report.
    job: fc.option(fc.constantFrom('d0', 'd1', 'd2', 'gone'), { nil: null }),
  }),
);

// Costs and hours recorded against jobs (some of them jobs the report has no quote for).
const jobArb = fc.constantFrom('d0', 'd1', 'd2', 'gone');
const jobCostArb = fc.oneof(
  fc.record({
    what: fc.constant('cost' as const), job: jobArb, date: dayArb, category: fc.constantFrom('materials', 'equipment', 'other', 'fuel', 'Materials'),
    cents: fc.bigInt({ min: 1n, max: 500_000n }), gst: fc.constantFrom('standard' as const, 'none' as const), held: fc.boolean(), credit: fc.boolean(),
  }),
  fc.record({ what: fc.constant('hours' as const), job: jobArb, date: dayArb, hours: fc.constantFrom('0.25', '1', '3.5', '8', '12.75'), rate: fc.constantFrom('45', '38.50', '62.25') }),
);
type JobCostInput = typeof jobCostArb extends fc.Arbitrary<infer V> ? V : never;
const dollars = (c: bigint): string => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

function actualBoth(c: JobCostInput, registered: boolean): { actual: ActualCost; oracle: OracleJobCost } {
  if (c.what === 'hours') return { actual: actualOfHours(c.job, c), oracle: { job: c.job, date: c.date, category: 'labour', cents: oracleHoursCost(c) } };
  const entry = { date: c.date, amountCents: c.credit ? -c.cents : c.cents, gst: c.gst, supplyInformationHeld: c.held, credit: c.credit, category: c.category };
  const oracleCost = { amount: dollars(c.cents), gst: c.gst, held: c.held, credit: c.credit, date: c.date, paidDate: null, category: c.category };
  return { actual: actualOfCost(c.job, entry, registered), oracle: { job: c.job, date: c.date, category: c.category.toLowerCase(), cents: oracleCostToBusiness(oracleCost, registered) } };
}

type DocInput = typeof docArb extends fc.Arbitrary<infer V> ? V : never;

function both(d: DocInput, i: number): { source: ProfitSource; oracle: OracleProfitDocument } {
  const credits = d.type === 'invoice' && d.issued ? d.credits : [];
  const creditNotes = credits.map((c): ProfitSource['creditNotes'][number] & { oracle: OracleProfitDocument['credits'][number] } => {
    if (c.kind === 'amount') return { date: c.date, lines: [], subtotal: `${c.amountCents / 100n}.${String(c.amountCents % 100n).padStart(2, '0')}`, oracle: { date: c.date, lines: [], subtotal: c.amountCents } };
    const lines = c.pick.map((k) => d.lines[k]!);
    const subtotal = oracleTotals(lines.map(asOracle), d.rounding).subtotal;
    return { date: c.date, lines: lines.map((line, k) => ({ lineIndex: c.pick[k]!, line })), subtotal: `${subtotal / 100n}.${String(subtotal % 100n).padStart(2, '0')}`, oracle: { date: c.date, lines: lines.map(asOracle), subtotal } };
  });
  const voidedOn = d.type === 'invoice' && d.issued && d.voidAfter !== null ? new Date(Date.parse(`${d.day}T00:00:00Z`) + d.voidAfter * 86_400_000).toISOString().slice(0, 10) : null;
  const status = d.type === 'quote' ? (d.accepted ? 'accepted' : 'sent') : voidedOn ? 'void' : d.issued ? 'sent' : 'draft';
  return {
    source: {
      id: `d${i}`, type: d.type, status, reference: `D-${i}`, lines: d.lines, gstRounding: d.rounding,
      // Midnight UTC is midday (or 1 pm) the same day in New Zealand.
      acceptedAt: d.type === 'quote' && d.accepted ? `${d.day}T00:00:00Z` : null,
      issuedOn: d.type === 'invoice' && d.issued ? d.day : null,
      voidedOn,
      client: client(d.client, `Client ${d.client}`),
      creditNotes: creditNotes.map(({ oracle: _o, ...n }) => n),
      convertedFrom: d.type === 'invoice' ? d.job : null,
    },
    oracle: {
      id: `d${i}`, job: d.type === 'invoice' ? d.job : null,
      kind: d.type, client: d.client, acceptedOn: d.type === 'quote' && d.accepted ? d.day : null, issuedOn: d.type === 'invoice' && d.issued ? d.day : null,
      voidedOn, lines: d.lines.map(asOracle), rounding: d.rounding, credits: creditNotes.map((n) => n.oracle),
    },
  };
}

const asOracleFigures = (f: ProfitFigures): OracleProfit => ({
  sell: f.sellCents, costedSell: f.costedSellCents, cost: f.costCents, grossProfit: f.grossProfitCents, costedLines: f.costedLines, uncostedLines: f.uncostedLines, uncostedSell: f.uncostedSellCents,
});
const ZERO = asOracleFigures(NO_PROFIT);
const asOracleActual = (a: ActualFigures): OracleActual => ({ sell: a.sellCents, cost: a.costCents, profit: a.profitCents });
const all = (r: { quoted: ProfitFigures; invoiced: ProfitFigures; actual: ActualFigures }) => ({ quoted: asOracleFigures(r.quoted), invoiced: asOracleFigures(r.invoiced), actual: asOracleActual(r.actual) });

describe('the profit report against the independent oracle', () => {
  it('property: every figure, by period, client and category, equals the oracle’s; the periods, the clients and the categories each add up to the total', () => {
    const rangeArb = fc.tuple(dayArb, dayArb).map(([a, b]) => (a <= b ? { start: a, end: b } : { start: b, end: a }));
    fc.assert(
      fc.property(
        fc.array(docArb, { maxLength: 8 }), fc.array(jobCostArb, { maxLength: 8 }), fc.boolean(), rangeArb, fc.constantFrom<ProfitGrouping>('month', 'quarter', 'tax_year'),
        (docs, jobCosts, registered, range, grouping) => {
          const made = docs.map(both);
          const costs = jobCosts.map((c) => actualBoth(c, registered));
          const r = profitReport(made.map((m) => m.source), range, grouping, [], costs.map((c) => c.actual));
          const o = oracleProfitReport(made.map((m) => m.oracle), range.start, range.end, grouping as OracleGrouping, costs.map((c) => c.oracle));
          expect(all(r.total)).toEqual(o.total);
          const none = { quoted: ZERO, invoiced: ZERO, actual: { sell: 0n, cost: 0n, profit: 0n } };
          for (const p of r.periods) expect(all(p)).toEqual(o.periods.get(p.key) ?? none);
          expect([...o.periods.keys()].every((k) => r.periods.some((p) => p.key === k))).toBe(true);
          expect(new Set(r.clients.map((c) => c.key))).toEqual(new Set(o.clients.keys()));
          for (const c of r.clients) expect(all(c)).toEqual(o.clients.get(c.key));
          expect(new Set(r.categories.map((c) => c.key))).toEqual(new Set(o.categories.keys()));
          for (const c of r.categories) {
            const want = o.categories.get(c.key)!;
            // Category rows carry money only: a document's lines are counted in the total, not per category.
            const money = (f: OracleProfit) => [f.sell, f.costedSell, f.cost, f.grossProfit, f.uncostedSell];
            expect([money(asOracleFigures(c.quoted)), money(asOracleFigures(c.invoiced)), asOracleActual(c.actual)]).toEqual([money(want.quoted), money(want.invoiced), want.actual]);
          }
          const sum = (rows: { invoiced: ProfitFigures }[]) => rows.reduce((a, x) => addProfit(a, x.invoiced), NO_PROFIT).grossProfitCents;
          expect([sum(r.periods), sum(r.clients), sum(r.categories)]).toEqual([r.total.invoiced.grossProfitCents, r.total.invoiced.grossProfitCents, r.total.invoiced.grossProfitCents]);
          const actualSum = (rows: { actual: ActualFigures }[]) => rows.reduce((a, x) => a + x.actual.profitCents, 0n);
          expect([actualSum(r.periods), actualSum(r.clients), actualSum(r.categories)]).toEqual([r.total.actual.profitCents, r.total.actual.profitCents, r.total.actual.profitCents]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('property: an invoice’s dated pieces add up to the profit its screen shows — nothing left once voided', () => {
    fc.assert(
      fc.property(docArb.filter((d) => d.type === 'invoice' && d.issued), (d) => {
        const { source: s } = both(d, 0);
        const all = profitEntriesOf(s).reduce((a, e) => addProfit(a, e.profit), NO_PROFIT);
        const screen = profitOfDocument({ lines: s.lines, gstRounding: s.gstRounding, creditNotes: s.creditNotes });
        const money = (f: ProfitFigures) => [f.sellCents, f.costedSellCents, f.costCents, f.grossProfitCents, f.uncostedSellCents];
        expect(money(all)).toEqual(s.status === 'void' ? [0n, 0n, 0n, 0n, 0n] : money(screen));
      }),
      { numRuns: 150 },
    );
  });
});
