// Payment claims under the Construction Contracts Act 2002: dates worked by hand on a calendar,
// what blocks service, the calculation checked against sums done apart (and decimal.js for the
// retention), the payment schedule and retention releases through the decider.
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { documentTotals } from '../gst/gst.ts';
import { CCA_FORM_1, form1PlainText } from './ccaForm1.ts';
import { type DocumentCommand, type DocumentState, type DocumentView, claimRetentionCents, documentDecider, documentFigures } from './document.ts';
import type { DocumentEvent } from './events.ts';
import type { Line } from './lineValues.ts';
import { type PaymentClaimDetails, claimDates, dueDateChosen, dueDateQuestion, invoiceClaimCalculation, siteOnOneLine, missingClaimElements, retentionCents, stageClaimCalculation } from './paymentClaims.ts';
import { type StageHistoryEntry, type StageRecord, type StageRequest, allocateStage, stageLinesOf } from './stages.ts';
import type { Variation } from './variations.ts';

/** Stages that all stand (none withdrawn), as the quote's history keeps them. */
const standing = (stages: StageRecord[]): StageHistoryEntry[] => stages.map((stage) => ({ stage, withdrawn: false, withdrawnAt: null }));

/** A variation the client approved after `afterStages` stages, its lines numbered from `firstLine`. */
const approved = (number: number, lines: Line[], firstLine: number, afterStages: number): Variation => ({
  variationId: `v${number}`, number, note: '', lines, firstLine, status: 'approved', legacy: false, proposedAt: null, sendLog: [], approvedAt: null,
  approvedAfterStages: afterStages, clientAcceptance: null, declinedAt: null, declineNote: null, declinedByClient: false, withdrawnAt: null,
});

const line = (qty: string, unit_price: string, description = 'Work'): Line => ({ description, qty, unit_price, tax_included: false, tax_rate: '0.15' });

const complete: PaymentClaimDetails = {
  contractReference: 'Q-0042 accepted 2 March 2026',
  contractDate: '2026-03-02',
  site: '12 Kahikatea Drive, Hamilton',
  work: 'Framing and roofing of the garage',
  periodFrom: '2026-11-01',
  periodTo: '2026-11-30',
  retentionPercent: '5',
  paymentDueDate: null,
  scheduleWorkingDays: null,
};
const blank: PaymentClaimDetails = { contractReference: '', contractDate: null, site: '', work: '', periodFrom: null, periodTo: null, retentionPercent: '0', paymentDueDate: null, scheduleWorkingDays: null };

const client = { id: 'c1', name: 'Jo Bloggs', email: 'jo@example.com', phone: '', address: '', is_business: 'false' as const, business_name: '', gst_number: '', nzbn: '', bank_account: '' };

/** Applies commands in turn, each event stamped with `at` (its NZ day is the day it happened). */
function play(steps: Array<[DocumentCommand, string]>, from: DocumentState = { status: 'none' }): DocumentView {
  let state = from;
  for (const [command, at] of steps) {
    const events = documentDecider.decide(command, state) as DocumentEvent[];
    for (const e of events) state = documentDecider.evolve(state, { ...e, meta: { at } });
  }
  return state as DocumentView;
}
const draft = (lines: Line[] = [line('1', '10000')]): DocumentCommand => ({
  type: 'DraftDocument',
  data: { documentId: 'inv-1', type: 'invoice', number: 1, reference: 'INV-0001', gstRounding: 'total', client: client as never, lines, issueDate: '2026-12-10', paymentTerms: '7 days', notes: '' } as never,
});
/** Sets the claim's details with the Act's default due date chosen (as if served on the invoice's date). */
const setClaim = (details: PaymentClaimDetails, dueDateChoice: 'act' | 'invoice' | null = 'act', today = '2026-12-10'): DocumentCommand => ({ type: 'SetPaymentClaim', data: { ...details, dueDateChoice, today } });
const send: DocumentCommand = { type: 'SendDocument', data: { to: ['jo@example.com'], cc: [], bcc: [], subject: 'Payment claim' } };
const refusal = (f: () => unknown): DomainError => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('the dates a claim states', () => {
  it('20 working days skip weekends and 24 December to 5 January', () => {
    // Served Thursday 10 Dec 2026. Working days: 11, 14–18, 21–23 Dec (9); 24 Dec–5 Jan are not;
    // 6–8 Jan (12), 11–15 Jan (17), 18, 19, 20 Jan (20) → Wednesday 20 January 2027.
    expect(claimDates({ servedOn: '2026-12-10', paymentDueDate: null, scheduleWorkingDays: null }, '2027-03-01')).toEqual({
      servedOn: '2026-12-10',
      served: true,
      paymentDue: '2027-01-20',
      scheduleDueBy: '2027-01-20',
    });
  });

  it('a Saturday Waitangi Day is observed on the Monday, which is not a working day', () => {
    // Served Thursday 28 Jan 2027: 29 Jan (1), 1–5 Feb (6); Sat 6 Feb is Waitangi Day, observed
    // Monday 8 Feb; 9–12 Feb (10), 15–19 (15), 22–26 (20) → Friday 26 February 2027.
    expect(claimDates({ servedOn: null, paymentDueDate: null, scheduleWorkingDays: null }, '2027-01-28')).toMatchObject({ served: false, paymentDue: '2027-02-26', scheduleDueBy: '2027-02-26' });
  });

  it("the contract's own due date and schedule time win over the Act's default", () => {
    // 10 working days from Thu 10 Dec 2026: 11, 14–18, 21–23 (9), 6 Jan (10).
    expect(claimDates({ servedOn: '2026-12-10', paymentDueDate: '2026-12-20', scheduleWorkingDays: 10 }, '2026-12-10')).toMatchObject({ paymentDue: '2026-12-20', scheduleDueBy: '2027-01-06' });
  });
});

describe('what a claim must carry before it is served', () => {
  it('lists every missing element, and nothing for a complete claim', () => {
    expect(missingClaimElements(blank, { clientName: '', totalCents: 0n }).map((m) => m.field)).toEqual(['contract_reference', 'contract_date', 'site', 'work', 'period', 'client', 'amount']);
    expect(missingClaimElements(complete, { clientName: 'Jo Bloggs', totalCents: 1n })).toEqual([]);
  });

  it('sending and marking issued are refused with the list; nothing is recorded', () => {
    const d = play([[draft(), '2026-12-09T21:00:00Z'], [setClaim({ ...blank, contractReference: 'Garage', periodFrom: '2026-11-01' }), '2026-12-09T21:00:00Z']]);
    const e = refusal(() => documentDecider.decide(send, d));
    expect(e.code).toBe('VALIDATION');
    expect(e.detail).toBe("This payment claim can't be sent yet. Add: the date of the contract; the site address; the construction work the claim is for; the period the claim relates to (from and to).");
    expect(refusal(() => documentDecider.decide({ type: 'MarkIssued' }, d)).detail).toContain('the site address');
  });

  it('service fixes the served day and, by default, the due date for payment 20 working days on', () => {
    // Sent at 09:00 NZ time on Thursday 10 December 2026 (20:00 UTC the day before).
    const d = play([[draft(), '2026-12-09T20:00:00Z'], [setClaim(complete), '2026-12-09T20:00:00Z'], [send, '2026-12-09T20:00:00Z']]);
    expect(d.paymentClaim).toMatchObject({ servedOn: '2026-12-10', form1Version: CCA_FORM_1.version });
    expect(d.dueDate).toBe('2027-01-20');
    // A second send is not a new service.
    const again = play([[send, '2027-01-05T20:00:00Z']], d);
    expect(again.paymentClaim?.servedOn).toBe('2026-12-10');
    expect(again.dueDate).toBe('2027-01-20');
  });

  it('a served claim never changes; a draft can stop being a claim', () => {
    const served = play([[draft(), '2026-12-09T20:00:00Z'], [setClaim(complete), '2026-12-09T20:00:00Z'], [{ type: 'MarkIssued' }, '2026-12-09T20:00:00Z']]);
    expect(refusal(() => documentDecider.decide(setClaim(complete), served)).code).toBe('CONFLICT');
    const cleared = play([[draft(), '2026-12-09T20:00:00Z'], [setClaim(blank), '2026-12-09T20:00:00Z'], [{ type: 'ClearPaymentClaim' }, '2026-12-09T20:00:00Z'], [send, '2026-12-09T20:00:00Z']]);
    expect(cleared.paymentClaim).toBeNull();
    expect(cleared.status).toBe('sent');
  });

  it('refuses details that cannot be right', () => {
    const d = play([[draft(), '2026-12-09T20:00:00Z']]);
    expect(refusal(() => documentDecider.decide(setClaim({ ...complete, periodFrom: '2026-12-01', periodTo: '2026-11-01' }), d)).detail).toBe('The claim period cannot end before it starts');
    expect(refusal(() => documentDecider.decide(setClaim({ ...complete, retentionPercent: '101' }), d)).detail).toContain('Retention must be a percentage');
    expect(refusal(() => documentDecider.decide(setClaim({ ...complete, contractDate: '2026-02-30' }), d)).detail).toBe('The contract date is not a valid date');
  });
});

describe('how the claimed amount was calculated', () => {
  it('three progress claims on a varied contract, worked by hand', () => {
    // Contract: framing $20,000 + GST (23,000.00) and roofing $10,000 + GST (11,500.00) = 34,500.00.
    // Claim 1: 40 % complete → 9,200.00 + 4,600.00 = 13,800.00.
    // Variation: extra window $2,000 + GST = 2,300.00 (GST on the total: values stay exact).
    // Claim 2: 70 % complete → framing 16,100.00 (prev 9,200), roofing 8,050.00 (prev 4,600),
    //   window 1,610.00 → this claim 6,900 + 3,450 + 1,610 = 11,960.00.
    // Claim 3: final → framing 6,900, roofing 3,450, window 690 = 11,040.00.
    // Retention 5 %: 690.00, 598.00, 552.00.
    const quoteLines = [line('1', '20000', 'Framing'), line('1', '10000', 'Roofing')];
    const stages: StageRecord[] = [];
    const lines = [...quoteLines];
    const stage = (id: string, request: StageRequest): void => {
      stages.push({ invoiceId: id, reference: id.toUpperCase(), kind: request.kind, lines: stageLinesOf(allocateStage(lines, 'total', stages, request)) });
    };
    stage('inv-1', { kind: 'progress', complete: '40' });
    lines.push(line('1', '2000', 'Extra window'));
    stage('inv-2', { kind: 'progress', complete: '70' });
    stage('inv-3', { kind: 'final' });
    const quote = { lines: quoteLines, gstRounding: 'total' as const, stageHistory: standing(stages), variations: [approved(1, [lines[2]!], 2, 1)] };

    // The first claim was made before the variation: the window is not part of it.
    const first = stageClaimCalculation(quote, 'inv-1', '5', null)!;
    expect(first.lines.map((l) => l.description)).toEqual(['Framing', 'Roofing']);
    expect([first.contractSumCents, first.variationsCents, first.thisClaimCents, first.retentionCents]).toEqual([3_450_000n, 0n, 1_380_000n, 69_000n]);

    const second = stageClaimCalculation(quote, 'inv-2', '5', null)!;
    expect(second.contractSumCents).toBe(3_450_000n);
    expect(second.variationsCents).toBe(230_000n);
    expect(second.lines.map((l) => [l.percentToDate, l.previousCents, l.thisClaimCents, l.toDateCents])).toEqual([
      ['70', 920_000n, 690_000n, 1_610_000n],
      ['70', 460_000n, 345_000n, 805_000n],
      ['70', 0n, 161_000n, 161_000n],
    ]);
    expect([second.previouslyClaimedCents, second.thisClaimCents, second.retentionCents, second.claimedCents]).toEqual([1_380_000n, 1_196_000n, 59_800n, 1_136_200n]);
    expect(second.earlier).toEqual([{ reference: 'INV-1', totalCents: 1_380_000n }]);

    const third = stageClaimCalculation(quote, 'inv-3', '5', null)!;
    expect(third.lines.map((l) => l.percentToDate)).toEqual(['100', '100', '100']);
    expect([third.previouslyClaimedCents, third.thisClaimCents, third.retentionCents]).toEqual([2_576_000n, 1_104_000n, 55_200n]);
    expect(third.toDateCents).toBe(3_680_000n);
    expect(stageClaimCalculation(quote, 'someone-else', '5', null)).toBeNull();
  });

  it('retention is the percent of this claim, rounded half up to the cent (decimal.js oracle)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10_000_000_000n }), fc.integer({ min: 0, max: 10_000 }), (cents, hundredths) => {
        const percent = new Decimal(hundredths).div(100).toString();
        const expected = new Decimal(cents.toString()).times(percent).div(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
        expect(retentionCents(cents, percent).toString()).toBe(expected.toFixed(0));
      }),
    );
  });

  it('whatever the stages, each claim adds up: lines to the claim, earlier claims to what was claimed before', () => {
    const pct = fc.integer({ min: 1, max: 60 }).map(String);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 10_000, max: 500_000 })), { minLength: 1, maxLength: 5 }),
        fc.array(pct, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('total' as const, 'line' as const),
        (spec, percents, rounding) => {
          const lines = spec.map(([q, c], i) => line(String(q), (c / 100).toFixed(2), `L${i}`));
          const stages: StageRecord[] = [];
          let used = 0;
          for (const p of percents) {
            if (used + Number(p) >= 100) break;
            used += Number(p);
            stages.push({ invoiceId: `i${stages.length}`, reference: `I${stages.length}`, kind: 'progress', lines: stageLinesOf(allocateStage(lines, rounding, stages, { kind: 'progress', percent: p })) });
          }
          stages.push({ invoiceId: 'fin', reference: 'FIN', kind: 'final', lines: stageLinesOf(allocateStage(lines, rounding, stages, { kind: 'final' })) });
          const quoteTotal = documentTotals(lines, rounding).totalCents;
          let before = 0n;
          for (const s of stages) {
            const calc = stageClaimCalculation({ lines, gstRounding: rounding, stageHistory: standing(stages), variations: [] }, s.invoiceId, '0', null)!;
            const sum = (f: (l: (typeof calc.lines)[number]) => bigint): bigint => calc.lines.reduce((a, l) => a + f(l), 0n);
            expect(sum((l) => l.thisClaimCents)).toBe(calc.thisClaimCents);
            expect(sum((l) => l.previousCents)).toBe(before);
            expect(calc.previouslyClaimedCents).toBe(before);
            expect(calc.contractSumCents).toBe(quoteTotal);
            before += calc.thisClaimCents;
          }
          expect(before).toBe(quoteTotal);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a served claim keeps the earlier stage it counted when that stage is withdrawn later; a claim not yet served counts what stands', () => {
    // Quote $10,000 + GST = 11,500.00. Deposit 20 % = 2,300.00 (INV-D), progress 30 % = 3,450.00
    // (INV-P), whose claim is served on 10 Dec. A variation (a gate, $1,000 + GST = 1,150.00) on
    // 11 Dec, then the deposit invoice is voided on 12 Dec (its stage withdrawn), then a progress
    // claim of 20 % (INV-Q).
    const quoteDraft: DocumentCommand = {
      type: 'DraftDocument',
      data: { documentId: 'q-1', type: 'quote', number: 1, reference: 'Q-0001', gstRounding: 'total', client: client as never, lines: [line('1', '10000', 'Fence')], issueDate: '2026-12-01', paymentTerms: '7 days', notes: '' } as never,
    };
    const stage = (invoiceId: string, request: StageRequest): DocumentCommand => ({ type: 'InvoiceStage', data: { invoiceId, reference: invoiceId.toUpperCase(), request } });
    const quote = play([
      [quoteDraft, '2026-12-01T01:00:00Z'],
      [{ type: 'AcceptQuote' }, '2026-12-02T01:00:00Z'],
      [stage('inv-d', { kind: 'deposit', percent: '20' }), '2026-12-03T01:00:00Z'],
      [stage('inv-p', { kind: 'progress', percent: '30' }), '2026-12-09T01:00:00Z'],
      [{ type: 'ProposeVariation', data: { variationId: 'gate', lines: [line('1', '1000', 'Gate')], note: '' } }, '2026-12-11T01:00:00Z'],
      [{ type: 'ApproveVariation', data: { variationId: 'gate' } }, '2026-12-11T02:00:00Z'],
      [{ type: 'WithdrawStage', data: { invoiceId: 'inv-d' } }, '2026-12-12T01:00:00Z'],
      [stage('inv-q', { kind: 'progress', percent: '20' }), '2026-12-14T01:00:00Z'],
    ]);
    expect(quote.stages.map((s) => s.invoiceId)).toEqual(['inv-p', 'inv-q']);
    expect(quote.stageHistory.map((h) => [h.stage.invoiceId, h.withdrawn, h.withdrawnAt])).toEqual([
      ['inv-d', true, '2026-12-12T01:00:00Z'],
      ['inv-p', false, null],
      ['inv-q', false, null],
    ]);
    // The gate was approved after two stages had been invoiced, the withdrawn one included.
    expect(quote.variations.map((v) => [v.firstLine, v.approvedAfterStages])).toEqual([[1, 2]]);

    // INV-P's claim, served on 10 Dec, still says what it said: the deposit claimed before, no gate.
    const p = stageClaimCalculation(quote, 'inv-p', '0', '2026-12-10T02:00:00Z')!;
    expect(p.earlier).toEqual([{ reference: 'INV-D', totalCents: 230_000n }]);
    expect([p.previouslyClaimedCents, p.thisClaimCents, p.toDateCents]).toEqual([230_000n, 345_000n, 575_000n]);
    expect(p.lines.map((l) => [l.description, l.percentToDate, l.previousCents])).toEqual([['Fence', '50', 230_000n]]);
    // Had it been served after the void (or not at all yet), the deposit would not be part of it.
    for (const servedAt of ['2026-12-12T03:00:00Z', null]) {
      const unserved = stageClaimCalculation(quote, 'inv-p', '0', servedAt)!;
      expect([unserved.previouslyClaimedCents, unserved.earlier.length]).toEqual([0n, 0]);
    }
    // INV-Q, made after the void and after the gate: INV-P before it, the gate part of it.
    const q = stageClaimCalculation(quote, 'inv-q', '0', null)!;
    expect(q.earlier.map((e) => e.reference)).toEqual(['INV-P']);
    expect(q.previouslyClaimedCents).toBe(345_000n);
    expect(q.lines.map((l) => [l.description, l.variation])).toEqual([['Fence', false], ['Gate', true]]);
    expect(q.variationsCents).toBe(115_000n);
    // The voided deposit's own claim is no longer a stage claim unless it was served before the void.
    expect(stageClaimCalculation(quote, 'inv-d', '0', null)).toBeNull();
    expect(stageClaimCalculation(quote, 'inv-d', '0', '2026-12-03T02:00:00Z')?.thisClaimCents).toBe(230_000n);
  });

  it('the time a claim is served is kept with its day', () => {
    const d = play([[draft(), '2026-12-09T20:00:00Z'], [setClaim(complete), '2026-12-09T20:00:00Z'], [send, '2026-12-09T21:30:00Z']]);
    expect([d.paymentClaim?.servedOn, d.paymentClaim?.servedAt]).toEqual(['2026-12-10', '2026-12-09T21:30:00Z']);
  });

  it('an ordinary invoice as a claim: its own lines, all claimed now', () => {
    const calc = invoiceClaimCalculation({ lines: [line('2', '150', 'Labour'), line('1', '99.99', 'Fittings')], gstRounding: 'line' }, '2.5');
    // 300 + 45 = 345.00; 99.99 + 15.00 (14.9985 → 15.00) = 114.99; total 459.99; 2.5 % = 11.49975 → 11.50.
    expect(calc.lines.map((l) => l.thisClaimCents)).toEqual([34_500n, 11_499n]);
    expect([calc.thisClaimCents, calc.retentionCents, calc.claimedCents]).toEqual([45_999n, 1_150n, 44_849n]);
  });
});

describe("the claim's due date for payment and the invoice's own", () => {
  // The invoice: 28 November 2026 (a Saturday), 14 days → due 12 December 2026. The Act's default,
  // 20 working days after service on 28 November: 30 Nov (1), 1–4 Dec (5), 7–11 (10), 14–18 (15),
  // 21–23 (18); 24 Dec–5 Jan are not working days; 6 Jan (19), 7 Jan (20) → 7 January 2027.
  const invoice: DocumentCommand = {
    type: 'DraftDocument',
    data: { documentId: 'inv-9', type: 'invoice', number: 9, reference: 'INV-0009', gstRounding: 'total', client: client as never, lines: [line('1', '1000')], issueDate: '2026-11-28', paymentTerms: '14 days', notes: '' } as never,
  };
  const question = "The Construction Contracts Act due date is 7 January 2027; the invoice's own terms say 12 December 2026 — which applies?";

  it('asks which applies before saving: a claim never moves the due date on its own', () => {
    const d = play([[invoice, '2026-11-27T20:00:00Z']]);
    expect(d.dueDate).toBe('2026-12-12');
    expect(dueDateQuestion(d.termsDueDate, '2026-11-28')).toEqual({ actDue: '2027-01-07', invoiceDue: '2026-12-12', text: question });
    const e = refusal(() => documentDecider.decide(setClaim(complete, null, '2026-11-28'), d));
    expect([e.code, e.detail]).toEqual(['VALIDATION', question]);
    // The invoice's own terms: the due date stays, and stays when the claim is served.
    const own = play([[setClaim(complete, 'invoice', '2026-11-28'), '2026-11-27T20:00:00Z'], [send, '2026-11-29T20:00:00Z']], d);
    expect([own.paymentClaim?.paymentDueDate, own.dueDate]).toEqual(['2026-12-12', '2026-12-12']);
    expect(dueDateChosen(own.paymentClaim!.paymentDueDate, own.termsDueDate)).toBe('invoice');
    // The Act's default: 20 working days after service.
    const act = play([[setClaim(complete, 'act', '2026-11-28'), '2026-11-27T20:00:00Z']], d);
    expect([act.paymentClaim?.paymentDueDate, act.dueDate]).toEqual([null, '2027-01-07']);
    expect(dueDateChosen(act.paymentClaim!.paymentDueDate, act.termsDueDate)).toBe('act');
    // A date the contract sets needs no choice; no longer a claim, the invoice's own date is back.
    const contract = play([[setClaim({ ...complete, paymentDueDate: '2026-12-20' }, null, '2026-11-28'), '2026-11-27T20:00:00Z']], d);
    expect(contract.dueDate).toBe('2026-12-20');
    expect(play([[{ type: 'ClearPaymentClaim' }, '2026-11-27T21:00:00Z']], act).dueDate).toBe('2026-12-12');
  });

  it('no question when the two are the same day', () => {
    // 20 working days after Thu 10 Dec 2026 is 20 Jan 2027 (worked above): an invoice due then.
    expect(dueDateQuestion('2027-01-20', '2026-12-10')).toBeNull();
  });
});

describe('the site address', () => {
  it("keeps its lines apart on one line: '48 Rata Road, Hillcrest, Hamilton 3216'", () => {
    expect(siteOnOneLine('48 Rata Road\nHillcrest\r\nHamilton 3216\n')).toBe('48 Rata Road, Hillcrest, Hamilton 3216');
    expect(siteOnOneLine(' 48 Rata Road,\n Hillcrest, \n\nHamilton 3216')).toBe('48 Rata Road, Hillcrest, Hamilton 3216');
    const d = play([[draft(), '2026-12-09T20:00:00Z'], [setClaim({ ...complete, site: '48 Rata Road\nHillcrest\nHamilton 3216' }), '2026-12-09T20:00:00Z']]);
    expect(d.paymentClaim?.site).toBe('48 Rata Road, Hillcrest, Hamilton 3216');
  });
});

describe('after service: the payment schedule and retention', () => {
  const served = (): DocumentView =>
    play([[draft(), '2026-12-09T20:00:00Z'], [setClaim(complete), '2026-12-09T20:00:00Z'], [send, '2026-12-09T20:00:00Z']]);

  it('records the schedule received, and refuses one that is more than claimed or less without reasons', () => {
    // $10,000 + GST = 11,500.00; retention 5 % = 575.00; claimed 10,925.00.
    const d = served();
    expect(claimRetentionCents(d as DocumentView & { paymentClaim: NonNullable<DocumentView['paymentClaim']> })).toBe(57_500n);
    expect(refusal(() => documentDecider.decide({ type: 'RecordPaymentSchedule', data: { receivedOn: '2026-12-15', scheduledAmount: '10925.01', reasons: '' } }, d)).detail).toBe('The scheduled amount cannot be more than the $10,925.00 claimed');
    expect(refusal(() => documentDecider.decide({ type: 'RecordPaymentSchedule', data: { receivedOn: '2026-12-15', scheduledAmount: '9000', reasons: ' ' } }, d)).detail).toContain('gives reasons');
    expect(refusal(() => documentDecider.decide({ type: 'RecordPaymentSchedule', data: { receivedOn: '2026-12-09', scheduledAmount: '9000', reasons: 'x' } }, d)).detail).toContain('before the claim was served');
    const after = play([[{ type: 'RecordPaymentSchedule', data: { receivedOn: '2026-12-15', scheduledAmount: '9000', reasons: 'Roof flashing not finished' } }, '2026-12-15T01:00:00Z']], d);
    expect(after.paymentClaim?.schedules.at(-1)).toMatchObject({ scheduledAmount: '9000.00', reasons: 'Roof flashing not finished' });
  });

  it('a schedule on an unserved claim is refused', () => {
    const d = play([[draft(), '2026-12-09T20:00:00Z'], [setClaim(complete), '2026-12-09T20:00:00Z']]);
    expect(refusal(() => documentDecider.decide({ type: 'RecordPaymentSchedule', data: { receivedOn: '2026-12-15', scheduledAmount: '1', reasons: 'x' } }, d)).code).toBe('CONFLICT');
  });

  it('releases at most the retention held; a repeat of the same release writes nothing', () => {
    const d = served();
    expect(refusal(() => documentDecider.decide({ type: 'ReleaseRetention', data: { releaseId: 'r1', amount: '575.01', date: '2027-06-01' } }, d)).detail).toBe('Only $575.00 of retention is held on this claim');
    const released = play([[{ type: 'ReleaseRetention', data: { releaseId: 'r1', amount: '575', date: '2027-06-01' } }, '2027-06-01T01:00:00Z']], d);
    expect(released.paymentClaim?.retentionReleases).toHaveLength(1);
    expect(documentDecider.decide({ type: 'ReleaseRetention', data: { releaseId: 'r1', amount: '575', date: '2027-06-01' } }, released)).toEqual([]);
    expect(refusal(() => documentDecider.decide({ type: 'ReleaseRetention', data: { releaseId: 'r2', amount: '1', date: '2027-06-01' } }, released)).detail).toBe('No retention is held on this claim');
    // The invoice's balance is the whole total: retention is owed, only held back.
    expect(documentFigures(released).balanceCents).toBe(1_150_000n);
  });
});

describe('the Form 1 notice', () => {
  it('outlines the response process and the consequences s 20(3) names, and is versioned with its source', () => {
    const text = form1PlainText();
    expect(CCA_FORM_1.version).toMatch(/^form1-\d{4}-\d{2}-\d{2}\/\d+$/);
    expect(CCA_FORM_1.source).toContain('Construction Contracts Regulations 2003');
    // The official text of Form 1 in force could not be obtained: the notice is an outline and says so,
    // never calling itself Form 1 or claiming to be the prescribed wording.
    expect(CCA_FORM_1.source).toMatch(/^An outline, written from the Construction Contracts Act 2002/);
    expect(text).not.toMatch(/Form 1|prescribed form/i);
    for (const phrase of ['payment schedule', '20 working days', 'scheduled amount', 'reasons for withholding payment', 'debt due', 'suspend', 'adjudication', '24 December to 5 January']) {
      expect(text).toContain(phrase);
    }
  });
});
