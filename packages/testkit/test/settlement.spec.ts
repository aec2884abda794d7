// Credit notes and refunds on both GST bases, against the independent oracle: random invoice lives
// (payments, removals, card refunds, credit notes of an amount or of whole lines, money paid back
// on them) made through the domain's decider, whose credit notes and payments-basis rows must be
// the oracle's to the cent — and once nothing is owed either way, the invoice basis and the
// payments basis give the same lifetime GST.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DomainError, checkRange, documentDecider, documentFigures, foldDocument, gstReport, reportRowsFromEvents, reportRowsOf, toCents,
  type DocumentCommand, type DocumentState, type DocumentView, type EvolvableDocumentEvent, type LoggedEvent,
} from '@tradie/domain';
import { addDays, oracleDocumentArb } from '../src/oracle/arbitraries.ts';
import { oracleTotals, type OracleLine, type OracleRounding } from '../src/oracle/oracle.ts';
import { oracleInvoiceLife, type LifeStep } from '../src/oracle/settlement.ts';
import { toDomainLine } from '../src/oracle/toEvents.ts';

const ISSUED = '2026-05-04';
const money = (c: bigint): string => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
const atNoonNz = (date: string): string => `${date}T00:00:00.000Z`;

/** The invoice folded from its events, each at its time (the day of a removal is the day it was made). */
function stateOf(events: readonly LoggedEvent[]): DocumentState {
  return foldDocument(events.map((e) => ({ type: e.type, data: e.data, meta: { at: e.meta?.at } }) as EvolvableDocumentEvent));
}
const viewOf = (events: readonly LoggedEvent[]): DocumentView => stateOf(events) as DocumentView;

/** The invoice's events: drafted and issued on ISSUED, then each step decided by the domain (a refusal fails the test). */
function lifeEvents(lines: readonly OracleLine[], rounding: OracleRounding, steps: readonly LifeStep[]): LoggedEvent[] {
  const logged: LoggedEvent[] = [];
  const decide = (command: DocumentCommand, date: string): void => {
    for (const e of documentDecider.decide(command, stateOf(logged))) {
      logged.push({ stream: 'document-inv-1', type: e.type, version: 1, data: e.data, meta: { accountId: 'acct', at: atNoonNz(date) } });
    }
  };
  decide({ type: 'DraftDocument', data: { documentId: 'inv-1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines: lines.map(toDomainLine), gstRounding: rounding, issueDate: ISSUED, paymentTerms: '7 days' } }, ISSUED);
  decide({ type: 'MarkIssued' }, ISSUED);
  let n = 0;
  for (const s of steps) {
    const credit = (request: { kind: 'amount'; amount: string } | { kind: 'lines'; lines: { lineIndex: number }[] }): DocumentCommand => ({
      type: 'IssueCreditNote',
      data: { creditNoteId: s.id, number: ++n, reference: `CN-${n}`, date: s.date, reason: 'Job changed', supplier: { name: 'Kauri Plumbing', gstNumber: '49-091-850' }, credit: request },
    });
    const command: DocumentCommand =
      s.kind === 'pay' ? { type: 'RecordPayment', data: { paymentId: s.id, amount: money(s.cents), date: s.date, method: 'bank_transfer', reference: '' } }
      : s.kind === 'remove' ? { type: 'RemovePayment', data: { paymentId: s.id } }
      : s.kind === 'refundPayment' ? { type: 'RecordRefund', data: { paymentId: s.paymentId, refundId: s.id, amount: money(s.cents), date: s.date } }
      : s.kind === 'credit' ? credit({ kind: 'amount', amount: money(s.cents) })
      : s.kind === 'creditLines' ? credit({ kind: 'lines', lines: s.lines.map((lineIndex) => ({ lineIndex })) })
      : { type: 'RecordCreditNoteRefund', data: { creditNoteId: s.creditId, refundId: s.id, amount: money(s.cents), date: s.date, method: 'bank_transfer', reference: '' } };
    decide(command, s.date);
  }
  return logged;
}


/** What a person does, before it is made into steps the product accepts. */
const actionArb = fc.record({
  kind: fc.constantFrom('pay', 'pay', 'remove', 'refundPayment', 'credit', 'credit', 'creditLines', 'refundCredit'),
  percent: fc.integer({ min: 1, max: 100 }),
  pick: fc.nat(),
  gap: fc.integer({ min: 0, max: 40 }),
  lines: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
});

type Action = typeof actionArb extends fc.Arbitrary<infer A> ? A : never;

const part = (cents: bigint, percent: number): bigint => (cents * BigInt(percent) + 99n) / 100n;

/**
 * Steps the product accepts: never more than owed, credited or held; a credit of lines only as the
 * first credit; then, when `settle`, whatever brings the balance to nothing (paid, credited or
 * paid back). Dates move forward from the issue date.
 */
function lifeOf(lines: readonly OracleLine[], rounding: OracleRounding, actions: readonly Action[], settle: 'pay' | 'credit'): LifeStep[] {
  const T = oracleTotals(lines, rounding).total;
  const steps: LifeStep[] = [];
  const payments = new Map<string, { cents: bigint; refunded: bigint }>();
  const notes = new Map<string, { total: bigint; refunded: bigint }>();
  let held = 0n;
  let credited = 0n;
  let date = ISSUED;
  const balance = () => T - held - credited;
  const creditOf = (id: string, cents: bigint, d: string): void => {
    steps.push({ kind: 'credit', id, cents, date: d });
    notes.set(id, { total: cents, refunded: 0n });
    credited += cents;
  };
  const payBack = (id: string, d: string, most: bigint): void => {
    const open = [...notes].filter(([, n]) => n.total > n.refunded);
    if (open.length === 0 || most <= 0n) return;
    const [creditId, note] = open[0]!;
    const cents = most < note.total - note.refunded ? most : note.total - note.refunded;
    steps.push({ kind: 'refundCredit', id, creditId, cents, date: d });
    note.refunded += cents;
    held -= cents;
  };
  actions.forEach((a, k) => {
    date = addDays(date, a.gap);
    const id = `s${k}`;
    if (a.kind === 'pay' && balance() > 0n) {
      const cents = part(balance(), a.percent);
      steps.push({ kind: 'pay', id, cents, date });
      payments.set(id, { cents, refunded: 0n });
      held += cents;
    } else if (a.kind === 'remove') {
      // Never more than is held (money paid back on a credit note may have given some back).
      const live = [...payments].filter(([, p]) => p.refunded === 0n && p.cents <= held);
      if (live.length === 0) return;
      const [paymentId, p] = live[a.pick % live.length]!;
      steps.push({ kind: 'remove', id: paymentId, date });
      payments.delete(paymentId);
      held -= p.cents;
    } else if (a.kind === 'refundPayment') {
      const live = [...payments].filter(([, p]) => p.cents > p.refunded);
      if (live.length === 0 || held <= 0n) return;
      const [paymentId, p] = live[a.pick % live.length]!;
      // Never more than is held: money paid back on a credit note may have given some back already.
      const left = p.cents - p.refunded;
      const cents = part(left < held ? left : held, a.percent);
      steps.push({ kind: 'refundPayment', id, paymentId, cents, date });
      p.refunded += cents;
      held -= cents;
    } else if (a.kind === 'credit' && T - credited > 0n) {
      creditOf(id, part(T - credited, a.percent), date);
    } else if (a.kind === 'creditLines' && notes.size === 0) {
      const chosen = lines.map((l, i) => ({ l, i })).filter(({ l, i }) => a.lines[i] && !/^0(\.0*)?$/.test(l.qty)).map(({ i }) => i);
      const t = oracleTotals(chosen.map((i) => lines[i]!), rounding).total;
      if (chosen.length === 0 || t <= 0n || t > T) return;
      steps.push({ kind: 'creditLines', id, lines: chosen, date });
      notes.set(id, { total: t, refunded: 0n });
      credited += t;
    } else if (a.kind === 'refundCredit' && balance() < 0n) {
      payBack(id, date, part(-balance(), a.percent));
    }
  });
  date = addDays(date, 1);
  if (balance() > 0n) {
    if (settle === 'credit') creditOf('settle', balance(), date);
    else steps.push({ kind: 'pay', id: 'settle', cents: balance(), date });
  }
  for (let i = 0; balance() < 0n && i < 20; i++) payBack(`settle-${i}`, date, -balance());
  return steps;
}

describe('credit notes and refunds: the domain against the oracle', () => {
  it('the worked case: $115 invoice, $50 paid, $80 credited, $15 paid back — both bases $4.57', () => {
    const lines: OracleLine[] = [{ qty: '1', unitPrice: '100', inclusive: false, rate: '0.15' }];
    const steps: LifeStep[] = [
      { kind: 'pay', id: 'p1', cents: 5000n, date: '2026-05-10' },
      { kind: 'credit', id: 'cn-1', cents: 8000n, date: '2026-06-02' },
      { kind: 'refundCredit', id: 'r1', creditId: 'cn-1', cents: 1500n, date: '2026-06-05' },
    ];
    const oracle = oracleInvoiceLife(lines, 'total', steps);
    // By hand: GST 15.00 of 115.00. The $80 credit carries 80 × 15/115 = 10.4347… → 10.43; the
    // invoice basis keeps 15.00 − 10.43 = 4.57. Paid $50 carries 50 × 15/115 = 6.5217… → 6.52;
    // once $15 is paid back, the $35 held is all that is left of the $35 invoice: it carries
    // 4.57, so the refund carries 4.57 − 6.52 = −1.95.
    expect(oracle.balance).toBe(0n);
    expect(oracle.credits.map((c) => c.gst)).toEqual([1043n]);
    expect(oracle.rows.map((r) => [r.kind, r.cents, r.gst])).toEqual([['payment', 5000n, 652n], ['refund', -1500n, -195n]]);

    const events = lifeEvents(lines, 'total', steps);
    const rows = reportRowsFromEvents(events);
    expect(rows.payments.map((p) => [p.kind, p.amountCents, p.gstCents])).toEqual(oracle.rows.map((r) => [r.kind, r.cents, r.gst]));
    const range = checkRange('2026-01-01', '2027-12-31');
    expect(gstReport(rows, range, 'invoice').total_gst_collected).toBe(4.57);
    expect(gstReport(rows, range, 'payments').total_gst_collected).toBe(4.57);
  });

  it('a credit that leaves nothing owed on a part-paid invoice moves the GST of the money held (a row of no money)', () => {
    // $50 of standard-rated work and $65 of zero-rated: GST 6.52 on a total of 115.00. $50 paid
    // carries 50 × 6.52/115 = 2.8347… → 2.83 of GST and 50 × 65/115 = 28.26 of zero-rated value.
    // Crediting the zero-rated line leaves the $50 invoice of 6.52 GST, all paid: the $50 now
    // carries 6.52 and no zero-rated value, so the credit's row moves +3.69 GST and −28.26.
    const lines: OracleLine[] = [{ qty: '1', unitPrice: '50', inclusive: true, rate: '0.15' }, { qty: '1', unitPrice: '65', inclusive: true, rate: '0' }];
    const steps: LifeStep[] = [
      { kind: 'pay', id: 'p1', cents: 5000n, date: '2026-05-10' },
      { kind: 'creditLines', id: 'cn-1', lines: [1], date: '2026-06-02' },
    ];
    const oracle = oracleInvoiceLife(lines, 'total', steps);
    expect(oracle.rows.map((r) => [r.kind, r.cents, r.gst, r.zeroRated])).toEqual([['payment', 5000n, 283n, 2826n], ['credit', 0n, 369n, -2826n]]);
    const rows = reportRowsFromEvents(lifeEvents(lines, 'total', steps));
    expect(rows.payments.map((p) => [p.kind, p.amountCents, p.gstCents, p.zeroRatedCents])).toEqual(oracle.rows.map((r) => [r.kind, r.cents, r.gst, r.zeroRated]));
    const range = checkRange('2026-01-01', '2027-12-31');
    expect(gstReport(rows, range, 'payments')).toMatchObject({ total_sales: 50, total_gst_collected: 6.52, gst_return: { box6: 0 } });
    expect(gstReport(rows, range, 'invoice')).toMatchObject({ total_sales: 50, total_gst_collected: 6.52, gst_return: { box6: 0 } });
  });

  it('random lives: credit notes and payments-basis rows equal the oracle; settled, both bases give the same lifetime GST', () => {
    let settled = 0;
    fc.assert(
      fc.property(oracleDocumentArb(8), fc.array(actionArb, { maxLength: 8 }), fc.constantFrom<'pay' | 'credit'>('pay', 'credit'), ({ lines, rounding }, actions, settle) => {
        fc.pre(oracleTotals(lines, rounding).total > 0n);
        const steps = lifeOf(lines, rounding, actions, settle);
        const oracle = oracleInvoiceLife(lines, rounding, steps);
        const events = lifeEvents(lines, rounding, steps);
        const d = viewOf(events);
        expect(d.creditNotes.map((n) => ({ id: n.creditNoteId, date: n.date, subtotal: toCents(n.subtotal), gst: toCents(n.gst), total: toCents(n.total), zeroRated: toCents(n.zeroRated) })))
          .toEqual(oracle.credits);
        const { payments } = reportRowsOf(d);
        expect(payments.map((p) => ({ kind: p.kind, date: p.date, cents: p.amountCents, gst: p.gstCents, zeroRated: p.zeroRatedCents }))).toEqual(oracle.rows);
        expect(documentFigures(d).balanceCents).toBe(oracle.balance);
        if (oracle.balance !== 0n) return;
        settled += 1;
        // Nothing owed either way: the money's GST is the invoice's less its credit notes', on both bases.
        const net = oracle.totals.gst - oracle.credits.reduce((a, c) => a + c.gst, 0n);
        expect(oracle.rows.reduce((a, r) => a + r.gst, 0n)).toBe(net);
        const rows = reportRowsFromEvents(events);
        const range = checkRange('2026-01-01', '2028-12-31');
        const invoiceBasis = gstReport(rows, range, 'invoice');
        const paymentsBasis = gstReport(rows, range, 'payments');
        expect(paymentsBasis.total_gst_collected).toBe(invoiceBasis.total_gst_collected);
        expect(paymentsBasis.gst_return).toEqual(invoiceBasis.gst_return);
        expect(toCents(String(invoiceBasis.total_gst_collected))).toBe(net);
      }),
      { numRuns: 400 },
    );
    expect(settled).toBeGreaterThan(200);
  });

  it('refuses what would rewrite an earlier period: a refund before its credit note or its payment, a payment before the invoice counted', () => {
    const lines: OracleLine[] = [{ qty: '1', unitPrice: '100', inclusive: false, rate: '0.15' }];
    const events = lifeEvents(lines, 'total', [
      { kind: 'pay', id: 'p1', cents: 11500n, date: '2026-05-10' },
      { kind: 'credit', id: 'cn-1', cents: 8000n, date: '2026-06-02' },
    ]);
    const d = viewOf(events);
    const refused = (command: DocumentCommand): [string, string] | 'decided' => {
      try {
        documentDecider.decide(command, d);
      } catch (e) {
        if (e instanceof DomainError) return [e.code, e.message];
        throw e;
      }
      return 'decided';
    };
    const payBack = (date: string): DocumentCommand => ({ type: 'RecordCreditNoteRefund', data: { creditNoteId: 'cn-1', refundId: 'r1', amount: '10.00', date, method: 'bank_transfer', reference: '' } });
    expect(refused(payBack('2026-06-01'))).toEqual(['VALIDATION', "A refund can't be dated before its credit note: CN-1 is dated 2 June 2026"]);
    expect(refused(payBack('2026-06-02'))).toBe('decided');
    const cardRefund = (date: string): DocumentCommand => ({ type: 'RecordRefund', data: { paymentId: 'p1', refundId: 're_1', amount: '10.00', date } });
    expect(refused(cardRefund('2026-05-09'))).toEqual(['VALIDATION', "A refund can't be dated before the payment it gives back (10 May 2026)"]);
    expect(refused(cardRefund('2026-05-10'))).toBe('decided');
    // Issued on 4 May: a payment dated 3 May would move the invoice back a day into another period's reach.
    const issued = viewOf(lifeEvents(lines, 'total', []));
    const pay = (date: string): DocumentCommand => ({ type: 'RecordPayment', data: { paymentId: 'p9', amount: '10.00', date, method: 'cash', reference: '' } });
    expect(() => documentDecider.decide(pay('2026-05-03'), issued)).toThrow(
      "This invoice counts for GST from 4 May 2026, so a payment on it can't be dated before then: that would move the invoice into an earlier GST period. Please check the payment date.",
    );
    expect(documentDecider.decide(pay('2026-05-04'), issued)).toHaveLength(1);
  });
});
