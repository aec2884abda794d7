// Card payments and refunds fitted to the invoice: never more recorded than was owed or paid,
// nothing twice, and the money taken always accounted for (recorded + excess = paid).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitCardPayment, fitCardRefund } from './cardPayments.ts';
import { type DocumentState, documentDecider, documentFigures, foldDocument } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { linesSchema } from './lines.ts';

const lines = linesSchema.parse([{ description: 'Labour', qty: 2, unit_price: 100 }]); // 200.00 + GST 30.00 = 230.00
const drafted = (type: 'invoice' | 'quote' = 'invoice'): DocumentEvent =>
  documentDecider.decide(
    { type: 'DraftDocument', data: { documentId: 'd1', type, number: 1, reference: type === 'invoice' ? 'INV-0001' : 'QU-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days' } },
    { status: 'none' },
  )[0]!;
const issued: DocumentEvent = { type: 'DocumentIssued', data: { documentId: 'd1' } };
const paidBank = (cents: number): DocumentEvent => ({
  type: 'PaymentRecorded', data: { documentId: 'd1', paymentId: `bank-${cents}`, amount: (cents / 100).toFixed(2), date: '2026-05-05', method: 'bank_transfer', reference: '' },
});
const card = (amountCents: bigint, paymentId = 'pi_1') => ({ paymentId, amountCents, date: '2026-05-06', reference: 'Stripe pi_1' });
/** Applies what the decider makes of a command, as the use case does. */
const apply = (events: DocumentEvent[], command: Parameters<typeof documentDecider.decide>[0] | null): DocumentEvent[] =>
  command ? [...events, ...documentDecider.decide(command, foldDocument(events))] : events;

describe('a card payment', () => {
  it('records what the invoice owed and answers the rest; the same payment again records nothing', () => {
    const events = [drafted(), issued, paidBank(20_000)]; // $30.00 still owed
    const fit = fitCardPayment(foldDocument(events), card(23_000n));
    expect(fit).toMatchObject({ recordedCents: 3_000n, excessCents: 20_000n, duplicate: false, refused: null });
    expect(fit.command).toMatchObject({ type: 'RecordPayment', data: { paymentId: 'pi_1', amount: '30.00', method: 'card' } });
    const after = apply(events, fit.command);
    expect(fitCardPayment(foldDocument(after), card(23_000n))).toEqual({ command: null, recordedCents: 0n, excessCents: 0n, duplicate: true, refused: null });
  });

  it('records nothing on a quote, a void invoice or a deleted one, and says why', () => {
    expect(fitCardPayment(foldDocument([drafted('quote'), issued]), card(100n))).toMatchObject({ command: null, excessCents: 100n, refused: 'The quote is not an invoice' });
    expect(fitCardPayment(foldDocument([drafted(), issued, { type: 'DocumentVoided', data: { documentId: 'd1', reason: 'Wrong client' } }]), card(100n)).refused).toBe('The invoice is void');
    expect(fitCardPayment({ status: 'none' } as DocumentState, card(100n)).refused).toBe('The invoice no longer exists');
  });

  it('property: recorded + excess = taken, recorded never above what was owed, and the balance after is what was owed less recorded', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23_000 }), fc.bigInt({ min: 1n, max: 50_000n }), (bankCents, takenCents) => {
        const events = bankCents > 0 ? [drafted(), issued, paidBank(bankCents)] : [drafted(), issued];
        const state = foldDocument(events);
        const owed = 23_000n - BigInt(bankCents);
        const fit = fitCardPayment(state, card(takenCents));
        expect(fit.recordedCents + fit.excessCents).toBe(takenCents);
        expect(fit.recordedCents).toBe(takenCents < owed ? takenCents : owed);
        const after = foldDocument(apply(events, fit.command));
        if (after.status === 'none') throw new Error('gone');
        expect(documentFigures(after).balanceCents).toBe(owed - fit.recordedCents);
      }),
    );
  });
});

describe('a card refund', () => {
  const paidByCard = (): DocumentEvent[] => apply([drafted(), issued], fitCardPayment(foldDocument([drafted(), issued]), card(23_000n)).command);

  it('records only what is new of the running total, never more than the payment, and each refund once', () => {
    const first = fitCardRefund(foldDocument(paidByCard()), { paymentId: 'pi_1', refundId: 're_1', refundedToDateCents: 5_000n, date: '2026-05-07' });
    expect(first.recordedCents).toBe(5_000n);
    const events = apply(paidByCard(), first.command);
    expect(fitCardRefund(foldDocument(events), { paymentId: 'pi_1', refundId: 're_1', refundedToDateCents: 5_000n, date: '2026-05-07' })).toEqual({ command: null, recordedCents: 0n });
    const second = fitCardRefund(foldDocument(events), { paymentId: 'pi_1', refundId: 're_2', refundedToDateCents: 99_999n, date: '2026-05-08' });
    expect(second.recordedCents).toBe(18_000n);
    expect(fitCardRefund(foldDocument(events), { paymentId: 'pi_unknown', refundId: 're_3', refundedToDateCents: 100n, date: '2026-05-08' }).command).toBeNull();
  });
});
