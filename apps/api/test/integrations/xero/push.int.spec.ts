// Keeping a synced invoice true in Xero: payments pushed once each, sent → SentToContact, void →
// VOIDED (removed payments first), through pushDocumentChangesToXero (what the documents
// feature calls after its commands) and POST /integrations/xero/push/{id}.
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushDocumentChangesToXero } from '../../../src/integrations/xero/sync.ts';
import { outboxProcessor } from '../../../src/reactions/outbox.ts';
import { REACTIONS } from '../../../src/reactions/registry.ts';
import { useTestApp } from '../../support/testApp.ts';
import { command, connectedUser, makeDocument, payCmd, sendCmd, signUp, startXeroApp, type User, voidCmd, xeroCalls, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { paymentsAccountCode: '090' } });
});
afterAll(() => x?.close());
/** A server without Xero. */
const bare = useTestApp();

const sync = (user: User, id: string) => x.t.post(`/integrations/xero/sync/${id}`, undefined, user.token);
const push = (user: User, id: string) => x.t.post(`/integrations/xero/push/${id}`, undefined, user.token);
const xeroInvoice = (reference: string) => {
  const inv = x.fake.state.invoices.find((i) => i.Reference === reference);
  if (!inv) throw new Error(`no Xero invoice ${reference}`);
  return inv;
};
const paymentsOf = (invoiceId: string) => x.fake.state.payments.filter((p) => p.InvoiceID === invoiceId);
const paymentPuts = (invoiceId: string) => xeroCalls(x.fake, 'PUT', 'Payments').filter((r) => r.body.includes(invoiceId));

/** A connected user's invoice (made with `opts`), synced to Xero, and the invoice there. */
async function syncedInvoice(opts?: Parameters<typeof makeDocument>[2]) {
  const user = await connectedUser(x);
  const doc = await makeDocument(x.t, user, opts);
  await sync(user, doc.id);
  return { user, doc, inv: xeroInvoice(doc.reference) };
}

describe('payments', () => {
  it('syncing an invoice already part-paid pushes its payment, with a key per payment', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user, { then: [sendCmd, payCmd('pay-a', '100.00')] });
    const r = await sync(user, doc.id);
    expect(r.status).toBe(200);
    expect(r.json.warning).toBeUndefined();
    const inv = xeroInvoice(doc.reference);
    expect(paymentsOf(inv.InvoiceID).map((p) => [p.amountCents, p.AccountCode, p.Date, p.Reference])).toEqual([[10000n, '090', '2026-05-06', 'Bank transfer']]);
    expect(paymentPuts(inv.InvoiceID)[0]?.headers['idempotency-key']).toBe(`pay-${user.userId}-${doc.id}-pay-a`);
    expect(inv.Status).toBe('AUTHORISED');
  });

  it('each payment recorded here is pushed once; pushing again sends nothing; paid in full, Xero shows PAID', async () => {
    const { user, doc, inv } = await syncedInvoice({ then: [sendCmd] });

    await command(x.t, user, doc.id, payCmd('p1', '200.00'));
    const first = await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id);
    expect(first).toMatchObject({ outcome: 'pushed', xero_invoice_id: inv.InvoiceID, pushed: [{ type: 'payment', payment_id: 'p1' }] });

    await command(x.t, user, doc.id, payCmd('p2', '265.75', '2026-05-20'));
    const second = await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id);
    expect(second).toMatchObject({ outcome: 'pushed', pushed: [{ type: 'payment', payment_id: 'p2' }] });
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toEqual({ outcome: 'pushed', xero_invoice_id: inv.InvoiceID, pushed: [] });
    const viaRoute = await push(user, doc.id);
    expect(viaRoute.status).toBe(200);
    expect(viaRoute.json).toEqual({ xero_invoice_id: inv.InvoiceID, pushed: [] });

    expect(paymentsOf(inv.InvoiceID).map((p) => p.amountCents)).toEqual([20000n, 26575n]);
    expect(paymentPuts(inv.InvoiceID)).toHaveLength(2);
    expect(inv.Status).toBe('PAID');
  });

  it('a lost answer on a payment is retried with the same key: one payment in Xero', async () => {
    const { user, doc, inv } = await syncedInvoice();
    await command(x.t, user, doc.id, payCmd('p1', '50.00'));
    x.fake.dropNextResponse('PUT /Payments');
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed' });
    const puts = paymentPuts(inv.InvoiceID);
    expect(puts).toHaveLength(2);
    expect(new Set(puts.map((p) => p.headers['idempotency-key'])).size).toBe(1);
    expect(paymentsOf(inv.InvoiceID)).toHaveLength(1);
  });

  it('Xero down: the push reports the failure without throwing, remembers it, and POST /push catches up later', async () => {
    const { user, doc, inv } = await syncedInvoice();
    await command(x.t, user, doc.id, payCmd('p1', '80.00'));
    for (let i = 0; i < 4; i++) x.fake.failNext('PUT /Payments', 503);
    const failed = await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id);
    expect(failed).toEqual({ outcome: 'failed', status: 503, detail: 'Xero is not available right now. Please try again.', worthRetrying: true });
    const [row] = await x.t.deps.store.db.query<{ last_push_error: string | null }>('SELECT last_push_error FROM xero_sync WHERE account_id = $1 AND document_id = $2', [user.userId, doc.id]);
    expect(row?.last_push_error).toBe('Xero is not available right now. Please try again.');
    expect(paymentsOf(inv.InvoiceID)).toHaveLength(0);

    const retry = await push(user, doc.id);
    expect(retry.status).toBe(200);
    expect(retry.json.pushed).toMatchObject([{ type: 'payment', payment_id: 'p1' }]);
    expect(paymentsOf(inv.InvoiceID)).toHaveLength(1);
    const [after] = await x.t.deps.store.db.query<{ last_push_error: string | null }>('SELECT last_push_error FROM xero_sync WHERE account_id = $1 AND document_id = $2', [user.userId, doc.id]);
    expect(after?.last_push_error).toBeNull();
  });
});

describe('status', () => {
  it('sent after syncing: SentToContact is set in Xero, once', async () => {
    const { user, doc, inv } = await syncedInvoice();
    expect(inv.SentToContact).toBe(false);
    await command(x.t, user, doc.id, sendCmd);
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [{ type: 'sent' }] });
    expect(inv.SentToContact).toBe(true);
    const posts = xeroCalls(x.fake, 'POST', `Invoices/${inv.InvoiceID}`);
    expect(posts.map((p) => JSON.parse(p.body))).toEqual([{ Invoices: [{ InvoiceID: inv.InvoiceID, Status: 'AUTHORISED', SentToContact: true }] }]);
    await command(x.t, user, doc.id, sendCmd);
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ pushed: [] });
    expect(xeroCalls(x.fake, 'POST', `Invoices/${inv.InvoiceID}`)).toHaveLength(1);
  });

  it('paid in full before it was sent: Xero has it PAID, so the send is not pushed (nor an error)', async () => {
    const { user, doc, inv } = await syncedInvoice({ then: [payCmd('p1', '465.75')] });
    expect(inv.Status).toBe('PAID');
    await command(x.t, user, doc.id, sendCmd);
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [] });
  });

  it('voided here: VOIDED in Xero, once', async () => {
    const { user, doc, inv } = await syncedInvoice({ then: [sendCmd] });
    await command(x.t, user, doc.id, voidCmd);
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [{ type: 'voided' }] });
    expect(inv.Status).toBe('VOIDED');
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [] });
    expect(xeroCalls(x.fake, 'POST', `Invoices/${inv.InvoiceID}`)).toHaveLength(1);
    // Still synced: the badge stays and a sync answers already_synced.
    expect((await sync(user, doc.id)).json).toMatchObject({ already_synced: true, xero_invoice_id: inv.InvoiceID });
  });

  it('a payment removed here, then the invoice voided: the payment is deleted in Xero first, then the invoice voided', async () => {
    const { user, doc, inv } = await syncedInvoice({ then: [sendCmd, payCmd('p1', '100.00')] });
    const [pushedPayment] = paymentsOf(inv.InvoiceID);
    await command(x.t, user, doc.id, { type: 'RemovePayment', data: { paymentId: 'p1' } });
    await command(x.t, user, doc.id, voidCmd);
    const r = await push(user, doc.id);
    expect(r.status).toBe(200);
    expect(r.json.pushed).toEqual([{ type: 'payment_removed', payment_id: 'p1', xero_payment_id: pushedPayment?.PaymentID }, { type: 'voided' }]);
    expect(pushedPayment?.Status).toBe('DELETED');
    expect(inv.Status).toBe('VOIDED');
  });
});

describe('when there is nothing to push', () => {
  it('skips an invoice that is not synced, an account not connected, and a server without Xero', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user, { then: [payCmd('p1', '10.00')] });
    const calls = x.fake.state.requests.length;
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toEqual({ outcome: 'skipped', reason: 'not_synced' });
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, 'no-such-document')).toEqual({ outcome: 'skipped', reason: 'not_synced' });
    const r = await push(user, doc.id);
    expect(r.status).toBe(409);
    expect(r.json.detail).toBe(ACCOUNTING_MESSAGES.notSynced);
    expect(x.fake.state.requests).toHaveLength(calls);

    await sync(user, doc.id);
    await x.t.del('/integrations/xero/disconnect', user.token);
    await command(x.t, user, doc.id, payCmd('p2', '10.00'));
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toEqual({ outcome: 'skipped', reason: 'not_connected' });
    expect((await push(user, doc.id)).json.detail).toBe(ACCOUNTING_MESSAGES.notConnected);

    const other = await signUp(bare);
    const plain = await makeDocument(bare, other);
    expect(await pushDocumentChangesToXero(bare.deps, other.userId, plain.id)).toEqual({ outcome: 'skipped', reason: 'not_configured' });
  });

  it('another account cannot push this account’s invoice, even by calling the function with its own account id', async () => {
    const owner = await connectedUser(x);
    const other = await connectedUser(x);
    const doc = await makeDocument(x.t, owner);
    await sync(owner, doc.id);
    await command(x.t, owner, doc.id, payCmd('p1', '10.00'));
    expect(await pushDocumentChangesToXero(x.t.deps, other.userId, doc.id)).toEqual({ outcome: 'skipped', reason: 'not_synced' });
    expect((await push(other, doc.id)).status).toBe(404);
    expect(paymentsOf(xeroInvoice(doc.reference).InvoiceID)).toHaveLength(0);
  });
});

describe('one document at a time, across processes', () => {
  it('a claim held by another process answers 409 busy with Retry-After; a lapsed claim is taken over', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    const later = new Date(x.clock.now().getTime() + 60_000).toISOString();
    await x.t.deps.store.db.query('INSERT INTO xero_sync (account_id, document_id, claimed_by, claimed_until, created_at) VALUES ($1, $2, $3, $4, $5)', [user.userId, doc.id, 'another-process', later, x.clock.now().toISOString()]);
    const busy = await sync(user, doc.id);
    expect(busy.status).toBe(409);
    expect(busy.json.detail).toBe(ACCOUNTING_MESSAGES.busy);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(x.fake.state.invoices.filter((i) => i.Reference === doc.reference)).toHaveLength(0);
    // That process died: after its lease the claim is taken over.
    x.clock.advance(61_000);
    expect((await sync(user, doc.id)).status).toBe(200);
    const [row] = await x.t.deps.store.db.query<{ claimed_by: string | null }>('SELECT claimed_by FROM xero_sync WHERE account_id = $1 AND document_id = $2', [user.userId, doc.id]);
    expect(row?.claimed_by).toBeNull();
  });
});

describe('GET /integrations/xero/push/{id}: whether Xero has the latest changes', () => {
  const statusOf = async (user: User, id: string) => {
    const r = await x.t.get(`/integrations/xero/push/${id}`, user.token);
    expect(r.status, r.text).toBe(200);
    return r.json as { synced: boolean; last_error: string | null; retry_at: string | null };
  };

  it('a failed push is said in words with when it is tried again; a refusal has no retry; once through, nothing is said', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user, { then: [sendCmd] });
    expect(await statusOf(user, doc.id)).toEqual({ synced: false, last_error: null, retry_at: null, direction: null });
    expect((await sync(user, doc.id)).status).toBe(200);
    expect(await statusOf(user, doc.id)).toEqual({ synced: true, last_error: null, retry_at: null, direction: null });

    // Xero out of reach while a payment is recorded: the outbox tries again 30 s later. The send's
    // reaction (still waiting: the test's commands do not settle) and the payment's push once,
    // together: one push, its call tried four times.
    for (let i = 0; i < 4; i++) x.fake.failNext('PUT /Payments', 503);
    const putsBefore = xeroCalls(x.fake, 'PUT', 'Payments').length;
    expect((await x.t.post(`/invoices/${doc.id}/payments`, { amount: 50 }, user.token)).status).toBe(201);
    expect(xeroCalls(x.fake, 'PUT', 'Payments').length - putsBefore).toBe(4);
    expect(await statusOf(user, doc.id)).toEqual({
      synced: true,
      last_error: 'Xero is not available right now. Please try again.',
      retry_at: new Date(x.clock.now().getTime() + 30_000).toISOString(),
      direction: 'to_xero',
    });
    // Try again (the button): through, and nothing more to say.
    expect((await push(user, doc.id)).status).toBe(200);
    expect(await statusOf(user, doc.id)).toEqual({ synced: true, last_error: null, retry_at: null, direction: null });

    // The outbox's own retries come due and find nothing left to send.
    x.clock.advance(30_000);
    expect(await outboxProcessor(x.t.deps, REACTIONS).runDue()).toMatchObject({ failed: 0 });
    expect(await statusOf(user, doc.id)).toEqual({ synced: true, last_error: null, retry_at: null, direction: null });

    // Xero refuses the next payment (its validation): said, and no retry planned — only Try again.
    x.fake.failNext('PUT /Payments', 400, {}, { ErrorNumber: 10, Type: 'ValidationException', Message: 'A validation exception occurred', Elements: [{ ValidationErrors: [{ Message: 'The account is archived' }] }] });
    expect((await x.t.post(`/invoices/${doc.id}/payments`, { amount: 20 }, user.token)).status).toBe(201);
    const refused = await statusOf(user, doc.id);
    expect(refused.last_error).toContain('The account is archived');
    expect(refused.retry_at).toBeNull();
  });

  it("another account's invoice, or none, is 404", async () => {
    const { doc } = await syncedInvoice();
    const other = await connectedUser(x);
    expect((await x.t.get(`/integrations/xero/push/${doc.id}`, other.token)).status).toBe(404);
    expect((await x.t.get('/integrations/xero/push/no-such-invoice', other.token)).status).toBe(404);
  });
});

describe('GET /integrations/xero/push: the invoices Xero is behind on, for the home screen', () => {
  it('lists the account’s synced invoices whose last push failed, newest first, with the reason; a push that gets through takes one off', async () => {
    const user = await connectedUser(x);
    const list = async (who: User = user) => {
      const r = await x.t.get('/integrations/xero/push', who.token);
      expect(r.status, r.text).toBe(200);
      return r.json as { items: { id: string; document_id: string; reference: string; last_error: string; retry_at: string | null }[] };
    };
    const first = await makeDocument(x.t, user, { then: [sendCmd] });
    const second = await makeDocument(x.t, user, { then: [sendCmd] });
    const fine = await makeDocument(x.t, user, { then: [sendCmd] });
    for (const d of [first, second, fine]) expect((await sync(user, d.id)).status).toBe(200);
    expect(await list()).toEqual({ items: [] });

    const refuse = (message: string) =>
      x.fake.failNext('PUT /Payments', 400, {}, { ErrorNumber: 10, Type: 'ValidationException', Message: 'A validation exception occurred', Elements: [{ ValidationErrors: [{ Message: message }] }] });
    refuse('The account is archived');
    expect((await x.t.post(`/invoices/${first.id}/payments`, { amount: 10 }, user.token)).status).toBe(201);
    x.clock.advance(60_000);
    refuse('The period is locked');
    expect((await x.t.post(`/invoices/${second.id}/payments`, { amount: 10 }, user.token)).status).toBe(201);
    expect((await x.t.post(`/invoices/${fine.id}/payments`, { amount: 10 }, user.token)).status).toBe(201);

    expect(await list()).toEqual({
      items: [
        { id: second.id, document_id: second.id, reference: second.reference, last_error: expect.stringContaining('The period is locked'), retry_at: null, direction: 'to_xero' },
        { id: first.id, document_id: first.id, reference: first.reference, last_error: expect.stringContaining('The account is archived'), retry_at: null, direction: 'to_xero' },
      ],
    });
    // Nobody else's.
    expect(await list(await connectedUser(x))).toEqual({ items: [] });
    // Try again on one: through, and off the list.
    expect((await push(user, first.id)).status).toBe(200);
    expect((await list()).items.map((i) => i.id)).toEqual([second.id]);
  });
});
