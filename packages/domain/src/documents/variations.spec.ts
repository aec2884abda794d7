// Variations of an accepted quote (docs/decisions/0020-variations.md): worked by hand, and
// properties through the decider checked against the independent oracle in the testkit — the signed
// quote never changes under the client's acceptance, only approved variations are invoiced, and the
// stage invoices add up to the quote plus its approved variations to the cent.
import { oracleDocumentArb, oracleLineArb } from '@tradie/testkit/oracle/arbitraries';
import { oracleContractSum } from '@tradie/testkit/oracle/contract';
import { oracleTotals, type OracleLine } from '@tradie/testkit/oracle/oracle';
import { toDomainLine } from '@tradie/testkit/oracle/toEvents';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { documentTotals } from '../gst/gst.ts';
import { parseDomainEvent } from '../events/registry.ts';
import { type DocumentCommand, type DocumentState, type DocumentView, documentDecider } from './document.ts';
import type { DocumentEvent } from './events.ts';
import type { Line } from './lineValues.ts';
import { stageInvoiceLines, stageLedger, stageSummaryOn } from './stages.ts';
import { agreedFigures, quoteLines, quoteStageBasis, variationsSummary } from './variations.ts';

const line = (qty: string, unit_price: string, description = 'Work'): Line => ({ description, qty, unit_price, tax_included: false, tax_rate: '0.15' });

const ACCEPTANCE = { linkId: 'link-1', ip: '203.0.113.9', userAgent: 'Phone', documentVersion: 2, shownSha256: 'a'.repeat(64), signerName: 'Aroha Ngata', signatureSha256: 'b'.repeat(64), termsAccepted: true };

/** Runs commands in turn, an event a minute apart; a refused command leaves the state as it was and is returned. */
class Quote {
  state: DocumentState = { status: 'none' };
  private minute = 0;
  constructor(lines: Line[], rounding: 'total' | 'line') {
    this.apply({ type: 'DraftDocument', data: { documentId: 'q1', type: 'quote', number: 1, reference: 'QTE-0001', client: null, lines, gstRounding: rounding, issueDate: '2026-11-02', paymentTerms: '14 days' } });
    this.apply({ type: 'IssueClientLink', data: { linkId: 'link-1', expiresOn: '2026-12-02' } });
    this.apply({ type: 'AcceptQuoteByClient', data: ACCEPTANCE });
  }
  get view(): DocumentView {
    return this.state as DocumentView;
  }
  apply(command: DocumentCommand): DomainError | null {
    let events: DocumentEvent[];
    try {
      events = documentDecider.decide(command, this.state);
    } catch (e) {
      if (e instanceof DomainError) return e;
      throw e;
    }
    for (const e of events) {
      const at = new Date(Date.UTC(2026, 10, 2, 0, this.minute++)).toISOString();
      this.state = documentDecider.evolve(this.state, { ...e, meta: { at } });
    }
    return null;
  }
}

const stage = (invoiceId: string, request: Extract<DocumentCommand, { type: 'InvoiceStage' }>['data']['request']): DocumentCommand => ({ type: 'InvoiceStage', data: { invoiceId, reference: invoiceId.toUpperCase(), request } });
/** A stage invoice's total, from its own lines as the invoice holds them. */
const invoiceCents = (q: DocumentView, invoiceId: string): bigint =>
  documentTotals(stageInvoiceLines(quoteLines(q).labelled, q.stages.find((s) => s.invoiceId === invoiceId)!), q.gstRounding).totalCents;

describe('a variation after acceptance, worked by hand', () => {
  // The quote: $1,812.50 + $735.03 = $2,547.53 + GST 382.1295 → $382.13 (on the total) = $2,929.66.
  // Variation 1: an extra downpipe, $104.35 + GST 15.6525 → $15.65 = $120.00.
  const signed = [line('1', '1812.50', 'Hot water cylinder, supplied and fitted'), line('1', '735.03', 'Labour')];
  const downpipe = [line('1', '104.35', 'Extra downpipe')];

  it("leaves the signed quote as the client accepted it, and shows the variation apart until they approve it", () => {
    const q = new Quote(signed, 'total');
    const before = q.view;
    expect(q.apply({ type: 'ProposeVariation', data: { variationId: 'v1', lines: downpipe, note: 'The old downpipe is cracked' } })).toBeNull();
    const v = q.view;
    expect(v.lines).toEqual(before.lines);
    expect(documentTotals(v.lines, 'total').totalCents).toBe(292966n);
    expect(v.clientAcceptance).toEqual(before.clientAcceptance);
    expect(v.status).toBe('accepted');
    expect(v.clientLink?.linkId).toBe('link-1');
    expect(variationsSummary(v)).toBe('Accepted $2,929.66 · Variation 1 $120.00 awaiting approval');
    expect(agreedFigures(v)).toEqual({ signedCents: 292966n, approvedCents: 0n, awaitingCents: 12000n, agreedCents: 292966n });
  });

  it('invoices the variation only once the client approves it: deposit 30 %, then the variation, then the final invoice', () => {
    const q = new Quote(signed, 'total');
    q.apply({ type: 'ProposeVariation', data: { variationId: 'v1', lines: downpipe, note: '' } });
    // Line values (GST on the total): 208437.5c and 84528.45c, floors 208437 + 84528 = 292965, the
    // cent left to the larger fraction: 208438c and 84528c. Deposit 30 %: round(62531.4) = 62531c
    // and round(25358.4) = 25358c: $878.89. The variation's line (line 3) is not part of it.
    expect(q.apply(stage('inv-1', { kind: 'deposit', percent: '30' }))).toBeNull();
    expect(q.view.stages[0]!.lines.map((l) => [l.lineIndex, l.amount])).toEqual([[0, '625.31'], [1, '253.58']]);
    // Invoicing the variation before it is approved is refused, whichever way it is asked.
    expect(q.apply(stage('inv-x', { kind: 'progress', variationId: 'v1' }))?.detail).toBe("Variation 1 is awaiting the client's approval: it can be invoiced once they approve it.");
    expect(q.apply(stage('inv-x', { kind: 'progress', lines: [{ lineIndex: 2, percent: '100' }] }))?.detail).toBe("Line 3 is part of Variation 1, which is awaiting the client's approval: it can be invoiced once they approve it.");
    expect(q.apply(stage('inv-x', { kind: 'progress', variationId: 'v1' }))?.code).toBe('CONFLICT');
    // The client approves it through the link: a typed name, no signature.
    expect(q.apply({ type: 'AcceptVariationByClient', data: { variationId: 'v1', linkId: 'link-1', ip: '203.0.113.9', userAgent: 'Phone', shownSha256: 'c'.repeat(64), signerName: ' Aroha Ngata ', signatureSha256: null } })).toBeNull();
    expect(q.view.variations[0]).toMatchObject({ status: 'approved', approvedAfterStages: 1, clientAcceptance: { signerName: 'Aroha Ngata', signatureSha256: null } });
    expect(variationsSummary(q.view)).toBe('Accepted $2,929.66 · Variation 1 $120.00 approved');
    // The variation alone: $120.00, named after it on the invoice.
    expect(q.apply(stage('inv-2', { kind: 'progress', variationId: 'v1' }))).toBeNull();
    expect(stageInvoiceLines(quoteLines(q.view).labelled, q.view.stages[1]!)).toEqual([{ description: 'Progress (100 % of the line): Variation 1: Extra downpipe', qty: '1', unit_price: '120.00', tax_included: true, tax_rate: '0.15', cost: null, category: 'other', markup: null }]);
    expect(q.apply(stage('inv-3', { kind: 'progress', variationId: 'v1' }))?.detail).toBe('Variation 1 is invoiced in full already.');
    // Final: 145907c + 59170c = $2,050.77. 87889 + 12000 + 205077 = 304966c = $2,929.66 + $120.00.
    expect(q.apply(stage('inv-4', { kind: 'final' }))).toBeNull();
    expect(['inv-1', 'inv-2', 'inv-4'].map((id) => invoiceCents(q.view, id))).toEqual([87889n, 12000n, 205077n]);
    expect(stageSummaryOn(quoteStageBasis(q.view), q.view.stages)).toEqual({ quotedCents: 304966n, invoicedCents: 304966n, remainingCents: 0n });
  });

  it('a declined or withdrawn variation is never invoiced; answers come once; a varied quote is not converted whole', () => {
    const q = new Quote(signed, 'total');
    q.apply({ type: 'ProposeVariation', data: { variationId: 'v1', lines: downpipe, note: '' } });
    q.apply({ type: 'ProposeVariation', data: { variationId: 'v2', lines: [line('2', '50', 'Gutter guard')], note: '' } });
    expect(q.apply({ type: 'ConvertQuote', data: { invoiceId: 'inv-c' } })?.detail).toBe('This quote has Variation 1 and Variation 2. Invoice it with a final invoice instead: it takes the quote and its approved variations.');
    expect(q.apply({ type: 'DeclineVariationByClient', data: { variationId: 'v1', linkId: 'link-1', ip: '', userAgent: '', note: 'Not now' } })).toBeNull();
    expect(q.apply({ type: 'WithdrawVariation', data: { variationId: 'v2' } })).toBeNull();
    expect(q.apply({ type: 'ApproveVariation', data: { variationId: 'v1' } })?.detail).toBe('Variation 1 is already declined');
    expect(q.apply({ type: 'AcceptVariationByClient', data: { variationId: 'v2', linkId: 'link-1', ip: '', userAgent: '', shownSha256: '', signerName: 'A', signatureSha256: null } })?.detail).toBe('Variation 2 was withdrawn');
    expect(q.apply(stage('inv-x', { kind: 'progress', variationId: 'v1' }))?.detail).toBe("Variation 1 was declined, so it can't be invoiced.");
    expect(q.apply(stage('inv-1', { kind: 'final' }))).toBeNull();
    expect(q.view.stages[0]!.lines.map((l) => l.lineIndex)).toEqual([0, 1]);
    expect(variationsSummary(q.view)).toBe('Accepted $2,929.66 · Variation 1 $120.00 declined');
    // A variation is answered through the link that works now, and only on an accepted quote.
    const other = new Quote(signed, 'total');
    other.apply({ type: 'ProposeVariation', data: { variationId: 'v1', lines: downpipe, note: '' } });
    expect(other.apply({ type: 'AcceptVariationByClient', data: { variationId: 'v1', linkId: 'old-link', ip: '', userAgent: '', shownSha256: '', signerName: 'A', signatureSha256: null } })?.detail).toBe('This link no longer works');
    expect(other.apply({ type: 'ProposeVariation', data: { variationId: 'v9', lines: [line('0', '10')], note: '' } })?.detail).toBe('A variation must come to more than $0.00');
  });

  it("replays a log written before variations were agreed apart: the added line reads as an approved variation, valued with the quote", () => {
    // Before: QuoteVaried added a line to the quote at once; stages kept its index (1).
    const stored = [
      { type: 'DocumentDrafted', version: 1, data: { documentId: 'q1', type: 'quote', number: 1, reference: 'QTE-0001', client: null, lines: [line('1', '1000')], gstRounding: 'total', issueDate: '2026-05-05', dueDate: '2026-05-05', paymentTerms: '7 days', validUntil: '2026-06-04', notes: '', convertedFrom: null } },
      { type: 'QuoteAccepted', version: 1, data: { documentId: 'q1' } },
      { type: 'StageInvoiced', version: 1, data: { documentId: 'q1', invoiceId: 'i1', reference: 'INV-0001', kind: 'progress', lines: [{ lineIndex: 0, amount: '1150.00', share: '1/1' }] } },
      { type: 'QuoteVaried', version: 1, data: { documentId: 'q1', line: line('1', '100', 'Extra') } },
    ];
    const state = stored.map(parseDomainEvent).reduce<DocumentState>((s, e) => documentDecider.evolve(s, e as DocumentEvent), { status: 'none' }) as DocumentView;
    expect(state.lines).toHaveLength(1);
    expect(state.variations.map((v) => [v.number, v.status, v.legacy, v.firstLine, v.approvedAfterStages])).toEqual([[1, 'approved', true, 1, 1]]);
    expect(stageSummaryOn(quoteStageBasis(state), state.stages)).toEqual({ quotedCents: 126500n, invoicedCents: 115000n, remainingCents: 11500n });
    const [final] = documentDecider.decide(stage('i2', { kind: 'final' }), state);
    expect(final).toEqual({ type: 'StageInvoiced', data: { documentId: 'q1', invoiceId: 'i2', reference: 'I2', kind: 'final', lines: [{ lineIndex: 1, amount: '115.00', share: '1/1' }] } });
  });
});

// ---- properties ----------------------------------------------------------------------------

const toLines = (ls: readonly OracleLine[]): Line[] => ls.map(toDomainLine);
const percentArb = fc.integer({ min: 1, max: 1_000_000 }).map((u) => `${u / 10_000}`);

type Step =
  | { kind: 'propose'; lines: OracleLine[] }
  | { kind: 'clientApprove' | 'approve' | 'clientDecline' | 'decline' | 'withdraw' | 'send'; pick: number }
  | { kind: 'stage'; request: Extract<DocumentCommand, { type: 'InvoiceStage' }>['data']['request'] | { kind: 'progress'; pickVariation: number } };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.array(oracleLineArb(true), { minLength: 1, maxLength: 3 }).map((lines): Step => ({ kind: 'propose', lines })) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('clientApprove' as const, 'approve' as const, 'clientDecline' as const, 'decline' as const, 'withdraw' as const, 'send' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.oneof(
      percentArb.map((percent): Step => ({ kind: 'stage', request: { kind: 'progress', percent } })),
      percentArb.map((complete): Step => ({ kind: 'stage', request: { kind: 'progress', complete } })),
      fc.integer({ min: 1, max: 200_000 }).map((c): Step => ({ kind: 'stage', request: { kind: 'progress', amount: (c / 100).toFixed(2) } })),
      fc.tuple(fc.nat(20), percentArb).map(([lineIndex, percent]): Step => ({ kind: 'stage', request: { kind: 'progress', lines: [{ lineIndex, percent }] } })),
      fc.nat().map((pickVariation): Step => ({ kind: 'stage', request: { kind: 'progress', pickVariation } })),
    ),
  },
);

const quoteArb = oracleDocumentArb(6).filter((q) => oracleTotals(q.lines, q.rounding).total > 0n);

describe('variations, properties (the oracle in the testkit)', () => {
  it('whatever is proposed, sent, answered or invoiced: the signed quote, its total and the acceptance never change, only approved variations are invoiced, and the stages add up to the quote plus the approved variations', () => {
    fc.assert(
      fc.property(quoteArb, fc.array(stepArb, { maxLength: 14 }), ({ lines, rounding }, steps) => {
        const q = new Quote(toLines(lines), rounding);
        const signed = q.view;
        const proposed: OracleLine[][] = [];
        let n = 0;
        for (const step of steps) {
          const variations = q.view.variations;
          const pick = (i: number) => variations[i % Math.max(1, variations.length)];
          let refused: DomainError | null;
          if (step.kind === 'propose') {
            refused = q.apply({ type: 'ProposeVariation', data: { variationId: `v${n++}`, lines: toLines(step.lines), note: '' } });
            if (!refused) proposed.push(step.lines);
          } else if (step.kind === 'stage') {
            const request = 'pickVariation' in step.request ? { kind: 'progress' as const, variationId: pick(step.request.pickVariation)?.variationId ?? 'none' } : step.request;
            const named = 'variationId' in request ? variations.find((v) => v.variationId === request.variationId) : 'lines' in request ? quoteLines(q.view).variationOf[request.lines[0]!.lineIndex] : undefined;
            refused = q.apply(stage(`inv-${n++}`, request));
            // Naming a variation (or one of its lines) the client has not approved is refused with a reason.
            if (named && named.status !== 'approved') expect(refused?.code).toBe('CONFLICT');
          } else {
            const v = pick(step.pick);
            if (!v) continue;
            const id = v.variationId;
            const answer = { variationId: id, linkId: 'link-1', ip: '198.51.100.1', userAgent: 'Phone' };
            const command: DocumentCommand =
              step.kind === 'clientApprove' ? { type: 'AcceptVariationByClient', data: { ...answer, shownSha256: 'd'.repeat(64), signerName: 'Aroha', signatureSha256: null } }
              : step.kind === 'clientDecline' ? { type: 'DeclineVariationByClient', data: { ...answer, note: '' } }
              : step.kind === 'approve' ? { type: 'ApproveVariation', data: { variationId: id } }
              : step.kind === 'decline' ? { type: 'DeclineVariation', data: { variationId: id } }
              : step.kind === 'withdraw' ? { type: 'WithdrawVariation', data: { variationId: id } }
              : { type: 'SendVariation', data: { variationId: id, to: ['client@example.com'], cc: [], bcc: [], subject: 'Variation' } };
            refused = q.apply(command);
          }
          if (refused) expect(refused).toBeInstanceOf(DomainError);
          const d = q.view;
          // The signed quote: its lines, its total (the oracle's) and the client's acceptance stand.
          expect(d.lines).toEqual(signed.lines);
          expect(documentTotals(d.lines, rounding).totalCents).toBe(oracleTotals(lines, rounding).total);
          expect(d.clientAcceptance).toEqual(signed.clientAcceptance);
          expect(d.status).toBe('accepted');
          // Only the signed lines and approved variations' lines were ever invoiced.
          const of = quoteLines(d).variationOf;
          for (const s of d.stages) for (const l of s.lines) expect(of[l.lineIndex] === null || of[l.lineIndex]!.status === 'approved').toBe(true);
          // What can be invoiced is the oracle's: the quote plus the approved variations, each on its own.
          const expected = oracleContractSum({ lines, rounding }, d.variations.map((v, i) => ({ lines: proposed[i]!, approved: v.status === 'approved' })));
          expect(stageSummaryOn(quoteStageBasis(d), d.stages).quotedCents).toBe(expected);
          expect(agreedFigures(d).agreedCents).toBe(expected);
        }
        // The final invoice takes what is left: the stage invoices, totalled by the oracle from their
        // own lines, add up to the quote and the approved variations to the cent.
        q.apply(stage('final', { kind: 'final' }));
        const d = q.view;
        const labelled = quoteLines(d).labelled;
        const invoiced = d.stages.reduce(
          (a, s) => a + oracleTotals(stageInvoiceLines(labelled, s).map((l) => ({ qty: l.qty, unitPrice: l.unit_price, inclusive: l.tax_included, rate: l.tax_rate as '0.15' | '0' })), rounding).total,
          0n,
        );
        const expected = oracleContractSum({ lines, rounding }, d.variations.map((v, i) => ({ lines: proposed[i]!, approved: v.status === 'approved' })));
        expect(invoiced).toBe(expected);
        // No line past its value, none below nothing.
        const basis = quoteStageBasis(d);
        stageLedger(basis.lines.length, d.stages).forEach((l, i) => expect(l.invoicedCents >= 0n && l.invoicedCents <= basis.values[i]!).toBe(true));
      }),
      { numRuns: 250 },
    );
  });
});
