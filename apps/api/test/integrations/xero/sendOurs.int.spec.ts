// An invoice edited in Xero: the pull records Xero's totals, so the difference shows on the invoice
// here; 'Send ours to Xero' puts our lines back on Xero's copy and the difference goes. Refused in
// words while Xero has money applied to its copy or has voided it, and for another account's
// invoice; nothing changes here either way (the invoice the client was given stays as issued).
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pullFromXero } from '../../../src/integrations/xero/sync.ts';
import { connectedUser, makeDocument, sendCmd, startXeroApp, type User, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { paymentsAccountCode: '090' } });
});
afterAll(() => x?.close());

const sync = (user: User, id: string) => x.t.post(`/integrations/xero/sync/${id}`, undefined, user.token);
const sendOurs = (user: User, id: string) => x.t.post(`/integrations/xero/send-ours/${id}`, undefined, user.token);
const invoiceHere = async (user: User, id: string) => (await x.t.get(`/invoices/${id}`, user.token)).json;
const xeroInvoice = (reference: string) => {
  const inv = x.fake.state.invoices.find((i) => i.Reference === reference);
  if (!inv) throw new Error(`no Xero invoice ${reference}`);
  return inv;
};

/** A connected user's sent invoice ($465.75: 180 + 2.5 × 90, GST 60.75), synced, then edited in Xero to $488.75. */
async function editedInXero() {
  const user = await connectedUser(x);
  const doc = await makeDocument(x.t, user, { then: [sendCmd] });
  expect((await sync(user, doc.id)).status).toBe(200);
  const inv = xeroInvoice(doc.reference);
  x.fake.editLinesInXero(inv.InvoiceID, [
    { description: 'Replace hot water cylinder valve', quantity: '1', unitAmount: '200' },
    { description: 'Labour', quantity: '2.5', unitAmount: '90' },
  ]);
  await pullFromXero(x.t.deps, user.userId, doc.id);
  return { user, doc, inv };
}

describe('an invoice edited in Xero', () => {
  it('shows the difference after a pull; Send ours puts our lines back on Xero and the difference goes', async () => {
    const { user, doc, inv } = await editedInXero();
    expect(inv.totalCents).toBe(48875n);
    const before = await invoiceHere(user, doc.id);
    expect(before.accounting.difference).toMatch(/\$488\.75/);
    expect(before.total).toBe(465.75);

    const r = await sendOurs(user, doc.id);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ xero_invoice_id: inv.InvoiceID, pushed: [{ type: 'lines', total: 465.75 }] });
    expect([inv.subTotalCents, inv.totalTaxCents, inv.totalCents]).toEqual([40500n, 6075n, 46575n]);
    expect(inv.LineItems.map((l) => [l.Description, l.Quantity, l.UnitAmount])).toEqual([
      ['Replace hot water cylinder valve', '1', '180'],
      ['Labour', '2.5', '90'],
    ]);
    const after = await invoiceHere(user, doc.id);
    expect(after.accounting.difference).toBeNull();
    // Ours did not change: same total, same lines, same version of what the client was given.
    expect([after.total, after.line_items.length]).toEqual([465.75, 2]);
  });

  it('is refused in words while Xero has a payment applied, and changes nothing there or here', async () => {
    const { user, doc, inv } = await editedInXero();
    x.fake.payInXero(inv.InvoiceID, { amount: '10.00', date: '2026-05-12' });
    const r = await sendOurs(user, doc.id);
    expect([r.status, r.json.detail]).toEqual([409, ACCOUNTING_MESSAGES.moneyAppliedThere]);
    expect(inv.totalCents).toBe(48875n);
    expect((await invoiceHere(user, doc.id)).accounting.difference).toMatch(/\$488\.75/);
  });

  it('is refused while Xero has the invoice voided', async () => {
    const { user, doc, inv } = await editedInXero();
    x.fake.voidInXero(inv.InvoiceID);
    const r = await sendOurs(user, doc.id);
    expect([r.status, r.json.detail]).toEqual([409, ACCOUNTING_MESSAGES.voidedThere]);
    expect(inv.Status).toBe('VOIDED');
  });

  it("another account gets 404 and Xero's copy is left alone; a quote or an invoice never synced is refused", async () => {
    const { doc, inv } = await editedInXero();
    const other = await connectedUser(x);
    const r = await sendOurs(other, doc.id);
    expect(r.status).toBe(404);
    expect(inv.totalCents).toBe(48875n);
    const notSynced = await makeDocument(x.t, other, { then: [sendCmd] });
    const refused = await sendOurs(other, notSynced.id);
    expect([refused.status, refused.json.detail]).toEqual([409, ACCOUNTING_MESSAGES.notSynced]);
  });
});
