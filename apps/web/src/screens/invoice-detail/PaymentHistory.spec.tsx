// @vitest-environment jsdom
// The invoice detail's payment history: a card refund stands under its payment (so the list adds up
// to Paid), a refunded payment offers no Remove (the server refuses it), and on an invoice in Xero
// the history says card refunds are not sent there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentDetail } from '@tradie/contracts';
import { createHarness, json } from '../shared/testKit.tsx';
import { PaymentHistory, REFUND_TEXT } from './PaymentHistory.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const doc = {
  id: 'd1',
  payments: [
    { id: 'p1', amount: 115, date: '2026-05-05', method: 'card', reference: '', recorded_at: null, refunds: [{ id: 're_1', amount: 46, date: '2026-06-10' }] },
    { id: 'p2', amount: 20, date: '2026-05-06', method: 'cash', reference: 'Tip jar', recorded_at: null, refunds: [] },
  ],
} as unknown as DocumentDetail;

describe('Invoice detail → Payment history', () => {
  it('shows each refund under its payment, and Remove only for a payment with none', () => {
    h.serve(() => json({}, 404));
    h.render(<PaymentHistory doc={doc} isVoid={false} show={() => {}} />);
    expect(h.text()).toContain('Refunded $46.00 on 10/06/2026');
    expect(REFUND_TEXT.refunded(46, '2026-06-10')).toBe('Refunded $46.00 on 10/06/2026');
    const removes = [...h.container.querySelectorAll('button')].map((b) => b.textContent);
    expect(removes).toEqual(['Remove payment of $20.00 on 06/05/2026']);
    expect(h.text()).not.toContain(REFUND_TEXT.notInXero);
  });

  it('on an invoice in Xero, says card refunds are not sent there', () => {
    h.serve(() => json({}, 404));
    h.render(<PaymentHistory doc={doc} isVoid={false} synced show={() => {}} />);
    expect(h.text()).toContain(REFUND_TEXT.notInXero);
    h.tearDown();
    h.setUp();
    h.render(<PaymentHistory doc={{ ...doc, payments: [doc.payments[1]!] }} isVoid={false} synced show={() => {}} />);
    expect(h.text()).not.toContain(REFUND_TEXT.notInXero);
  });
});
