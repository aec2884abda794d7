// A deposit asked for on a quote: worked by hand, refused in words, and the figure the quote shows
// equal to the deposit invoice it becomes, checked against the independent money oracle.
import { oracleDocumentArb } from '@tradie/testkit/oracle/arbitraries';
import { oracleTotals } from '@tradie/testkit/oracle/oracle';
import { toDomainLine } from '@tradie/testkit/oracle/toEvents';
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { documentTotals } from '../gst/gst.ts';
import { DEPOSIT_MESSAGES, checkedDeposit, depositCentsOf, depositStageRequest, depositWording } from './deposit.ts';
import { type DocumentState, documentDecider } from './document.ts';
import type { Line } from './lineValues.ts';
import { stageInvoiceLines } from './stages.ts';

const line = (qty: string, unit_price: string, tax_included = false, tax_rate = '0.15', description = 'Work'): Line => ({ description, qty, unit_price, tax_included, tax_rate });

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e.message;
    throw e;
  }
  throw new Error('not refused');
};

/** A quote drafted with `deposit`, then accepted, as the decider keeps it. */
function acceptedQuote(lines: Line[], rounding: 'total' | 'line', deposit: { percent: string } | { amount: string }): DocumentState {
  let state = documentDecider.initialState();
  const apply = (command: Parameters<typeof documentDecider.decide>[0]) => {
    for (const e of documentDecider.decide(command, state)) state = documentDecider.evolve(state, { ...e, meta: { at: '2026-05-05T00:00:00.000Z' } } as never);
  };
  apply({ type: 'DraftDocument', data: { documentId: 'q1', type: 'quote', number: 1, reference: 'QTE-0001', gstRounding: rounding, client: null, lines, issueDate: '2026-05-05', paymentTerms: '7 days', deposit } });
  apply({ type: 'AcceptQuote' });
  return state;
}

describe('a deposit asked for on a quote, worked by hand', () => {
  it('30 % of $1,000 + GST is $345.00, and 100 % is the whole quote', () => {
    // 100000c + 15000c GST = 115000c; × 0.30 = 34500c.
    expect(depositCentsOf([line('1', '1000')], 'total', { percent: '30' })).toBe(34500n);
    expect(depositCentsOf([line('1', '1000')], 'total', { percent: '100' })).toBe(115000n);
    expect(depositWording({ percent: '30' }, 34500n)).toBe('A 30 % deposit ($345.00) is due on acceptance.');
  });

  it('an amount is that amount, spread over the lines by what is left of each', () => {
    // Values 115000c and 23000c (total 138000c); $500 → 500 × 115/138 = 416.67 and 83.33.
    expect(depositCentsOf([line('1', '1000'), line('1', '200')], 'total', { amount: '500' })).toBe(50000n);
    expect(depositWording({ amount: '500' }, 50000n)).toBe('A deposit of $500.00 is due on acceptance.');
  });

  it('refuses what cannot be a deposit, in words, and an invoice that asks for one', () => {
    const lines = [line('1', '1000')];
    for (const percent of ['0', '-5', '100.01', '30.125', 'thirty', '']) expect(refusal(() => depositCentsOf(lines, 'total', { percent }))).toBe(DEPOSIT_MESSAGES.percent);
    for (const amount of ['0', '-1', '10.001', 'lots', '']) expect(refusal(() => depositCentsOf(lines, 'total', { amount }))).toBe(DEPOSIT_MESSAGES.amount);
    expect(refusal(() => depositCentsOf(lines, 'total', { amount: '1150.01' }))).toBe("The deposit can't be more than the quote's total ($1,150.00)");
    // 1 % of 10c + GST rounds to nothing.
    expect(refusal(() => depositCentsOf([line('1', '0.10')], 'total', { percent: '1' }))).toBe(DEPOSIT_MESSAGES.nothing);
    expect(refusal(() => checkedDeposit('invoice', lines, 'total', { percent: '30' }))).toBe(DEPOSIT_MESSAGES.quotesOnly);
    expect(checkedDeposit('invoice', lines, 'total', null)).toBeNull();
    expect(checkedDeposit('quote', lines, 'total', { amount: ' 200.50 ' })).toEqual({ amount: '200.50' });
  });

  it('the decider keeps the deposit on a quote and refuses it on an invoice', () => {
    const state = acceptedQuote([line('2', '75.50')], 'line', { percent: '25' });
    expect(state.status !== 'none' && state.deposit).toEqual({ percent: '25' });
    const invoice = () =>
      documentDecider.decide(
        { type: 'DraftDocument', data: { documentId: 'i1', type: 'invoice', number: 1, reference: 'INV-0001', gstRounding: 'total', client: null, lines: [line('1', '10')], issueDate: '2026-05-05', paymentTerms: '7 days', deposit: { percent: '10' } } },
        documentDecider.initialState(),
      );
    expect(refusal(invoice)).toBe(DEPOSIT_MESSAGES.quotesOnly);
  });
});

describe('properties against the oracle', () => {
  const quotes = oracleDocumentArb(8)
    .map(({ lines, rounding }) => ({ lines: lines.map(toDomainLine) as Line[], rounding, oracle: oracleTotals(lines, rounding).total }))
    .filter((q) => q.oracle > 0n);

  it('a deposit of an amount comes to that amount; of 100 % to the whole quote', () => {
    fc.assert(
      fc.property(quotes, fc.double({ min: 0, max: 1, noNaN: true }), (q, f) => {
        const cents = 1n + BigInt(Math.floor(f * Number(q.oracle - 1n)));
        expect(depositCentsOf(q.lines, q.rounding, { amount: new Decimal(cents.toString()).div(100).toFixed(2) })).toBe(cents);
        expect(depositCentsOf(q.lines, q.rounding, { percent: '100' })).toBe(q.oracle);
      }),
    );
  });

  it('a percentage is within half a cent a line of that share of the total, never over it by more', () => {
    fc.assert(
      fc.property(quotes, fc.integer({ min: 1, max: 10000 }), (q, hundredths) => {
        const percent = new Decimal(hundredths).div(100).toFixed(2);
        const exact = new Decimal(q.oracle.toString()).times(percent).div(100);
        let cents: bigint;
        try {
          cents = depositCentsOf(q.lines, q.rounding, { percent });
        } catch (e) {
          // A share of a few cents that rounds to nothing on every line is refused in words.
          expect((e as Error).message).toBe(DEPOSIT_MESSAGES.nothing);
          expect(exact.lte(new Decimal(q.lines.length).times('0.5'))).toBe(true);
          return;
        }
        const got = new Decimal(cents.toString());
        expect(got.minus(exact).abs().lte(new Decimal(q.lines.length).times('0.5'))).toBe(true);
      }),
    );
  });

  it('the deposit the quote shows is what its deposit invoice comes to', () => {
    fc.assert(
      fc.property(quotes, fc.oneof(fc.integer({ min: 1, max: 10000 }).map((h) => ({ percent: new Decimal(h).div(100).toFixed(2) })), fc.double({ min: 0, max: 1, noNaN: true }).map((f) => ({ f }))), (q, pick) => {
        const deposit = 'percent' in pick ? { percent: pick.percent } : { amount: new Decimal((1n + BigInt(Math.floor(pick.f * Number(q.oracle - 1n)))).toString()).div(100).toFixed(2) };
        let shown: bigint;
        try {
          shown = depositCentsOf(q.lines, q.rounding, deposit);
        } catch {
          return; // a share that rounds to nothing: refused above
        }
        let state = acceptedQuote(q.lines, q.rounding, deposit);
        const [invoiced] = documentDecider.decide({ type: 'InvoiceStage', data: { invoiceId: 'i1', reference: 'INV-0001', request: depositStageRequest(deposit) } }, state);
        state = documentDecider.evolve(state, invoiced as never);
        if (state.status === 'none') throw new Error('no quote');
        const stage = state.stages[0]!;
        expect(stage.kind).toBe('deposit');
        expect(documentTotals(stageInvoiceLines(state.lines, stage), q.rounding).totalCents).toBe(shown);
      }),
    );
  });
});
