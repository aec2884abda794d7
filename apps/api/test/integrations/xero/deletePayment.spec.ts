// The adapter's deletePayment (added for payments removed here after they were pushed), against
// the fake Xero: the invoice owes again, and a repeat after a lost answer succeeds.
import { afterEach, describe, expect, it } from 'vitest';
import { contactFromClient } from '../../../src/integrations/xero/index.ts';
import { client, invoiceView } from './documents.ts';
import { type Harness, startHarness } from './harness.ts';

const started: Harness[] = [];
afterEach(async () => {
  for (const h of started.splice(0)) await h.fake.stop();
});

async function paidInFull() {
  const h = await startHarness();
  started.push(h);
  const { conn } = await h.connect();
  const { contactId } = await h.xero.findOrCreateContact(conn, contactFromClient(client));
  const inv = await h.xero.createInvoice(conn, { document: invoiceView(), contactId, gstRegistered: true }, 'k');
  const pay = await h.xero.createPayment(conn, { invoiceId: inv.invoiceId, amount: '465.75', date: '2026-05-06', reference: 'Bank transfer', accountCode: '090' }, 'pay-1');
  return { h, conn, inv, pay };
}

describe('deletePayment', () => {
  it('deletes the payment: the paid invoice owes again and can then be voided', async () => {
    const { h, conn, inv, pay } = await paidInFull();
    expect(pay.invoiceStatus).toBe('PAID');
    const r = await h.xero.deletePayment(conn, pay.paymentId);
    expect(r).toEqual({ paymentId: pay.paymentId, invoiceStatus: 'AUTHORISED' });
    expect(h.fake.state.payments[0]?.Status).toBe('DELETED');
    const posted = h.fake.state.requests.find((q) => q.method === 'POST' && q.url.endsWith(`/Payments/${pay.paymentId}`));
    expect(JSON.parse(posted?.body ?? '{}')).toEqual({ Status: 'DELETED' });
    expect(await h.xero.updateInvoiceStatus(conn, inv.invoiceId, 'VOIDED')).toMatchObject({ status: 'VOIDED' });
  });

  it('a lost answer: the repeat finds the payment already deleted and succeeds', async () => {
    const { h, conn, pay } = await paidInFull();
    h.fake.dropNextResponse(`POST /Payments/${pay.paymentId}`);
    await expect(h.xero.deletePayment(conn, pay.paymentId)).resolves.toMatchObject({ paymentId: pay.paymentId });
    expect(h.fake.state.payments.map((p) => p.Status)).toEqual(['DELETED']);
    expect(h.fake.state.invoices[0]?.paidCents).toBe(0n);
  });

  it('an unknown payment is not_found', async () => {
    const { h, conn } = await paidInFull();
    await expect(h.xero.deletePayment(conn, '00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
