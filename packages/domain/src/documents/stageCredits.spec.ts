// A credit note on a stage invoice gives its share back to the quote: Quoted / Invoiced /
// Remaining are net of credits, a replacement stage can take the share again, and the final
// invoice still lands on what is left — checked by hand and against the independent money oracle
// (packages/testkit/src/oracle), which totals every invoice and credit note from their lines.
import { oracleDocumentArb } from '@tradie/testkit/oracle/arbitraries';
import { oracleTotals, type OracleLine } from '@tradie/testkit/oracle/oracle';
import { toDomainLine } from '@tradie/testkit/oracle/toEvents';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { toCents } from '../money/money.ts';
import { type DocumentCommand, type DocumentState, type DocumentView, documentDecider, documentFigures } from './document.ts';
import type { CreditRequest } from './creditNotes.ts';
import type { Line } from './lineValues.ts';
import { type StageRequest, finalInvoiceNote, stageInvoiceLines, stageLedger, stageLineValues, stageSummary } from './stages.ts';

const at = { at: '2026-05-05T00:00:00.000Z' };

/** A quote accepted and invoiced in stages through the decider, each stage invoice issued, and credit notes on them. */
class StagedQuote {
  quote: DocumentState;
  invoices = new Map<string, DocumentState>();
  private n = 0;
  private cn = 0;
  readonly rounding: 'total' | 'line';

  constructor(lines: Line[], rounding: 'total' | 'line') {
    this.rounding = rounding;
    this.quote = this.apply(documentDecider.initialState(), {
      type: 'DraftDocument',
      data: { documentId: 'q', type: 'quote', number: 1, reference: 'QTE-0001', client: null, lines, gstRounding: rounding, issueDate: '2026-05-05', paymentTerms: '7 days' },
    });
    this.quote = this.apply(this.quote, { type: 'AcceptQuote' });
  }

  private apply(state: DocumentState, command: DocumentCommand): DocumentState {
    return documentDecider.decide(command, state).reduce<DocumentState>((s, e) => documentDecider.evolve(s, { ...e, meta: at }), state);
  }

  get view(): DocumentView {
    return this.quote as DocumentView;
  }

  /** The stage invoice's id (drafted from the quote's lines for it, then issued). */
  stage(request: StageRequest): string {
    const id = `inv-${++this.n}`;
    this.quote = this.apply(this.quote, { type: 'InvoiceStage', data: { invoiceId: id, reference: `INV-000${this.n}`, request } });
    const stage = this.view.stages.at(-1)!;
    let inv = this.apply(documentDecider.initialState(), {
      type: 'DraftDocument',
      data: { documentId: id, type: 'invoice', number: this.n, reference: stage.reference, client: null, lines: stageInvoiceLines(this.view.lines, stage), gstRounding: this.rounding, issueDate: '2026-05-05', paymentTerms: '7 days', convertedFrom: 'q' },
    });
    inv = this.apply(inv, { type: 'MarkIssued' });
    this.invoices.set(id, inv);
    return id;
  }

  /** A credit note on a stage invoice, given back to the quote as the API does; its total in cents. */
  credit(invoiceId: string, credit: CreditRequest): bigint {
    const id = `cn-${++this.cn}`;
    const inv = this.apply(this.invoices.get(invoiceId)!, {
      type: 'IssueCreditNote',
      data: { creditNoteId: id, number: this.cn, reference: `CN-000${this.cn}`, date: '2026-06-01', reason: 'Job changed', supplier: { name: 'Kauri Plumbing', gstNumber: '49-091-850' }, credit },
    }) as DocumentView;
    this.invoices.set(invoiceId, inv);
    const note = inv.creditNotes.at(-1)!;
    this.quote = this.apply(this.quote, {
      type: 'CreditStage',
      data: { invoiceId, creditNoteId: id, creditNoteReference: note.reference, total: note.total, invoiceLines: inv.lines, creditedLines: note.lines },
    });
    return toCents(note.total);
  }

  summary() {
    return stageSummary(this.view.lines, this.rounding, this.view.stages, this.view.stageCredits);
  }
}

describe('a credited stage gives its share back, worked by hand', () => {
  // $12,345.65 + GST: 1,851.8475 → s 19O 1,851.85; total $14,197.50. A 20 % deposit is
  // 1419750 × 1/5 = 283950c: $2,839.50.
  const lines: Line[] = [{ description: 'Kitchen', qty: '1', unit_price: '12345.65', tax_included: false, tax_rate: '0.15' }];

  it('credit a 20 % deposit in full: Invoiced $0.00; the replacement deposit and the final invoice bill the whole quote', () => {
    const q = new StagedQuote(lines, 'total');
    const quoted = oracleTotals([{ qty: '1', unitPrice: '12345.65', inclusive: false, rate: '0.15' }], 'total').total;
    expect(quoted).toBe(1419750n);
    const deposit = q.stage({ kind: 'deposit', percent: '20' });
    expect(q.summary()).toEqual({ quotedCents: 1419750n, invoicedCents: 283950n, remainingCents: 1135800n });
    expect(q.credit(deposit, { kind: 'lines', lines: [{ lineIndex: 0 }] })).toBe(283950n);
    expect(q.view.stageCredits).toEqual([{ invoiceId: deposit, creditNoteId: 'cn-1', creditNoteReference: 'CN-0001', lines: [{ lineIndex: 0, amount: '2839.50', share: '1/5' }] }]);
    expect(q.summary()).toEqual({ quotedCents: 1419750n, invoicedCents: 0n, remainingCents: 1419750n });
    const again = q.stage({ kind: 'deposit', percent: '20' });
    const final = q.stage({ kind: 'final' });
    const total = (id: string) => documentFigures(q.invoices.get(id) as DocumentView).totalCents;
    expect([total(again), total(final)]).toEqual([283950n, 1135800n]);
    expect(total(again) + total(final)).toBe(quoted);
    expect(q.summary()).toEqual({ quotedCents: 1419750n, invoicedCents: 1419750n, remainingCents: 0n });
    expect(finalInvoiceNote(q.view.stages.slice(0, -1), q.view.stageCredits)).toBe(
      'Invoiced earlier for this quote:\nINV-0001 (deposit): $2,839.50 incl. GST, less $2,839.50 credited (CN-0001)\nINV-0002 (deposit): $2,839.50 incl. GST\nThis final invoice is for the remainder.',
    );
  });

  it('credit $1,000.00 of it: Invoiced $1,839.50, and 1000/14197.50 of the line goes back', () => {
    const q = new StagedQuote(lines, 'total');
    const deposit = q.stage({ kind: 'deposit', percent: '20' });
    q.credit(deposit, { kind: 'amount', amount: '1000.00' });
    expect(q.summary()).toEqual({ quotedCents: 1419750n, invoicedCents: 183950n, remainingCents: 1235800n });
    // 100000 / 1419750 = 400/5679 of the line.
    expect(q.view.stageCredits[0]!.lines).toEqual([{ lineIndex: 0, amount: '1000.00', share: '400/5679' }]);
    // The rest of the deposit, by amount: the stage is all given back, to the exact share.
    q.credit(deposit, { kind: 'amount', amount: '1839.50' });
    expect(q.summary().invoicedCents).toBe(0n);
    expect(stageLedger(1, q.view.stages, q.view.stageCredits)).toEqual([{ invoicedCents: 0n, share: { n: 0n, d: 1n } }]);
  });
});

// ---- properties against the oracle ----------------------------------------------------------

const quoteArb = oracleDocumentArb(6).filter((q) => oracleTotals(q.lines, q.rounding).total > 0n);
const percentArb = fc.integer({ min: 1, max: 600_000 }).map((u) => `${u / 10_000}`);
const creditArb = fc.oneof(
  fc.constant({ kind: 'all' as const }),
  fc.integer({ min: 1, max: 99 }).map((p) => ({ kind: 'part' as const, percent: p })),
  fc.integer({ min: 1, max: 99 }).map((p) => ({ kind: 'amount' as const, percent: p })),
);
const asOracle = (l: Line): OracleLine => ({ qty: l.qty, unitPrice: l.unit_price, inclusive: l.tax_included, rate: l.tax_rate as '0.15' | '0' });

describe('credited stages, properties', () => {
  it('stages, credits of all, part of the lines or an amount, then more stages and the final: Invoiced is the stage invoices less their credit notes, and everything billed net adds up to the quote', () => {
    const credited = { all: 0, part: 0, amount: 0 };
    fc.assert(
      fc.property(quoteArb, fc.array(fc.tuple(percentArb, fc.option(creditArb, { nil: null })), { minLength: 1, maxLength: 4 }), percentArb, ({ lines, rounding }, plan, after) => {
        const q = new StagedQuote(lines.map(toDomainLine), rounding);
        const quoted = oracleTotals(lines, rounding).total;
        let billed = 0n;
        const tryStage = (request: StageRequest): string | null => {
          try {
            const id = q.stage(request);
            // The oracle totals the stage invoice from the lines it holds.
            billed += oracleTotals((q.invoices.get(id) as DocumentView).lines.map(asOracle), rounding).total;
            return id;
          } catch (e) {
            if (!(e instanceof DomainError)) throw e;
            return null;
          }
        };
        for (const [percent, credit] of plan) {
          const id = tryStage({ kind: 'progress', percent });
          if (id === null || credit === null) continue;
          const inv = q.invoices.get(id) as DocumentView;
          const total = oracleTotals(inv.lines.map(asOracle), rounding).total;
          let request: CreditRequest;
          let expected: bigint;
          if (credit.kind === 'all') {
            request = { kind: 'lines', lines: inv.lines.map((_, lineIndex) => ({ lineIndex })) };
            expected = total;
          } else if (credit.kind === 'part') {
            // Each line (one unit) credited in part: the oracle totals those part lines.
            const qty = (credit.percent / 100).toFixed(2);
            request = { kind: 'lines', lines: inv.lines.map((_, lineIndex) => ({ lineIndex, qty })) };
            expected = oracleTotals(inv.lines.map((l) => ({ ...asOracle(l), qty })), rounding).total;
          } else {
            expected = (total * BigInt(credit.percent)) / 100n;
            request = { kind: 'amount', amount: `${expected / 100n}.${String(expected % 100n).padStart(2, '0')}` };
          }
          if (expected <= 0n) continue;
          expect(q.credit(id, request)).toBe(expected);
          credited[credit.kind] += 1;
          billed -= expected;
        }
        // Invoiced is what the stage invoices billed less their credit notes.
        expect(q.summary()).toEqual({ quotedCents: quoted, invoicedCents: billed, remainingCents: quoted - billed });
        tryStage({ kind: 'progress', percent: after });
        tryStage({ kind: 'final' });
        expect(billed).toBe(quoted);
        expect(q.summary()).toEqual({ quotedCents: quoted, invoicedCents: quoted, remainingCents: 0n });
        // No line past its value or below nothing, no share past the whole.
        const values = stageLineValues(q.view.lines, rounding);
        stageLedger(lines.length, q.view.stages, q.view.stageCredits).forEach((l, i) => {
          expect(l.invoicedCents >= 0n && l.invoicedCents <= values[i]!).toBe(true);
          expect(l.share.n >= 0n && l.share.n <= l.share.d).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
    // The runs credited stages every way.
    expect(Math.min(credited.all, credited.part, credited.amount)).toBeGreaterThan(50);
  });
});
