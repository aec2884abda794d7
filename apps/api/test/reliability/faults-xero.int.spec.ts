// Fault: Xero hangs. 429s, 5xx and lost answers are covered where the sync is tested
// (integrations/xero/sync.int.spec.ts and adapter.spec.ts); this is the case they leave out — Xero
// accepting the request and never answering (the fake holds it). The adapter's timeout is set to
// 300 ms here (30 s in production); its waits between attempts are recorded, not slept.
//
// A sync must then give up after a bounded number of attempts, answer 503 with a detail a person
// can act on, and never leave two invoices in Xero — neither when the held requests are finally
// processed (the attempts share one Idempotency-Key), nor when the tradie syncs again (the sync
// first looks for the invoice by its reference).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XERO_DEFAULTS } from '../../src/integrations/xero/index.ts';
import { connectedUser, makeDocument, startXeroApp, until, type User, xeroCalls, type XeroTestApp } from '../integrations/xero/support.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { timeoutMs: 300 } });
});
afterAll(() => x?.close());

const sync = (user: User, id: string) => x.t.post(`/integrations/xero/sync/${id}`, undefined, user.token);
const invoicesWithReference = (reference: string) => x.fake.state.invoices.filter((i) => i.Reference === reference);
const putsFor = (reference: string) => xeroCalls(x.fake, 'PUT', 'Invoices').filter((p) => p.body.includes(reference));

/** A connected user's new invoice, synced while Xero holds every `held` request unanswered; the hold ends once the sync has answered. */
async function syncWhileHeld(held: string) {
  const user = await connectedUser(x);
  const doc = await makeDocument(x.t, user);
  const release = x.fake.hold(held);
  try {
    return { user, doc, lost: await sync(user, doc.id) };
  } finally {
    release();
  }
}

describe('Xero accepting requests and never answering', () => {
  it('a create that hangs: bounded attempts with one key, then 503; when Xero wakes up there is one invoice, and a second sync finds it', async () => {
    const { user, doc, lost } = await syncWhileHeld('PUT /Invoices');
    expect(lost.status).toBe(503);
    expect(lost.json.detail).toBe('Xero could not be reached. Please try again.');
    expect(lost.headers.get('retry-after')).toBe('30');
    // The first attempt and maxRetries more, all with the same Idempotency-Key.
    const puts = putsFor(doc.reference);
    expect(puts).toHaveLength(XERO_DEFAULTS.maxRetries + 1);
    expect(new Set(puts.map((p) => p.headers['idempotency-key'])).size).toBe(1);

    // Released, Xero processes every held attempt: the first creates, the others replay its answer.
    await until(() => putsFor(doc.reference).every((p) => p.status !== null));
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);

    const again = await sync(user, doc.id);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ already_synced: false, xero_invoice_id: invoicesWithReference(doc.reference)[0]?.InvoiceID });
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
    expect(putsFor(doc.reference)).toHaveLength(XERO_DEFAULTS.maxRetries + 1);
  });

  it('a lookup that hangs: bounded attempts, 503, nothing created; the next sync goes through once', async () => {
    const { user, doc, lost } = await syncWhileHeld('GET /Invoices');
    expect(lost.status).toBe(503);
    expect(putsFor(doc.reference)).toHaveLength(0);
    expect(invoicesWithReference(doc.reference)).toHaveLength(0);
    const r = await sync(user, doc.id);
    expect(r.status).toBe(200);
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
  });

  it('Xero hanging for one attempt only: the retry goes through and one invoice is made', async () => {
    const user = await connectedUser(x);
    const doc = await makeDocument(x.t, user);
    const release = x.fake.hold('PUT /Invoices');
    const pending = sync(user, doc.id);
    // Let the first attempt time out, then stop holding: the retry is answered.
    await until(() => putsFor(doc.reference).length >= 2);
    release();
    const r = await pending;
    expect(r.status).toBe(200);
    await until(() => putsFor(doc.reference).every((p) => p.status !== null));
    expect(invoicesWithReference(doc.reference)).toHaveLength(1);
    expect(r.json.xero_invoice_id).toBe(invoicesWithReference(doc.reference)[0]?.InvoiceID);
  });
});
