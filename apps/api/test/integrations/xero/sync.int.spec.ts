// Syncing invoices to Xero through POST /integrations/xero/sync/{id}, against the fake Xero:
// what is created there, idempotency (second sync, lost answers, concurrent syncs), token
// refresh (before expiry, on 401, under concurrency), 429 with Retry-After, and the errors.
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { describe, expect, it } from 'vitest';
import { readConnection, tokensOf } from '../../../src/integrations/xero/connections.ts';
import type { TestApp } from '../../support/testApp.ts';
import { connectedUser, connectXero, makeDocument, sendCmd, signUp, tokenCalls, until, type User, voidCmd, xeroAndBareApps, xeroCalls, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
let bare: TestApp;
xeroAndBareApps((apps) => ({ x, bare } = apps));

const sync = (user: User, id: string) => x.t.post(`/integrations/xero/sync/${id}`, undefined, user.token);
const invoicesWithReference = (reference: string) => x.fake.state.invoices.filter((i) => i.Reference === reference);
const refreshUses = () => x.fake.state.refreshTokenUses.length;

/** Syncing the document is refused with 422 and `detail`, and nothing is sent to Xero. */
async function expectRefusedBeforeSending(user: User, id: string, detail: string): Promise<void> {
  const calls = x.fake.state.requests.length;
  const r = await sync(user, id);
  expect(r.status).toBe(422);
  expect(r.json.detail).toBe(detail);
  expect(x.fake.state.requests).toHaveLength(calls);
}

describe('sync an invoice', () => {
  it('creates one ACCREC invoice with OUTPUT2 lines and the totals our domain computes, and records the sync', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user, { then: [sendCmd] });
    const r = await sync(user, doc.id);
    expect(r.status).toBe(200);
    const [inv] = invoicesWithReference(doc.reference);
    expect(r.json).toEqual({ already_synced: false, xero_invoice_number: doc.reference, xero_invoice_id: inv?.InvoiceID });
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
    expect(inv).toMatchObject({ Type: 'ACCREC', Status: 'AUTHORISED', InvoiceNumber: doc.reference, LineAmountTypes: 'Exclusive', SentToContact: true, Date: '2026-05-05', DueDate: '2026-05-12', CurrencyCode: 'NZD' });
    expect(inv?.LineItems.map((l) => [l.Description, l.Quantity, l.UnitAmount, l.TaxType, l.AccountCode])).toEqual([
      ['Replace hot water cylinder valve', '1', '180', 'OUTPUT2', '200'],
      ['Labour', '2.5', '90', 'OUTPUT2', '200'],
    ]);
    // $405.00 + GST $60.75 = $465.75, as the domain says.
    expect([inv?.subTotalCents, inv?.totalTaxCents, inv?.totalCents]).toEqual([40500n, 6075n, 46575n]);
    expect(x.fake.state.contacts.find((c) => c.ContactID === inv?.ContactID)).toMatchObject({ Name: 'Aroha Ngata', EmailAddress: 'aroha@example.nz' });
    const put = xeroCalls(x.fake, 'PUT', 'Invoices').find((p) => p.body.includes(doc.reference));
    expect(put?.headers['idempotency-key']).toBe(`sync-${user.userId}-${doc.id}-2`);

    // The stream records it; the list row carries extra_data.xero_invoice_id (the badge).
    const events = (await x.t.deps.store.readStream(`document-${doc.id}`)).events;
    expect(events.at(-2)).toMatchObject({ type: 'SyncedToAccounting', data: { documentId: doc.id, provider: 'xero', externalId: inv?.InvoiceID, externalNumber: doc.reference } });
    // And the totals Xero answered with, in the same transaction: ours.
    expect(events.at(-1)).toMatchObject({ type: 'AccountingTotalsReported', data: { documentId: doc.id, provider: 'xero', subtotal: '405.00', gst: '60.75', total: '465.75' } });
    const [row] = await x.t.deps.store.db.query<{ extra_data: Record<string, string> }>('SELECT extra_data FROM documents_list WHERE id = $1', [doc.id]);
    expect(row?.extra_data).toMatchObject({ xero_invoice_id: inv?.InvoiceID, xero_invoice_number: doc.reference });
  });

  it('a second sync answers already_synced with the number and sends nothing to Xero', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    const first = await sync(user, doc.id);
    const calls = x.fake.state.requests.length;
    const again = await sync(user, doc.id);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ already_synced: true, xero_invoice_number: doc.reference, xero_invoice_id: first.json.xero_invoice_id });
    expect(x.fake.state.requests).toHaveLength(calls);
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
    // Even disconnected: whether it is synced is ours to know.
    await x.t.del('/integrations/xero/disconnect', user.token);
    expect((await sync(user, doc.id)).json.already_synced).toBe(true);
  });

  it('a lost answer is retried with the same Idempotency-Key: one invoice in Xero', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    x.fake.dropNextResponse('PUT /Invoices');
    const r = await sync(user, doc.id);
    expect(r.status).toBe(200);
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
    const puts = xeroCalls(x.fake, 'PUT', 'Invoices').filter((p) => p.body.includes(doc.reference));
    expect(puts).toHaveLength(2);
    expect(new Set(puts.map((p) => p.headers['idempotency-key'])).size).toBe(1);
  });

  it('every answer lost: the sync fails, and the next one finds the invoice by its reference instead of making another', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    for (let i = 0; i < 4; i++) x.fake.dropNextResponse('PUT /Invoices');
    const lost = await sync(user, doc.id);
    expect(lost.status).toBe(503);
    expect(lost.headers.get('retry-after')).toBe('30');
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
    // Long after Xero's six-minute Idempotency-Key window.
    x.clock.advance(20 * 60_000);
    const r = await sync(user, doc.id);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ already_synced: false, xero_invoice_id: invoicesWithReference(doc.reference)[0]?.InvoiceID });
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
    expect(xeroCalls(x.fake, 'PUT', 'Invoices').filter((p) => p.body.includes(doc.reference))).toHaveLength(4);
  });

  it('two syncs of one invoice at once create one Xero invoice; the second answers already_synced', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    const release = x.fake.hold('PUT /Invoices');
    let answers;
    try {
      const first = sync(user, doc.id);
      await until(() => xeroCalls(x.fake, 'PUT', 'Invoices').some((p) => p.body.includes(doc.reference)));
      const second = sync(user, doc.id);
      release();
      answers = await Promise.all([first, second]);
    } finally {
      release();
    }
    const [a, b] = answers;
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.json.already_synced, b.json.already_synced]).toEqual([false, true]);
    expect(b.json.xero_invoice_id).toBe(a.json.xero_invoice_id);
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
  });

  it('not GST-registered: lines go as NONE with no tax, and a line charging GST is refused before anything is sent', async () => {
    const user = await connectedUser(x, false);
    const plain = await makeDocument(x.t, user, { lines: [{ description: 'Mow lawns', qty: 2, unit_price: 45, tax_rate: 0 }] });
    expect((await sync(user, plain.id)).status).toBe(200);
    const [inv] = invoicesWithReference(plain.reference);
    expect(inv).toMatchObject({ LineAmountTypes: 'NoTax', totalTaxCents: 0n, totalCents: 9000n });
    expect(inv?.LineItems[0]?.TaxType).toBe('NONE');

    const taxed = await makeDocument(x.t, user);
    await expectRefusedBeforeSending(user, taxed.id, "'Replace hot water cylinder valve' charges GST, but the business is not GST-registered.");
  });

  it('an invoice goes to Xero under the registration it was made with, whatever the settings say now', async () => {
    // Made while not registered (no GST on its lines), synced after the business registered: NoTax.
    const user = await connectedUser(x);
    const plain = await makeDocument(x.t, user, { gstRegistered: false });
    expect((await sync(user, plain.id)).status).toBe(200);
    const [inv] = invoicesWithReference(plain.reference);
    expect(inv).toMatchObject({ LineAmountTypes: 'NoTax', totalTaxCents: 0n });
    expect(inv?.LineItems.map((l) => l.TaxType)).toEqual(['NONE', 'NONE']);

    // A tax invoice of a business without a GST number in its settings now: its GST goes as GST.
    const later = await connectedUser(x, false);
    const taxed = await makeDocument(x.t, later, { gstRegistered: true });
    expect((await sync(later, taxed.id)).status).toBe(200);
    const [tax] = invoicesWithReference(taxed.reference);
    expect(tax?.LineItems.map((l) => l.TaxType)).toEqual(['OUTPUT2', 'OUTPUT2']);
    expect(tax?.totalTaxCents).toBeGreaterThan(0n);
  });

  it('prices mixing GST-inclusive and exclusive: 422 with the mapping’s detail, nothing sent', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user, {
      lines: [
        { description: 'Parts', qty: 1, unit_price: 115, tax_included: true },
        { description: 'Labour', qty: 1, unit_price: 100 },
      ],
    });
    await expectRefusedBeforeSending(user, doc.id, 'This invoice mixes prices that include GST with prices that exclude it. Xero needs one or the other on an invoice.');
  });

  it('GST-inclusive prices go as Inclusive, with the tax Xero works out from them', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user, { lines: [{ description: 'Heat pump service', qty: 1, unit_price: 230, tax_included: true }] });
    expect((await sync(user, doc.id)).status).toBe(200);
    expect(invoicesWithReference(doc.reference)[0]).toMatchObject({ LineAmountTypes: 'Inclusive', subTotalCents: 20000n, totalTaxCents: 3000n, totalCents: 23000n });
  });
});

describe('what can and cannot be synced', () => {
  it('not connected: 400 "Please connect Xero in Settings first"', async () => {
    const user = await signUp(x.t);
    const doc = await makeDocument(x.t, user);
    const r = await sync(user, doc.id);
    expect(r.status).toBe(400);
    expect(r.json.detail).toBe('Please connect Xero in Settings first');
  });

  it('Xero not configured on the server: 400 that says so', async () => {
    const user = await signUp(bare);
    const doc = await makeDocument(bare, user);
    const r = await bare.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token);
    expect(r.status).toBe(400);
    expect(r.json.detail).toBe(ACCOUNTING_MESSAGES.notConfigured);
  });

  it('a quote is refused (409), a void invoice too, and an invoice without a client is 422', async () => {
    const user = await connectedUser(x);
    const quote = await makeDocument(x.t, user, { type: 'quote' });
    const q = await sync(user, quote.id);
    expect(q.status).toBe(409);
    expect(q.json.detail).toBe(ACCOUNTING_MESSAGES.onlyInvoices);
    const voided = await makeDocument(x.t, user, { then: [sendCmd, voidCmd] });
    const v = await sync(user, voided.id);
    expect(v.status).toBe(409);
    expect(v.json.detail).toBe(ACCOUNTING_MESSAGES.voidInvoice);
    const noClient = await makeDocument(x.t, user, { client: null });
    expect((await sync(user, noClient.id)).status).toBe(422);
    expect(invoicesWithReference(quote.reference).length + invoicesWithReference(voided.reference).length + invoicesWithReference(noClient.reference).length).toBe(0);
  });

  it("another account's invoice is 404, as is one that doesn't exist", async () => {
    const owner = await connectedUser(x);
    const other = await connectedUser(x);
    const doc = await makeDocument(x.t, owner);
    expect((await sync(other, doc.id)).status).toBe(404);
    expect((await x.t.post(`/integrations/xero/push/${doc.id}`, undefined, other.token)).status).toBe(404);
    expect((await sync(other, 'no-such-document')).status).toBe(404);
    expect(invoicesWithReference(doc.reference)).toHaveLength(0);
    // The owner's sync is unaffected, and goes with the owner's own Xero token.
    expect((await sync(owner, doc.id)).status).toBe(200);
    const ownerConn = await readConnection(x.t.deps.store.db, owner.userId);
    const ownerToken = ownerConn ? tokensOf(x.t.deps.secrets.encryptionKey, ownerConn).accessToken : '';
    expect(xeroCalls(x.fake, 'PUT', 'Invoices').find((p) => p.body.includes(doc.reference))?.headers.authorization).toBe(`Bearer ${ownerToken}`);
  });
});

describe('access tokens (they live 30 minutes)', () => {
  it('refreshes shortly before expiry, once, and stores the new pair sealed', async () => {
    const user = await connectedUser(x);
    const before = await readConnection(x.t.deps.store.db, user.userId);
    const uses = refreshUses();
    // 10 minutes in: still good, nothing refreshed.
    x.clock.advance(10 * 60_000);
    expect((await sync(user, (await makeDocument(x.t, user)).id)).status).toBe(200);
    expect(refreshUses()).toBe(uses);
    // 26 minutes in: within five minutes of expiry, refreshed first.
    x.clock.advance(16 * 60_000);
    expect((await sync(user, (await makeDocument(x.t, user)).id)).status).toBe(200);
    expect(x.fake.state.refreshTokenUses.slice(uses).map((u) => u.outcome)).toEqual(['rotated']);
    const after = await readConnection(x.t.deps.store.db, user.userId);
    if (!before || !after) throw new Error('not connected');
    const key = x.t.deps.secrets.encryptionKey;
    const issued = x.fake.state.tokensIssued.at(-1);
    expect(tokensOf(key, after)).toMatchObject({ accessToken: issued?.accessToken, refreshToken: issued?.refreshToken });
    expect(tokensOf(key, after).refreshToken).not.toBe(tokensOf(key, before).refreshToken);
    expect(new Date(after.expires_at).getTime()).toBe(x.clock.now().getTime() + 1800_000);
    // And the new token is used from then on without another refresh.
    expect((await sync(user, (await makeDocument(x.t, user)).id)).status).toBe(200);
    expect(refreshUses()).toBe(uses + 1);
  });

  it('a 401 from Xero refreshes once and retries once', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    const uses = refreshUses();
    x.fake.expireAccessTokens();
    const r = await sync(user, doc.id);
    expect(r.status).toBe(200);
    expect(x.fake.state.refreshTokenUses.slice(uses).map((u) => u.outcome)).toEqual(['rotated']);
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
  });

  it('two syncs at once after expiry: one refresh at Xero, both go through', async () => {
    const user = await connectedUser(x);
    const a = await makeDocument(x.t, user);
    const b = await makeDocument(x.t, user);
    x.clock.advance(31 * 60_000);
    const refreshes = tokenCalls(x.fake, 'refresh_token').length;
    const release = x.fake.hold('/connect/token');
    let answers;
    try {
      const syncs = [sync(user, a.id), sync(user, b.id)];
      await until(() => tokenCalls(x.fake, 'refresh_token').length > refreshes);
      release();
      answers = await Promise.all(syncs);
    } finally {
      release();
    }
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(tokenCalls(x.fake, 'refresh_token')).toHaveLength(refreshes + 1);
    expect(x.fake.state.refreshTokenUses.filter((u) => u.outcome !== 'rotated')).toEqual([]);
  });

  it('Xero refusing the refresh token: 400 asking to connect again, and status shows it', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    x.clock.advance(31 * 60_000);
    x.fake.failNext('/connect/token', 400, {}, { error: 'invalid_grant' });
    const r = await sync(user, doc.id);
    expect(r.status).toBe(400);
    expect(r.json.detail).toBe(ACCOUNTING_MESSAGES.reconnect);
    expect((await x.t.get('/integrations/xero/status', user.token)).json).toMatchObject({ connected: false, tenant_id: null, needs_reauth: true });
    expect((await sync(user, doc.id)).json.detail).toBe(ACCOUNTING_MESSAGES.reconnect);
    // Connecting again clears it.
    await connectXero(x, user);
    expect((await sync(user, doc.id)).status).toBe(200);
  });
});

describe('organisation access lost', () => {
  it('a 403 from Xero (organisation disconnected): 400 asking to connect again, and status shows it', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    x.fake.failNext('GET /Contacts', 403, {}, { Title: 'Forbidden', Status: 403, Detail: 'AuthenticationUnsuccessful' });
    const r = await sync(user, doc.id);
    expect(r.status).toBe(400);
    expect(r.json.detail).toBe(ACCOUNTING_MESSAGES.reconnect);
    expect((await x.t.get('/integrations/xero/status', user.token)).json).toMatchObject({ connected: false, needs_reauth: true });
    expect(invoicesWithReference(doc.reference)).toHaveLength(0);
  });
});

describe('rate limits', () => {
  it('429 with Retry-After: the adapter waits what Xero asked, then the sync goes through', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    const waited = x.sleeps.length;
    x.fake.failNext('PUT /Invoices', 429, { 'Retry-After': '7' });
    const r = await sync(user, doc.id);
    expect(r.status).toBe(200);
    expect(x.sleeps.slice(waited)).toEqual([7000]);
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
  });

  it('still limited after the bounded retries: 429 with Retry-After passed on, nothing created', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    const waited = x.sleeps.length;
    for (let i = 0; i < 4; i++) x.fake.failNext('GET /Contacts', 429, { 'Retry-After': '5' });
    const r = await sync(user, doc.id);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('5');
    expect(r.json.detail).toBe("Xero's minute rate limit was reached. Please try again in 5 seconds.");
    expect(x.sleeps.slice(waited)).toEqual([5000, 5000, 5000]);
    expect(invoicesWithReference(doc.reference)).toHaveLength(0);
    // The claim was released: trying again later works.
    expect((await sync(user, doc.id)).status).toBe(200);
  });

  it('a daily limit is not waited for: 429 at once with its Retry-After', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    const waited = x.sleeps.length;
    x.fake.failNext('GET /Contacts', 429, { 'Retry-After': '43200', 'X-Rate-Limit-Problem': 'day' });
    const r = await sync(user, doc.id);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('43200');
    expect(x.sleeps.slice(waited)).toEqual([]);
  });
});

describe('logs', () => {
  it('after every test above (failures included), no Xero token or code appears in what was logged', () => {
    const logged = JSON.stringify(x.logs);
    expect(x.logs.length).toBeGreaterThan(0);
    expect(x.logs.some((l) => l.message === 'xero call failed')).toBe(true);
    const secrets = x.fake.state.tokensIssued.flatMap((t) => [t.accessToken.split('.')[2] ?? t.accessToken, t.refreshToken ?? '']).filter((v) => v !== '');
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(logged).not.toContain(secret);
  });
});
