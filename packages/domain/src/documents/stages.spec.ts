// Stage invoices of an accepted quote: vectors worked by hand (the working is in the comments),
// and properties checked against the independent money oracle (packages/testkit/src/oracle).
import { oracleDocumentArb } from '@tradie/testkit/oracle/arbitraries';
import { oracleTotals, type OracleLine } from '@tradie/testkit/oracle/oracle';
import { toDomainLine } from '@tradie/testkit/oracle/toEvents';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { type DocumentState, type DocumentView, documentDecider } from './document.ts';
import { documentTotals } from '../gst/gst.ts';
import type { Line } from './lineValues.ts';
import { lineCostCents } from '../profit/profit.ts';
import { type StageRecord, type StageRequest, allocateStage, finalInvoiceNote, stageInvoiceLines, stageLedger, stageLineValues, stageLinesOf, stageSummary } from './stages.ts';

const line = (qty: string, unit_price: string, tax_included = false, tax_rate = '0.15', description = 'Work'): Line => ({ description, qty, unit_price, tax_included, tax_rate });

/** Runs the requests in turn, recording each stage as the quote would. */
function run(lines: Line[], rounding: 'total' | 'line', requests: StageRequest[]): StageRecord[] {
  const stages: StageRecord[] = [];
  requests.forEach((request, i) => {
    const allocation = allocateStage(lines, rounding, stages, request);
    stages.push({ invoiceId: `inv-${i}`, reference: `INV-000${i + 1}`, kind: request.kind, lines: stageLinesOf(allocation) });
  });
  return stages;
}
const amounts = (s: StageRecord): string[] => s.lines.map((l) => l.amount);
const totalsOf = (lines: Line[], rounding: 'total' | 'line', s: StageRecord) => documentTotals(stageInvoiceLines(lines, s), rounding);

describe('stage invoices, worked by hand', () => {
  it('deposit 30 %, progress 45 %, final on $1,000 + GST', () => {
    // Value of the line: 100000c + 15000c GST = 115000c.
    // Deposit: 115000 × 0.30 = 34500c. Progress: 115000 × 0.75 = 86250c, less 34500 = 51750c.
    // Final: 115000 − 86250 = 28750c. GST (3/23 of each, all exact): 4500c, 6750c, 3750c = 15000c.
    const lines = [line('1', '1000')];
    const stages = run(lines, 'total', [{ kind: 'deposit', percent: '30' }, { kind: 'progress', percent: '45' }, { kind: 'final' }]);
    expect(stages.map(amounts)).toEqual([['345.00'], ['517.50'], ['287.50']]);
    expect(stages.map((s) => totalsOf(lines, 'total', s).gstCents)).toEqual([4500n, 6750n, 3750n]);
    expect(stages.map((s) => s.lines[0]!.share)).toEqual(['3/10', '9/20', '1/4']);
    expect(stageSummary(lines, 'total', stages)).toEqual({ quotedCents: 115000n, invoicedCents: 115000n, remainingCents: 0n });
  });

  it("rounding on the total: the quote's one GST spread over the lines' values by the largest remainder", () => {
    // 3 × $1.11 + GST: each line 111c + 16.65c exact GST = 127.65c; GST on the total 49.95c → 50c,
    // total 383c. Floors 127 × 3 = 381; 2 cents left go to the largest fractions (.65 each, ties
    // to the earlier line): values 128, 128, 127.
    const lines = [1, 2, 3].map((n) => line('1', '1.11', false, '0.15', `Washer ${n}`));
    expect(stageLineValues(lines, 'total')).toEqual([128n, 128n, 127n]);
    // Deposit 50 %: 64, 64, 63.5 → 64 (half up) = 192c; GST 192 × 3/23 = 25.04 → 25c.
    // Final: 64, 64, 63 = 191c; GST 24.91 → 25c. 192 + 191 = 383c, 25 + 25 = 50c: the quote's.
    const stages = run(lines, 'total', [{ kind: 'deposit', percent: '50' }, { kind: 'final' }]);
    expect(stages.map(amounts)).toEqual([['0.64', '0.64', '0.64'], ['0.64', '0.64', '0.63']]);
    expect(stages.map((s) => [totalsOf(lines, 'total', s).totalCents, totalsOf(lines, 'total', s).gstCents])).toEqual([[192n, 25n], [191n, 25n]]);
  });

  it('the quote of fixtures/deposit-then-final: deposit 25 %, then final', () => {
    // $8,000 + GST and $333.33 + GST, GST on the total: 124999.95c → 125000c, total 958333c.
    // Values 920000c and 38332.95c → 38332c + the 1c left = 38333c. Deposit: 230000c and
    // round(9583.25) = 9583c; final: 690000c and 28750c. GST 31250c + 93750c = 125000c.
    const lines = [line('1', '8000', false, '0.15', 'Bathroom renovation'), line('1', '333.33', false, '0.15', 'Tiles')];
    expect(stageLineValues(lines, 'total')).toEqual([920000n, 38333n]);
    const stages = run(lines, 'total', [{ kind: 'deposit', percent: '25' }, { kind: 'final' }]);
    expect(stages.map((s) => s.lines)).toEqual([
      [{ lineIndex: 0, amount: '2300.00', share: '1/4' }, { lineIndex: 1, amount: '95.83', share: '1/4' }],
      [{ lineIndex: 0, amount: '6900.00', share: '3/4' }, { lineIndex: 1, amount: '287.50', share: '3/4' }],
    ]);
    expect(stages.map((s) => [totalsOf(lines, 'total', s).totalCents, totalsOf(lines, 'total', s).gstCents])).toEqual([[239583n, 31250n], [718750n, 93750n]]);
  });

  it('per-line rounding: each line is its amount and its own rounded GST', () => {
    // 10 × $50 + GST: 50000c + 7500c = 57500c; 1 × $9.99 incl: 999c.
    expect(stageLineValues([line('10', '50', false, '0.15', 'Fence'), line('1', '9.99', true)], 'line')).toEqual([57500n, 999n]);
  });

  it('progress to an overall percent complete takes each line up to that share', () => {
    // $1,000 + GST = 115000c and $100 + GST = 11500c. Deposit 20 %: 23000c + 2300c.
    // Line 2 then 50 % by itself: round(11500 × 0.7) = 8050c, less 2300 = 5750c.
    // 60 % complete: line 1 115000 × 0.6 = 69000c, less 23000 = 46000c; line 2 is at 70 %: nothing.
    const lines = [line('1', '1000'), line('1', '100', false, '0.15', 'Extra')];
    const stages = run(lines, 'total', [{ kind: 'deposit', percent: '20' }, { kind: 'progress', lines: [{ lineIndex: 1, percent: '50' }] }, { kind: 'progress', complete: '60' }]);
    expect(stages[2]!.lines).toEqual([{ lineIndex: 0, amount: '460.00', share: '2/5' }]);
    expect(() => allocateStage(lines, 'total', stages, { kind: 'progress', complete: '50' })).toThrow(/comes to \$0\.00/);
  });

  it('progress by quantity: 4 of 10 metres is 2/5 of the line', () => {
    // 57500c × 2/5 = 23000c.
    const lines = [line('10', '50', false, '0.15', 'Fence'), line('1', '200')];
    const [stage] = run(lines, 'line', [{ kind: 'progress', lines: [{ lineIndex: 0, qty: '4' }] }]);
    expect(stage!.lines).toEqual([{ lineIndex: 0, amount: '230.00', share: '2/5' }]);
    expect(stageInvoiceLines(lines, stage!)).toEqual([{ description: 'Progress (40 % of the line): Fence', qty: '1', unit_price: '230.00', tax_included: true, tax_rate: '0.15', cost: null, category: 'other', markup: null }]);
  });

  it('a fixed amount is spread over what is left in proportion, by the largest remainder', () => {
    // $1.00 over values 128, 128, 127 (383): 33.42, 33.42, 33.16 → floors 33 each, 1 cent left to
    // the largest fraction (.42, the earlier line): 34, 33, 33.
    const lines = [1, 2, 3].map((n) => line('1', '1.11', false, '0.15', `Washer ${n}`));
    const [stage] = run(lines, 'total', [{ kind: 'deposit', amount: '1.00' }]);
    expect(amounts(stage!)).toEqual(['0.34', '0.33', '0.33']);
  });

  it('refuses past 100 % of the quote, of a line, or more than is left; and a final of nothing', () => {
    const lines = [line('1', '1000'), line('2', '10')];
    const stages = run(lines, 'total', [{ kind: 'deposit', percent: '60' }]);
    expect(() => allocateStage(lines, 'total', stages, { kind: 'progress', percent: '50' })).toThrow(/past 100 % of the quote.*at most 40 %/);
    expect(() => allocateStage(lines, 'total', stages, { kind: 'progress', lines: [{ lineIndex: 1, percent: '41' }] })).toThrow(/Line 2 would be invoiced past 100 %/);
    expect(() => allocateStage(lines, 'total', stages, { kind: 'progress', lines: [{ lineIndex: 1, qty: '3' }] })).toThrow(/more than the 2 quoted/);
    // Left: 40 % of 115000 + 2300 = 46920c.
    expect(() => allocateStage(lines, 'total', stages, { kind: 'progress', amount: '469.21' })).toThrow(/more than the \$469\.20 left/);
    const done = run(lines, 'total', [{ kind: 'deposit', percent: '60' }, { kind: 'final' }]);
    expect(() => allocateStage(lines, 'total', done, { kind: 'final' })).toThrow(/nothing left/);
    expect(() => allocateStage(lines, 'total', [], { kind: 'deposit', percent: '0' })).toThrow(DomainError);
    expect(() => allocateStage(lines, 'total', [], { kind: 'deposit', percent: '100.5' })).toThrow(/more than 100/);
    expect(() => allocateStage(lines, 'total', [], { kind: 'progress', lines: [{ lineIndex: 7, percent: '5' }] })).toThrow(/no line 7/);
  });

  it('a variation adds a line: more can be invoiced, the final takes the rest', () => {
    // $1,000 + GST quoted, 100 % invoiced (115000c); a variation of $100 + GST (11500c) can then be
    // invoiced by the final invoice.
    const lines = [line('1', '1000')];
    const stages = run(lines, 'total', [{ kind: 'progress', percent: '100' }]);
    expect(() => allocateStage(lines, 'total', stages, { kind: 'final' })).toThrow(/nothing left/);
    const varied = [...lines, line('1', '100', false, '0.15', 'Extra')];
    const final = allocateStage(varied, 'total', stages, { kind: 'final' });
    expect(stageLinesOf(final)).toEqual([{ lineIndex: 1, amount: '115.00', share: '1/1' }]);
  });

  it("the final invoice's note lists the earlier stages", () => {
    const lines = [line('1', '1000')];
    const stages = run(lines, 'total', [{ kind: 'deposit', percent: '30' }, { kind: 'progress', percent: '45' }]);
    expect(finalInvoiceNote(stages)).toBe('Invoiced earlier for this quote:\nINV-0001 (deposit): $345.00 incl. GST\nINV-0002 (progress): $517.50 incl. GST\nThis final invoice is for the remainder.');
  });

  it('GST is each tax invoice\'s own: three stages of $0.10 + GST carry 2c where the quote has 1c', () => {
    // $0.10 + GST: exact GST 1.5c, rounded (s 19O, a half down) to 1c: total 11c, value 11c.
    // 33.3333 %: 11 × 0.333333 = 3.67 → 4c; 66.6666 %: 7.33 → 7c, less 4 = 3c; final 4c.
    // GST of 4c incl is 0.52c → 1c, of 3c 0.39c → 0c: 1 + 0 + 1 = 2c. The totals still add up: 11c.
    const lines = [line('1', '0.10')];
    const stages = run(lines, 'total', [{ kind: 'progress', percent: '33.3333' }, { kind: 'progress', percent: '33.3333' }, { kind: 'final' }]);
    expect(stages.map(amounts)).toEqual([['0.04'], ['0.03'], ['0.04']]);
    expect(stages.map((s) => totalsOf(lines, 'total', s).gstCents)).toEqual([1n, 0n, 1n]);
  });
});

// ---- properties ----------------------------------------------------------------------------

const quoteArb = oracleDocumentArb(8).filter((q) => oracleTotals(q.lines, q.rounding).total > 0n);
/** Percentages to 4 places, as text. */
const percentArb = fc.integer({ min: 1, max: 1_000_000 }).map((u) => `${u / 10_000}`);

function check(lines: OracleLine[], rounding: 'total' | 'line', stages: StageRecord[]) {
  const domainLines = lines.map(toDomainLine);
  const quote = oracleTotals(lines, rounding);
  // Each stage invoice, totalled by the oracle from its lines as the invoice holds them.
  const invoices = stages.map((s) => oracleTotals(stageInvoiceLines(domainLines, s).map((l) => ({ qty: l.qty, unitPrice: l.unit_price, inclusive: l.tax_included, rate: l.tax_rate as '0.15' | '0' })), rounding));
  for (const inv of invoices) {
    expect(inv.total >= 0n && inv.gst >= 0n && inv.subtotal >= 0n).toBe(true);
  }
  for (const s of stages) for (const l of s.lines) expect(l.amount.startsWith('-')).toBe(false);
  // No line past its whole value.
  const values = stageLineValues(domainLines, rounding);
  stageLedger(lines.length, stages).forEach((l, i) => {
    expect(l.invoicedCents <= values[i]!).toBe(true);
    expect(l.share.n <= l.share.d).toBe(true);
  });
  return { quote, invoices };
}

/** The final stage on top of `stages` (refused only when nothing is left), then `check`: the invoices add up to the quote's total. */
function finalThenCheck(lines: OracleLine[], rounding: 'total' | 'line', stages: StageRecord[]) {
  try {
    stages.push({ invoiceId: 'f', reference: 'INV', kind: 'final', lines: stageLinesOf(allocateStage(lines.map(toDomainLine), rounding, stages, { kind: 'final' })) });
  } catch (e) {
    // Refused only when the stages so far already came to the whole quote (checked below).
    expect(String((e as Error).message)).toMatch(/nothing left/);
  }
  const { quote, invoices } = check(lines, rounding, stages);
  expect(invoices.reduce((a, i) => a + i.total, 0n)).toBe(quote.total);
  return { quote, invoices };
}

describe('stage invoices, properties', () => {
  it('any percentages summing to at most 100 %, then final: the totals add up to the quote total exactly', () => {
    fc.assert(
      fc.property(quoteArb, fc.array(percentArb, { maxLength: 5 }), ({ lines, rounding }, percents) => {
        const requests: StageRequest[] = [];
        let used = 0;
        for (const p of percents) {
          if (used + Number(p) * 10_000 > 1_000_000) break;
          used += Math.round(Number(p) * 10_000);
          requests.push({ kind: requests.length === 0 ? 'deposit' : 'progress', percent: p });
        }
        const domainLines = lines.map(toDomainLine);
        const stages: StageRecord[] = [];
        let recorded = 0;
        for (const r of requests) {
          try {
            stages.push({ invoiceId: 'i', reference: 'INV', kind: r.kind, lines: stageLinesOf(allocateStage(domainLines, rounding, stages, r)) });
            recorded += Math.round(Number((r as { percent: string }).percent) * 10_000);
          } catch (e) {
            // Only a stage that comes to $0.00 may be refused here.
            expect(String((e as Error).message)).toMatch(/comes to \$0\.00/);
          }
        }
        // One ten-thousandth of a percent more than is left is past 100 %: refused.
        if (recorded < 1_000_000) {
          const over = `${(1_000_000 - recorded + 1) / 10_000}`;
          expect(() => allocateStage(domainLines, rounding, stages, { kind: 'progress', percent: over })).toThrow(/past 100 %|more than 100/);
        }
        const { quote, invoices } = finalThenCheck(lines, rounding, stages);
        // GST: each invoice's own, rounded once per invoice (per line with per-line rounding): the
        // sum strays from the quote's by at most half a cent per rounding made.
        const roundings = BigInt(rounding === 'line' ? (stages.length + 1) * lines.length : stages.length + 1);
        const drift = invoices.reduce((a, i) => a + i.gst, 0n) - quote.gst;
        expect(2n * (drift < 0n ? -drift : drift) <= roundings + 2n * BigInt(lines.length)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('fixed amounts and per-line stages, then final: exact, never negative, never past a line', () => {
    const stepArb = fc.oneof(
      fc.integer({ min: 1, max: 100_000 }).map((c): StageRequest => ({ kind: 'progress', amount: (c / 100).toFixed(2) })),
      fc.tuple(fc.nat(7), percentArb).map(([i, p]): StageRequest => ({ kind: 'progress', lines: [{ lineIndex: i, percent: p }] })),
    );
    fc.assert(
      fc.property(quoteArb, fc.array(stepArb, { maxLength: 6 }), ({ lines, rounding }, steps) => {
        const domainLines = lines.map(toDomainLine);
        const stages: StageRecord[] = [];
        for (const r of steps) {
          try {
            stages.push({ invoiceId: 'i', reference: 'INV', kind: r.kind, lines: stageLinesOf(allocateStage(domainLines, rounding, stages, r)) });
          } catch (e) {
            // Refused: more than is left, past 100 % of a line, a line the quote does not have, or $0.00.
            expect(e).toBeInstanceOf(DomainError);
          }
        }
        finalThenCheck(lines, rounding, stages);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the quote decider: stages and variations', () => {
  const at = '2026-05-05T00:00:00.000Z';
  const drafted = {
    type: 'DocumentDrafted',
    data: { documentId: 'q1', type: 'quote', number: 1, reference: 'QTE-0001', client: null, lines: [line('1', '1000')], gstRounding: 'total', issueDate: '2026-05-05', dueDate: '2026-05-05', paymentTerms: '7 days', validUntil: '2026-06-04', notes: '', convertedFrom: null },
  };
  const fold = (events: object[]): DocumentState => events.reduce<DocumentState>((s, e) => documentDecider.evolve(s, { ...e, meta: { at } } as never), documentDecider.initialState());

  it('only an accepted quote is invoiced in stages or varied', () => {
    const draft = fold([drafted]);
    expect(() => documentDecider.decide({ type: 'InvoiceStage', data: { invoiceId: 'i1', reference: 'INV-0001', request: { kind: 'final' } } }, draft)).toThrow(/only an accepted quote/);
    expect(() => documentDecider.decide({ type: 'ProposeVariation', data: { variationId: 'v1', lines: [line('1', '5')], note: '' } }, draft)).toThrow(/only an accepted quote/);
  });

  it('records each stage and each variation on the quote; a variation leaves the signed lines and the client link alone; a staged quote is not converted whole', () => {
    const accepted = fold([drafted, { type: 'ClientLinkIssued', data: { documentId: 'q1', linkId: 'l1', expiresOn: '2026-06-04' } }, { type: 'QuoteAccepted', data: { documentId: 'q1' } }]);
    const staged = documentDecider.decide({ type: 'InvoiceStage', data: { invoiceId: 'i1', reference: 'INV-0001', request: { kind: 'deposit', percent: '10' } } }, accepted);
    // 115000c × 10 % = 11500c.
    expect(staged).toEqual([{ type: 'StageInvoiced', data: { documentId: 'q1', invoiceId: 'i1', reference: 'INV-0001', kind: 'deposit', lines: [{ lineIndex: 0, amount: '115.00', share: '1/10' }] } }]);
    const after = fold([drafted, { type: 'ClientLinkIssued', data: { documentId: 'q1', linkId: 'l1', expiresOn: '2026-06-04' } }, { type: 'QuoteAccepted', data: { documentId: 'q1' } }, ...staged]);
    expect(() => documentDecider.decide({ type: 'ConvertQuote', data: { invoiceId: 'i2' } }, after)).toThrow(/invoiced in stages/);
    const varied = documentDecider.decide({ type: 'ProposeVariation', data: { variationId: 'v1', lines: [line('1', '5', false, '0.15', 'Extra')], note: '' } }, after);
    expect(varied.map((e) => e.type)).toEqual(['VariationProposed']);
    const v = fold([drafted, { type: 'ClientLinkIssued', data: { documentId: 'q1', linkId: 'l1', expiresOn: '2026-06-04' } }, { type: 'QuoteAccepted', data: { documentId: 'q1' } }, ...staged, ...varied]) as DocumentView;
    expect(v.lines).toHaveLength(1);
    expect(v.variations.map((x) => [x.number, x.status, x.firstLine])).toEqual([[1, 'awaiting_approval', 1]]);
    expect(v.clientLink?.linkId).toBe('l1');
    expect(v.stages).toHaveLength(1);
    expect(v.status).toBe('accepted');
  });
});

describe('each stage carries its share of cost', () => {
  /** Runs the requests, each stage invoice's lines made with the stages before it. */
  const stageLines = (lines: Line[], requests: StageRequest[]) => {
    const stages = run(lines, 'total', requests);
    return stages.map((s, i) => stageInvoiceLines(lines, s, stages.slice(0, i)));
  };

  it('deposit 30 %, progress 45 %, final of a $1,000 line costing $333.33: $100.00, $150.00, $83.33', () => {
    // 33333c × 0.30 = 9999.9 → 10000c; × 0.75 = 24999.75 → 25000c, less 10000 = 15000c; final 33333 − 25000 = 8333c.
    const lines = [{ ...line('1', '1000'), cost: '333.33', category: 'subcontractor' }];
    const made = stageLines(lines, [{ kind: 'deposit', percent: '30' }, { kind: 'progress', percent: '45' }, { kind: 'final' }]);
    expect(made.map((ls) => ls.map((l) => [l.cost, l.category]))).toEqual([[['100.00', 'subcontractor']], [['150.00', 'subcontractor']], [['83.33', 'subcontractor']]]);
  });

  it('a line with no cost gives its stages no cost, never a cost of zero', () => {
    const made = stageLines([line('1', '1000')], [{ kind: 'deposit', percent: '30' }, { kind: 'final' }]);
    expect(made.flat().map((l) => l.cost)).toEqual([null, null]);
  });

  it('property: once a quote is invoiced in full, its stages carry each line’s whole cost to the cent', () => {
    const costedArb = fc.record({
      lines: fc.array(fc.record({ qty: fc.constantFrom('1', '2.5', '10', '0.333'), unit_price: fc.constantFrom('10', '99.99', '1450'), cost: fc.option(fc.constantFrom('3.3333', '45', '0.0044', '1000'), { nil: null }) }), { minLength: 1, maxLength: 6 }),
      percents: fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 3 }),
    });
    fc.assert(fc.property(costedArb, ({ lines: specs, percents }) => {
      const lines = specs.map((s, i) => ({ ...line(s.qty, s.unit_price, false, '0.15', `Line ${i}`), cost: s.cost }));
      const made = stageLines(lines, [...percents.map((p) => ({ kind: 'progress' as const, percent: String(p) })), { kind: 'final' }]);
      const carried = documentProfitOf(made.flat());
      const quoted = lines.reduce((a, l) => a + (lineCostCents(l) ?? 0n), 0n);
      expect(carried).toBe(quoted);
    }), { numRuns: 100 });
  });
});

const documentProfitOf = (lines: Line[]): bigint => lines.reduce((a, l) => a + (lineCostCents(l) ?? 0n), 0n);
