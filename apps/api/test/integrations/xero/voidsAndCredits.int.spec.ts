// Voids and credit notes made in Xero coming back: an invoice voided in Xero shows it, gets no
// reminder by any path and leaves the Overdue card, without being voided here; a credit note
// raised and allocated in Xero becomes a credit note here with the same figures as one the tradie
// issues here for that amount, once, and is never sent back.
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { overdueInvoices, reminderTarget } from '@tradie/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { pullFromXero, pushDocumentChangesToXero } from '../../../src/integrations/xero/sync.ts';
import { connectedUser, makeDocument, sendCmd, startXeroApp, type User, xeroCalls, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { paymentsAccountCode: '090' } });
});
afterAll(() => x?.close());

const stateOf = async (user: User, id: string) => (await loadDocument(x.t.deps.store, user.userId, id)).state;

/** A connected user's sent invoice ($465.75), synced to Xero, and the invoice there. */
async function syncedInvoice() {
  const user = await connectedUser(x);
  const doc = await makeDocument(x.t, user, { then: [sendCmd] });
  expect((await x.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token)).status).toBe(200);
  return { user, doc, inv: x.fake.state.invoices.find((i) => i.Reference === doc.reference)! };
}

describe('an invoice voided in Xero', () => {
  it("is shown 'Voided in Xero', gets no reminder by any path, leaves the Overdue card, and is not voided here until the tradie says so", async () => {
    const { user, doc, inv } = await syncedInvoice();
    expect(await reminderTarget(x.t.deps.store.db, user.userId, doc.id)).not.toBeNull();
    x.fake.voidInXero(inv.InvoiceID);

    expect(await pullFromXero(x.t.deps, user.userId, doc.id)).toMatchObject({ voidedThere: 'VOIDED' });
    const state = await stateOf(user, doc.id);
    expect(state.status).not.toBe('void');
    expect(state.sync?.voidedThere).toMatchObject({ status: 'VOIDED' });
    // Read again: recorded once.
    expect(await pullFromXero(x.t.deps, user.userId, doc.id)).toMatchObject({ voidedThere: null });

    // Every reminder path: the schedule's targets, the invoice's reminder answer, a reminder sent by hand.
    expect(await reminderTarget(x.t.deps.store.db, user.userId, doc.id)).toBeNull();
    expect((await x.t.get(`/reminders/invoices/${doc.id}`, user.token)).json).toMatchObject({ automatic: { state: 'nothing_owing' } });
    expect((await x.t.post(`/reminders/invoices/${doc.id}/send-now`, {}, user.token)).status).toBe(409);
    // The list says so, and the Overdue card leaves it out even once it is past due.
    const [row] = await x.t.deps.store.db.query<{ extra_data: Record<string, string> }>('SELECT extra_data FROM documents_list WHERE id = $1', [doc.id]);
    expect(row?.extra_data).toMatchObject({ voided_in: 'xero' });
    expect((await overdueInvoices(x.t.deps.store.db, user.userId, '2027-01-01')).items.map((i) => i.documentId)).not.toContain(doc.id);

    // The tradie voids it here with one tap: nothing more is sent to Xero's copy.
    const posts = xeroCalls(x.fake, 'POST', 'Invoices').length;
    expect((await x.t.post(`/invoices/${doc.id}/void`, { reason: 'Voided in Xero' }, user.token)).status).toBe(200);
    expect((await stateOf(user, doc.id)).voidReason).toBe('Voided in Xero');
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [] });
    expect(xeroCalls(x.fake, 'POST', 'Invoices')).toHaveLength(posts);
  });
});

describe('a credit note raised and allocated in Xero', () => {
  it('becomes a credit note here with the figures of one issued here for the same amount, once, and is never sent back', async () => {
    const { user, doc, inv } = await syncedInvoice();
    const note = x.fake.creditInXero(inv.InvoiceID, { amount: '115.00', date: '2026-05-14' });

    const pulled = await pullFromXero(x.t.deps, user.userId, doc.id);
    expect(pulled.credited).toHaveLength(1);
    const [here] = (await stateOf(user, doc.id)).creditNotes;
    expect(here).toMatchObject({ date: '2026-05-14', amount: '115.00', source: { provider: 'xero', externalId: note.CreditNoteID, externalNumber: note.CreditNoteNumber } });
    expect(here?.reason).toBe(`Credited in Xero (${note.CreditNoteNumber})`);
    expect(here?.reference).toMatch(/^CN-\d{4}$/);

    // The same arithmetic as the tradie's own credit note of $115.00 on a twin invoice.
    const twin = await makeDocument(x.t, user, { then: [sendCmd] });
    const own = await x.t.post(`/invoices/${twin.id}/credit-notes`, { amount: 115, reason: 'Discount agreed' }, user.token);
    expect(own.status).toBe(201);
    const ownNote = (await stateOf(user, twin.id)).creditNotes[0];
    expect({ subtotal: here?.subtotal, gst: here?.gst, total: here?.total, zeroRated: here?.zeroRated }).toEqual({ subtotal: ownNote?.subtotal, gst: ownNote?.gst, total: ownNote?.total, zeroRated: ownNote?.zeroRated });
    expect((await x.t.get(`/invoices/${doc.id}`, user.token)).json).toMatchObject({ balance: 350.75 });

    // Read again (a redelivery, the poll): nothing new; the push sends no credit note to Xero.
    expect((await pullFromXero(x.t.deps, user.userId, doc.id)).credited).toEqual([]);
    expect((await stateOf(user, doc.id)).creditNotes).toHaveLength(1);
    const puts = xeroCalls(x.fake, 'PUT', 'CreditNotes').length;
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [] });
    expect(xeroCalls(x.fake, 'PUT', 'CreditNotes')).toHaveLength(puts);
  });
});

describe('a payment recorded here after the invoice was voided in Xero', () => {
  it('is recorded with a warning saying Xero has the invoice voided, and is not sent to Xero', async () => {
    const { user, doc, inv } = await syncedInvoice();
    x.fake.voidInXero(inv.InvoiceID);
    await pullFromXero(x.t.deps, user.userId, doc.id);
    const puts = xeroCalls(x.fake, 'PUT', 'Payments').length + xeroCalls(x.fake, 'POST', 'Payments').length;

    const paid = await x.t.post(`/invoices/${doc.id}/payments`, { amount: 100, method: 'bank_transfer' }, user.token);
    expect(paid.status).toBe(201);
    expect(paid.json).toMatchObject({ amount: 100, balance: 365.75, warning: ACCOUNTING_MESSAGES.paymentVoidedThere });
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [] });
    expect(xeroCalls(x.fake, 'PUT', 'Payments').length + xeroCalls(x.fake, 'POST', 'Payments').length).toBe(puts);
    expect(x.fake.state.payments.filter((p) => p.InvoiceID === inv.InvoiceID)).toEqual([]);

    // An invoice Xero has as it should be: no warning.
    const other = await syncedInvoice();
    const ok = await x.t.post(`/invoices/${other.doc.id}/payments`, { amount: 100, method: 'bank_transfer' }, other.user.token);
    expect(ok.status).toBe(201);
    expect(ok.json.warning).toBeUndefined();
  });
});
