// Xero's word on money coming back: a payment entered in Xero (a bank transfer reconciled there)
// on a synced invoice is recorded here as a payment from Xero, once; it is never pushed back; one
// deleted in Xero goes from here too; and a disconnected account or another account's invoice
// gets nothing.
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { pullFromXero, pullFromXeroForReaction, pushDocumentChangesToXero } from '../../../src/integrations/xero/sync.ts';
import { command, connectedUser, makeDocument, payCmd, sendCmd, startXeroApp, type User, xeroCalls, type XeroTestApp } from './support.ts';
import { BadRequest } from '../../../src/errors.ts';
import { XERO_DEFAULTS } from '../../../src/integrations/xero/index.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { paymentsAccountCode: '090' } });
});
afterAll(() => x?.close());

const sync = (user: User, id: string) => x.t.post(`/integrations/xero/sync/${id}`, undefined, user.token);
const xeroInvoice = (reference: string) => {
  const inv = x.fake.state.invoices.find((i) => i.Reference === reference);
  if (!inv) throw new Error(`no Xero invoice ${reference}`);
  return inv;
};
const paymentPuts = (invoiceId: string) => xeroCalls(x.fake, 'PUT', 'Payments').filter((r) => r.body.includes(invoiceId));
const invoiceHere = async (user: User, id: string) => (await x.t.get(`/invoices/${id}`, user.token)).json;
const paymentsHere = async (user: User, id: string) => (await loadDocument(x.t.deps.store, user.userId, id)).state.payments;

/** A connected user's sent invoice ($465.75), synced to Xero, and the invoice there. */
async function syncedInvoice() {
  const user = await connectedUser(x);
  const doc = await makeDocument(x.t, user, { then: [sendCmd] });
  expect((await sync(user, doc.id)).status).toBe(200);
  return { user, doc, inv: xeroInvoice(doc.reference) };
}

describe('payments made in Xero come back', () => {
  it('a bank transfer reconciled in Xero is recorded here once, as a payment from Xero, and the invoice is paid', async () => {
    const { user, doc, inv } = await syncedInvoice();
    const there = x.fake.payInXero(inv.InvoiceID, { amount: '465.75', date: '2026-05-12', reference: 'ANZ 0412 SMITH' });

    expect(await pullFromXero(x.t.deps, user.userId, doc.id)).toMatchObject({ recorded: [`xero-${there.PaymentID}`], removed: [] });
    const [payment] = await paymentsHere(user, doc.id);
    expect(payment).toMatchObject({ amount: '465.75', date: '2026-05-12', method: 'bank_transfer', reference: 'ANZ 0412 SMITH', source: { provider: 'xero', externalId: there.PaymentID } });
    expect(await invoiceHere(user, doc.id)).toMatchObject({ payment_status: 'paid', balance: 0 });

    // Pulled again (a redelivery, a second process): nothing new.
    expect(await pullFromXero(x.t.deps, user.userId, doc.id)).toMatchObject({ recorded: [], removed: [] });
    expect(await paymentsHere(user, doc.id)).toHaveLength(1);
  });

  it('a payment from Xero is never pushed back, while one recorded here is pushed once and not pulled back', async () => {
    const { user, doc, inv } = await syncedInvoice();
    await command(x.t, user, doc.id, payCmd('here-1', '100.00'));
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [{ type: 'payment', payment_id: 'here-1' }] });
    x.fake.payInXero(inv.InvoiceID, { amount: '65.75', date: '2026-05-13' });

    const pulled = await pullFromXero(x.t.deps, user.userId, doc.id);
    expect(pulled.recorded).toHaveLength(1);
    expect((await paymentsHere(user, doc.id)).map((p) => [p.paymentId === 'here-1', p.amount])).toEqual([[true, '100.00'], [false, '65.75']]);
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toEqual({ outcome: 'pushed', xero_invoice_id: inv.InvoiceID, pushed: [] });
    expect(paymentPuts(inv.InvoiceID)).toHaveLength(1);
    expect(x.fake.state.payments.filter((p) => p.InvoiceID === inv.InvoiceID && p.Status !== 'DELETED').map((p) => p.amountCents)).toEqual([10000n, 6575n]);
  });

  it('a payment deleted in Xero goes from here too; the tradie cannot remove it here (it would come straight back)', async () => {
    const { user, doc, inv } = await syncedInvoice();
    const there = x.fake.payInXero(inv.InvoiceID, { amount: '200.00', date: '2026-05-12' });
    const { recorded } = await pullFromXero(x.t.deps, user.userId, doc.id);

    const refused = await x.t.del(`/invoices/${doc.id}/payments/${recorded[0]}`, user.token);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe('This payment was recorded in Xero. Delete it in Xero and it goes from here too.');
    expect(await paymentsHere(user, doc.id)).toHaveLength(1);

    x.fake.deletePaymentInXero(there.PaymentID);
    expect(await pullFromXero(x.t.deps, user.userId, doc.id)).toMatchObject({ recorded: [], removed: recorded });
    expect(await paymentsHere(user, doc.id)).toEqual([]);
    expect(await invoiceHere(user, doc.id)).toMatchObject({ balance: 465.75 });
  });

  it('a disconnected account gets nothing, and another account cannot pull this account’s invoice', async () => {
    const { user, doc, inv } = await syncedInvoice();
    const other = await connectedUser(x);
    x.fake.payInXero(inv.InvoiceID, { amount: '50.00', date: '2026-05-12' });
    const calls = x.fake.state.requests.length;

    await expect(pullFromXero(x.t.deps, other.userId, doc.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await x.t.del('/integrations/xero/disconnect', user.token);
    await expect(pullFromXero(x.t.deps, user.userId, doc.id)).rejects.toBeInstanceOf(BadRequest);
    await expect(pullFromXero(x.t.deps, user.userId, doc.id)).rejects.toMatchObject({ detail: ACCOUNTING_MESSAGES.notConnected });
    expect(x.fake.state.requests.filter((r) => r.url.includes('/api.xro/'))).toHaveLength(x.fake.state.requests.slice(0, calls).filter((r) => r.url.includes('/api.xro/')).length);
    expect(await paymentsHere(user, doc.id)).toEqual([]);
  });
});

describe('a read back from Xero that failed', () => {
  it('is said on the invoice and in the home list like a failed push; Try again reads it now and the payment made there comes back', async () => {
    const { user, doc, inv } = await syncedInvoice();
    x.fake.payInXero(inv.InvoiceID, { amount: '100.00', date: '2026-05-12', reference: 'ANZ 0412' });
    // Xero out of reach for the read: the first try and each of the adapter's retries fail.
    for (let i = 0; i <= XERO_DEFAULTS.maxRetries; i++) x.fake.failNext(`GET /Invoices/${inv.InvoiceID}`, 503);
    await expect(pullFromXeroForReaction(x.t.deps, user.userId, doc.id)).rejects.toThrow();
    const status = (await x.t.get(`/integrations/xero/push/${doc.id}`, user.token)).json;
    expect(status).toMatchObject({ synced: true, direction: 'from_xero' });
    expect(status.last_error).toBe('Xero is not available right now. Please try again.');
    const listed = (await x.t.get('/integrations/xero/push', user.token)).json.items;
    expect(listed.map((i: { id: string; direction: string }) => [i.id, i.direction])).toEqual([[doc.id, 'from_xero']]);
    expect(await paymentsHere(user, doc.id)).toHaveLength(0);

    // Try again: read now, the payment made in Xero is recorded, and nothing more is said.
    const r = await x.t.post(`/integrations/xero/pull/${doc.id}`, undefined, user.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ recorded: [expect.stringMatching(/^xero-/)], removed: [], credited: [], voided_there: null });
    expect((await x.t.get(`/integrations/xero/push/${doc.id}`, user.token)).json).toEqual({ synced: true, last_error: null, retry_at: null, direction: null });
    expect((await x.t.get('/integrations/xero/push', user.token)).json.items).toEqual([]);
    // Another account cannot read this one's invoice back.
    const other = await connectedUser(x);
    expect((await x.t.post(`/integrations/xero/pull/${doc.id}`, undefined, other.token)).status).toBe(404);
  });
});
