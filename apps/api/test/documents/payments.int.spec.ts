// Payments: record (> 0, ≤ balance, whole cents), list, remove, mark paid, and a double tap with
// an Idempotency-Key recording one payment.
import { documentStreamId } from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { listCalls, type User } from './listSupport.ts';
import { eventTypes, line } from './support.ts';

const t = useTestApp();
const { make } = listCalls(t);

/** An invoice of $230.00 (200 + GST). */
const invoice = (u: User, body: Record<string, unknown> = {}) => make(u, { line_items: [line('Work', 2, 100)], ...body });

describe('POST /invoices/{id}/payments', () => {
  it('records a part payment (date defaults to NZ today), then the rest; the list shows paid and the paid date', async () => {
    const u = await signUp(t);
    const inv = await invoice(u);
    const r = await t.post(`/invoices/${inv.id}/payments`, { amount: 100.5 }, u.token);
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      id: expect.any(String), amount: 100.5, date: '2026-05-05', method: 'bank_transfer', reference: '', recorded_at: '2026-05-04T21:30:00.000Z',
      balance: 129.5, payment_status: 'partial', status: 'partial',
    });
    expect((await t.get('/invoices', u.token)).json[0]).toMatchObject({ payment_status: 'partial', balance: 129.5, paid_date: null, status: 'partial' });
    const rest = await t.post(`/invoices/${inv.id}/payments`, { amount: '129.50', date: '2026-05-07', method: 'cash', reference: 'Receipt 12' }, u.token);
    expect(rest.json).toMatchObject({ amount: 129.5, date: '2026-05-07', method: 'cash', reference: 'Receipt 12', balance: 0, payment_status: 'paid', status: 'paid' });
    expect((await t.get('/invoices', u.token)).json[0]).toMatchObject({ payment_status: 'paid', balance: 0, paid_date: '2026-05-07', status: 'paid' });
    const payments = await t.get(`/invoices/${inv.id}/payments`, u.token);
    expect(payments.json.map((p: { amount: number }) => p.amount)).toEqual([100.5, 129.5]);
    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(detail).toMatchObject({ paid: 230, balance: 0, formatted: { paid: '$230.00', balance: '$0.00' } });
    expect(detail.payments).toEqual(payments.json);
  });

  it.each([
    [{ amount: 0 }, 422, 'A payment must be more than $0.00'],
    [{ amount: -5 }, 422, 'A payment must be more than $0.00'],
    [{ amount: 10.005 }, 422, 'A payment must be in dollars and cents (at most 2 decimal places)'],
    [{ amount: '0.001' }, 422, 'A payment must be in dollars and cents (at most 2 decimal places)'],
    [{ amount: 'ten' }, 422, 'Amount must be a number'],
    [{}, 422, 'Amount must be a number'],
    [{ amount: 230.01 }, 422, 'This payment is more than the $230.00 still owing'],
    [{ amount: 10, method: 'bitcoin' }, 422, 'Method must be one of: bank_transfer, cash, card, cheque, other'],
    [{ amount: 10, date: '2026-02-30' }, 422, 'The payment date is not a valid date'],
    [{ amount: 10, date: 'today' }, 422, 'Dates are written YYYY-MM-DD'],
  ])('refuses %j with %i and writes nothing', async (body, status, detail) => {
    const u = await signUp(t);
    const inv = await invoice(u);
    const r = await t.post(`/invoices/${inv.id}/payments`, body, u.token);
    expect(r.status).toBe(status);
    expect(r.json.detail).toBe(detail);
    expect(await eventTypes(t, documentStreamId(inv.id))).toEqual(['DocumentDrafted']);
  });

  it('refuses payments on quotes, void invoices and invoices paid in full (409)', async () => {
    const u = await signUp(t);
    const quote = await invoice(u, { type: 'quote' });
    expect((await t.post(`/invoices/${quote.id}/payments`, { amount: 1 }, u.token)).json.detail).toBe("Quotes can't take payments. Convert the quote to an invoice first.");
    const voided = await invoice(u);
    await t.post(`/invoices/${voided.id}/void`, undefined, u.token);
    expect((await t.post(`/invoices/${voided.id}/payments`, { amount: 1 }, u.token)).status).toBe(409);
    const paid = await invoice(u);
    await t.post(`/invoices/${paid.id}/mark-paid`, undefined, u.token);
    const r = await t.post(`/invoices/${paid.id}/payments`, { amount: 1 }, u.token);
    expect(refusal(r)).toEqual({ status: 409, detail: 'This invoice is already paid in full' });
  });

  it('a double tap with one Idempotency-Key records one payment', async () => {
    const u = await signUp(t);
    const inv = await invoice(u);
    const headers = { 'Idempotency-Key': 'pay-1' };
    const a = await t.post(`/invoices/${inv.id}/payments`, { amount: 50 }, u.token, headers);
    const b = await t.post(`/invoices/${inv.id}/payments`, { amount: 50 }, u.token, headers);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.json).toEqual(a.json);
    expect(b.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await t.get(`/invoices/${inv.id}/payments`, u.token)).json).toHaveLength(1);
    // The same key on another invoice is another operation.
    const other = await invoice(u);
    expect((await t.post(`/invoices/${other.id}/payments`, { amount: 50 }, u.token, headers)).headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('two taps at once with one Idempotency-Key record one payment, and both answer it', async () => {
    const u = await signUp(t);
    const inv = await invoice(u);
    const headers = { 'Idempotency-Key': 'pay-together' };
    const [a, b] = await Promise.all([1, 2].map(() => t.post(`/invoices/${inv.id}/payments`, { amount: 50 }, u.token, headers)));
    expect([a!.status, b!.status]).toEqual([201, 201]);
    expect(b!.json).toEqual(a!.json);
    expect([a!.headers.get('Idempotent-Replayed'), b!.headers.get('Idempotent-Replayed')].sort()).toEqual([null, 'true']);
    expect((await t.get(`/invoices/${inv.id}/payments`, u.token)).json).toHaveLength(1);
  });

  it('a repeat of a payment that paid the invoice off replays its answer, and the key with another request is refused (422), not the refusal of an overpayment', async () => {
    const u = await signUp(t);
    const inv = await invoice(u);
    const headers = { 'Idempotency-Key': 'pay-off' };
    const first = await t.post(`/invoices/${inv.id}/payments`, { amount: 230 }, u.token, headers);
    expect(first.status).toBe(201);
    const again = await t.post(`/invoices/${inv.id}/payments`, { amount: 230 }, u.token, headers);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const other = await t.post(`/invoices/${inv.id}/payments`, { amount: 10 }, u.token, headers);
    expect(refusal(other)).toEqual({ status: 422, detail: 'This Idempotency-Key was already used for a different request.' });
    expect((await t.get(`/invoices/${inv.id}/payments`, u.token)).json).toHaveLength(1);
  });
});

describe('DELETE /invoices/{id}/payments/{paymentId}', () => {
  it('removes a payment and the balance comes back', async () => {
    const u = await signUp(t);
    const inv = await invoice(u);
    const p = (await t.post(`/invoices/${inv.id}/payments`, { amount: 30 }, u.token)).json;
    const r = await t.del(`/invoices/${inv.id}/payments/${p.id}`, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ balance: 230, payment_status: 'unpaid', payments: [] });
    const again = await t.del(`/invoices/${inv.id}/payments/${p.id}`, u.token);
    expect(refusal(again)).toEqual({ status: 404, detail: 'Payment not found' });
  });
});

describe('POST /invoices/{id}/mark-paid', () => {
  it('records the outstanding balance as one payment, with an optional date, method and reference', async () => {
    const u = await signUp(t);
    const inv = await invoice(u);
    await t.post(`/invoices/${inv.id}/payments`, { amount: 30 }, u.token);
    const r = await t.post(`/invoices/${inv.id}/mark-paid`, { date: '2026-05-06', method: 'card', reference: 'EFTPOS' }, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'paid', payment_status: 'paid', paid_date: '2026-05-06', balance: 0 });
    expect(r.json.payments.at(-1)).toMatchObject({ amount: 200, date: '2026-05-06', method: 'card', reference: 'EFTPOS' });
    const again = await t.post(`/invoices/${inv.id}/mark-paid`, undefined, u.token);
    expect(refusal(again)).toEqual({ status: 409, detail: 'This invoice is already paid' });
  });

  it('takes no body at all (the screens send none); the payment is dated NZ today', async () => {
    const u = await signUp(t);
    const inv = await invoice(u);
    const r = await t.call('POST', `/invoices/${inv.id}/mark-paid`, { token: u.token });
    expect(r.status).toBe(200);
    expect(r.json.payments).toEqual([expect.objectContaining({ amount: 230, date: '2026-05-05', method: 'bank_transfer' })]);
  });

  it('a double tap with one Idempotency-Key answers the same and pays once', async () => {
    const u = await signUp(t);
    const inv = await invoice(u);
    const headers = { 'Idempotency-Key': 'paid-tap' };
    const a = await t.post(`/invoices/${inv.id}/mark-paid`, {}, u.token, headers);
    const b = await t.post(`/invoices/${inv.id}/mark-paid`, {}, u.token, headers);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.json).toEqual(a.json);
    expect((await t.get(`/invoices/${inv.id}/payments`, u.token)).json).toHaveLength(1);
  });

  it('refuses a quote', async () => {
    const u = await signUp(t);
    const quote = await invoice(u, { type: 'quote' });
    const r = await t.post(`/invoices/${quote.id}/mark-paid`, undefined, u.token);
    expect(refusal(r)).toEqual({ status: 409, detail: "Quotes can't be marked paid. Convert the quote to an invoice first." });
  });
});
