// Costs to Xero as bills (ACCPAY), against the fake Xero: sent once with the receipt attached,
// the GST Xero holds equal to what this app claims, coded to the category's account; a change here
// is put on the bill by the outbox, a deleted cost voids it, a receipt kept later is attached; a
// bill paid in Xero is left alone and the cost says so; a cost paid here is paid there; a supplier's
// credit goes as a credit note from the supplier; another account's cost is 404; a connection without
// the attachments scope still sends the bill.
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_MESSAGES } from '../../../src/integrations/xero/bills.ts';
import { billReference } from '../../../src/integrations/xero/billMapping.ts';
import type { BillSource } from '../../../src/integrations/xero/port.ts';
import { xeroRuntime } from '../../../src/integrations/xero/sync.ts';
import { connectedUser, runOutbox, signUp, startXeroApp, type User, xeroCalls, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp();
});
afterAll(() => x?.close());

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function aCost(user: User, body: Record<string, unknown> = {}): Promise<{ id: string; version: number; gst_claimed: string }> {
  const r = await x.t.post('/costs', { supplier: 'Plumbing World', date: '2026-05-05', amount: '161.00', category: 'materials', ...body }, user.token);
  expect(r.status).toBe(201);
  return r.json;
}

async function keepReceipt(user: User, costId: string, bytes: Uint8Array = PDF) {
  const fd = new FormData();
  fd.append('file', new File([new Uint8Array(bytes)], 'receipt.pdf'));
  return x.t.call('POST', `/costs/${costId}/receipt`, { token: user.token, body: fd });
}

const send = (user: User, costId: string) => x.t.post(`/integrations/xero/bills/${costId}`, undefined, user.token);
const billOf = (costId: string) => {
  const found = x.fake.state.invoices.filter((i) => i.InvoiceNumber === billReference(costId));
  expect(found).toHaveLength(1);
  return found[0]!;
};
const contactName = (contactId: string) => x.fake.state.contacts.find((c) => c.ContactID === contactId)?.Name;

describe('a cost as a bill in Xero', () => {
  it('is sent once as an approved ACCPAY to the supplier, GST-inclusive, with the GST claimed here and the receipt attached', async () => {
    const user = await connectedUser(x);
    const cost = await aCost(user, { note: 'Copper pipe and fittings', supply_information_held: true });
    expect((await keepReceipt(user, cost.id)).status).toBe(200);
    const r = await send(user, cost.id);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ already_sent: false, receipt_attached: true });
    expect(r.json.warning).toBeUndefined();
    const bill = billOf(cost.id);
    expect([bill.Type, bill.Status, bill.LineAmountTypes, bill.Date, bill.DueDate, contactName(bill.ContactID)]).toEqual(['ACCPAY', 'AUTHORISED', 'Inclusive', '2026-05-05', '2026-05-05', 'Plumbing World']);
    expect(bill.LineItems.map((l) => [l.Description, l.Quantity, l.UnitAmount, l.TaxType, l.AccountCode, l.taxCents])).toEqual([['Copper pipe and fittings', '1', '161.00', 'INPUT2', '300', 2100n]]);
    // Xero's GST on the bill is the GST this app claims for it.
    expect([bill.totalCents, bill.totalTaxCents, cost.gst_claimed]).toEqual([16100n, 2100n, '21.00']);
    const files = x.fake.state.attachments.filter((a) => a.invoiceId === bill.InvoiceID);
    expect(files.map((f) => [f.FileName, f.MimeType, Buffer.compare(f.bytes, Buffer.from(PDF))])).toEqual([['receipt.pdf', 'application/pdf', 0]]);

    // Sent again: nothing more is made or attached.
    const calls = x.fake.state.requests.length;
    const again = await send(user, cost.id);
    expect(again.json).toMatchObject({ already_sent: true, xero_bill_id: bill.InvoiceID, receipt_attached: true });
    expect(x.fake.state.requests.length).toBe(calls);
    expect(x.fake.state.invoices.filter((i) => i.InvoiceNumber === billReference(cost.id))).toHaveLength(1);
    // The cost says where it is.
    expect((await x.t.get(`/costs/${cost.id}`, user.token)).json.xero_bill).toEqual({ status: 'sent', xero_bill_id: bill.InvoiceID, detail: null });
    expect((await x.t.get('/costs', user.token)).json.costs.find((c: { id: string }) => c.id === cost.id).xero_bill.status).toBe('sent');
  });

  it('claims no GST in Xero where none is claimed here: over $200 without supply information, no GST in it, or a business not registered', async () => {
    const user = await connectedUser(x);
    const noInfo = await aCost(user, { amount: '460.00', category: 'fuel' });
    expect(noInfo.gst_claimed).toBe('0.00');
    const none = await aCost(user, { amount: '80.00', gst: 'none', category: 'insurance' });
    for (const id of [noInfo.id, none.id]) expect((await send(user, id)).status).toBe(200);
    expect(billOf(noInfo.id).LineItems.map((l) => [l.TaxType, l.AccountCode, l.taxCents])).toEqual([['NONE', '449', 0n]]);
    expect(billOf(none.id).LineItems.map((l) => [l.TaxType, l.AccountCode, l.taxCents])).toEqual([['NONE', '433', 0n]]);
    expect(billOf(noInfo.id).LineItems[0]!.Description).toBe('Fuel from Plumbing World');

    const unregistered = await connectedUser(x, false);
    expect((await x.t.put('/business-settings', { gst_registered: false }, unregistered.token)).status).toBe(200);
    const cost = await aCost(unregistered, { amount: '57.50', gst: 'none' });
    expect(cost.gst_claimed).toBe('0.00');
    expect((await send(unregistered, cost.id)).status).toBe(200);
    const bill = billOf(cost.id);
    expect([bill.LineAmountTypes, bill.totalTaxCents, bill.totalCents]).toEqual(['NoTax', 0n, 5750n]);
  });

  it('follows the cost: a change is put on the bill, a receipt kept later is attached, a deleted cost voids it', async () => {
    const user = await connectedUser(x);
    const cost = await aCost(user);
    expect((await send(user, cost.id)).json.receipt_attached).toBe(false);
    const bill = billOf(cost.id);

    const changed = await x.t.put(`/costs/${cost.id}`, { supplier: 'Mico Plumbing', date: '2026-05-06', amount: '230.00', supply_information_held: true, category: 'subcontractor', version: cost.version }, user.token);
    expect(changed.status).toBe(200);
    await runOutbox(x);
    expect([bill.totalCents, bill.totalTaxCents, bill.Date, contactName(bill.ContactID), bill.LineItems[0]!.AccountCode]).toEqual([23000n, 3000n, '2026-05-06', 'Mico Plumbing', '310']);

    expect((await keepReceipt(user, cost.id)).status).toBe(200);
    await runOutbox(x);
    expect(x.fake.state.attachments.filter((a) => a.invoiceId === bill.InvoiceID).map((a) => a.FileName)).toEqual(['receipt.pdf']);
    // The same file kept again is not sent again.
    const posts = xeroCalls(x.fake, 'POST', 'Invoices').length;
    expect((await keepReceipt(user, cost.id)).status).toBe(200);
    await runOutbox(x);
    expect(xeroCalls(x.fake, 'POST', 'Invoices').length).toBe(posts);

    expect((await x.t.del(`/costs/${cost.id}`, user.token)).status).toBe(204);
    await runOutbox(x);
    expect(bill.Status).toBe('VOIDED');
  });

  it('a cost paid here is paid in Xero on that day from the bank account; a change takes the payment off, changes the bill and pays it again; deleted, the payment comes off and the bill is voided', async () => {
    const user = await connectedUser(x);
    const cost = await aCost(user, { kind: 'bill', paid_date: '2026-05-12', supply_information_held: true });
    const r = await send(user, cost.id);
    expect(r.status).toBe(200);
    const bill = billOf(cost.id);
    const live = () => x.fake.state.payments.filter((p) => p.InvoiceID === bill.InvoiceID && p.Status !== 'DELETED');
    expect(live().map((p) => [p.amountCents, p.Date, p.AccountCode])).toEqual([[16100n, '2026-05-12', '090']]);
    expect(bill.Status).toBe('PAID');
    expect((await x.t.get(`/costs/${cost.id}`, user.token)).json.xero_bill).toMatchObject({ status: 'paid', detail: null });

    // The amount was wrong: corrected here, the bill in Xero follows and is paid again for the new amount.
    const changed = await x.t.put(`/costs/${cost.id}`, { kind: 'bill', supplier: 'Plumbing World', date: '2026-05-05', paid_date: '2026-05-13', amount: '172.50', supply_information_held: true, version: cost.version }, user.token);
    expect(changed.status).toBe(200);
    await runOutbox(x);
    expect([bill.totalCents, bill.totalTaxCents, bill.Status]).toEqual([17250n, 2250n, 'PAID']);
    expect(live().map((p) => [p.amountCents, p.Date])).toEqual([[17250n, '2026-05-13']]);

    // Marked unpaid here: unpaid there too.
    const unpaid = await x.t.put(`/costs/${cost.id}`, { kind: 'bill', supplier: 'Plumbing World', date: '2026-05-05', paid_date: null, amount: '172.50', supply_information_held: true, version: changed.json.version }, user.token);
    expect(unpaid.status).toBe(200);
    await runOutbox(x);
    expect([live(), bill.Status]).toEqual([[], 'AUTHORISED']);

    const again = await x.t.put(`/costs/${cost.id}`, { kind: 'bill', supplier: 'Plumbing World', date: '2026-05-05', paid_date: '2026-05-20', amount: '172.50', supply_information_held: true, version: unpaid.json.version }, user.token);
    await runOutbox(x);
    expect(live()).toHaveLength(1);
    expect(again.status).toBe(200);
    expect((await x.t.del(`/costs/${cost.id}`, user.token)).status).toBe(204);
    await runOutbox(x);
    expect([live(), bill.Status]).toEqual([[], 'VOIDED']);
  });

  it('a bill paid in Xero is left as Xero has it, and the cost says the change was not sent', async () => {
    const user = await connectedUser(x);
    const cost = await aCost(user);
    await send(user, cost.id);
    const bill = billOf(cost.id);
    bill.paidCents = bill.totalCents;
    bill.Status = 'PAID';
    expect((await x.t.put(`/costs/${cost.id}`, { supplier: 'Plumbing World', date: '2026-05-05', amount: '170.00', version: cost.version }, user.token)).status).toBe(200);
    await runOutbox(x);
    expect(bill.totalCents).toBe(16100n);
    expect((await x.t.get(`/costs/${cost.id}`, user.token)).json.xero_bill).toMatchObject({ status: 'sent', detail: BILL_MESSAGES.changeRefused });
  });

  it('makes one bill: two sends at once (the second is told it is busy), and a bill an earlier attempt made whose answer was lost is found by its number, not made again', async () => {
    const user = await connectedUser(x);
    const cost = await aCost(user);
    const both = await Promise.all([send(user, cost.id), send(user, cost.id)]);
    // Each is sent (one made it, the other found it made) or told the cost is busy; never a second bill.
    for (const r of both) expect([200, 409]).toContain(r.status);
    for (const r of both.filter((b) => b.status === 409)) expect(r.json.detail).toBe(BILL_MESSAGES.busy);
    expect(both.some((r) => r.status === 200)).toBe(true);
    expect(x.fake.state.invoices.filter((i) => i.InvoiceNumber === billReference(cost.id))).toHaveLength(1);

    // An earlier attempt made the bill in Xero, and its answer never came back: nothing here knows of it.
    const lost = await aCost(user, { amount: '99.00' });
    const runtime = xeroRuntime(x.t.deps)!;
    const made = await runtime.keeper.withConnection(user.userId, async (conn) => {
      const { contactId } = await runtime.provider.findOrCreateContact(conn, { name: 'Plumbing World', email: '' });
      return runtime.provider.createBill(conn, { cost: { ...(lost as unknown as BillSource), amount: '90.00' }, contactId, gstRegistered: true, accountCode: '300' }, 'an-earlier-attempt');
    });
    const r = await send(user, lost.id);
    expect([r.status, r.json.xero_bill_id]).toEqual([200, made.invoiceId]);
    const bill = billOf(lost.id);
    // Found, and brought up to the cost as it is.
    expect(bill.totalCents).toBe(9900n);
  });

  it("a supplier's credit goes as a credit note from the supplier (ACCPAYCREDIT) with its receipt; changed into a bill, the credit note is voided and a bill made; deleted, the bill is voided", async () => {
    const user = await connectedUser(x);
    const credit = await aCost(user, { credit: true, amount: '46.00', supply_information_held: true, note: 'Returned fittings' });
    expect((await keepReceipt(user, credit.id)).status).toBe(200);
    const r = await send(user, credit.id);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ already_sent: false, receipt_attached: true });
    const notes = x.fake.state.creditNotes.filter((n) => n.CreditNoteNumber === billReference(credit.id));
    expect(notes.map((n) => [n.Type, n.Status, n.LineAmountTypes, n.totalCents, n.totalTaxCents, contactName(n.ContactID)])).toEqual([['ACCPAYCREDIT', 'AUTHORISED', 'Inclusive', 4600n, 600n, 'Plumbing World']]);
    expect(notes[0]!.LineItems.map((l) => [l.Description, l.TaxType, l.AccountCode])).toEqual([['Returned fittings', 'INPUT2', '300']]);
    expect(x.fake.state.attachments.filter((a) => a.invoiceId === notes[0]!.CreditNoteID).map((a) => a.FileName)).toEqual(['receipt.pdf']);
    expect(x.fake.state.invoices.filter((i) => i.InvoiceNumber === billReference(credit.id))).toEqual([]);

    // It was a bill after all.
    const changed = await x.t.put(`/costs/${credit.id}`, { supplier: 'Plumbing World', date: '2026-05-05', amount: '46.00', supply_information_held: true, credit: false, note: 'Returned fittings', version: credit.version }, user.token);
    expect(changed.status).toBe(200);
    await runOutbox(x);
    expect(notes[0]!.Status).toBe('VOIDED');
    const bill = billOf(credit.id);
    expect([bill.Type, bill.totalCents, bill.Status]).toEqual(['ACCPAY', 4600n, 'AUTHORISED']);
    expect(x.fake.state.attachments.filter((a) => a.invoiceId === bill.InvoiceID).map((a) => a.FileName)).toEqual(['receipt.pdf']);
    expect((await x.t.del(`/costs/${credit.id}`, user.token)).status).toBe(204);
    await runOutbox(x);
    expect(bill.Status).toBe('VOIDED');
  });

  it("refuses another account's cost (404) and an account not connected (400); nothing reaches Xero", async () => {
    const owner = await connectedUser(x);
    const other = await connectedUser(x);
    const cost = await aCost(owner);
    const before = x.fake.state.invoices.length;
    expect((await send(other, cost.id)).status).toBe(404);
    expect((await send(other, 'not-an-id')).status).toBe(404);
    const stranger = await signUp(x.t, 'Not Connected');
    const theirs = await x.t.post('/costs', { supplier: 'Bunnings', date: '2026-05-05', amount: '20.00' }, stranger.token);
    const notConnected = await send(stranger, theirs.json.id);
    expect([notConnected.status, notConnected.json.detail]).toEqual([400, ACCOUNTING_MESSAGES.notConnected]);
    expect(x.fake.state.invoices.length).toBe(before);
    expect((await x.t.get(`/costs/${cost.id}`, owner.token)).json.xero_bill).toBeNull();
  });
});

describe("the Xero account a category's bills go to", () => {
  it("lists the standard chart's choice per category and the organisation's expense accounts; a chosen account codes the next bill; a code Xero lacks is refused", async () => {
    const user = await connectedUser(x);
    await aCost(user, { amount: '55.00', category: 'Fuel' });
    const listed = await x.t.get('/integrations/xero/bill-accounts', user.token);
    expect(listed.status).toBe(200);
    const byCategory = Object.fromEntries(listed.json.categories.map((c: { category: string; code: string; chosen: boolean }) => [c.category, [c.code, c.chosen]]));
    expect(byCategory).toMatchObject({ materials: ['300', false], subcontractor: ['310', false], equipment: ['473', false], other: ['429', false], fuel: ['449', false] });
    // Expense and direct-cost accounts only: no bank, no sales.
    const codes = listed.json.accounts.map((a: { code: string }) => a.code);
    expect(codes).toContain('429');
    expect(codes).toContain('300');
    expect(codes).not.toContain('090');
    expect(codes).not.toContain('200');

    // Fuel to General Expenses, chosen: the next fuel bill is coded there; materials stay as they were.
    const chosen = await x.t.put('/integrations/xero/bill-accounts', { category: 'Fuel', code: '429' }, user.token);
    expect(chosen.status).toBe(200);
    expect(chosen.json.categories.find((c: { category: string }) => c.category === 'fuel')).toEqual({ category: 'fuel', code: '429', chosen: true, standard_code: '449' });
    const fuel = await aCost(user, { amount: '80.00', category: 'fuel' });
    const pipe = await aCost(user, { amount: '40.00', category: 'materials' });
    for (const id of [fuel.id, pipe.id]) expect((await send(user, id)).status).toBe(200);
    expect(billOf(fuel.id).LineItems.map((l) => l.AccountCode)).toEqual(['429']);
    expect(billOf(pipe.id).LineItems.map((l) => l.AccountCode)).toEqual(['300']);

    // A code the organisation does not have, or not an expense account: refused in words, nothing kept.
    for (const code of ['999', '090', '200']) {
      const refused = await x.t.put('/integrations/xero/bill-accounts', { category: 'fuel', code }, user.token);
      expect([refused.status, refused.json.detail]).toEqual([422, `Xero has no active expense account with the code ${code}. Choose one from the list.`]);
    }
    expect((await x.t.put('/integrations/xero/bill-accounts', { category: '', code: '429' }, user.token)).status).toBe(422);
    // Back to the standard chart's.
    const reset = await x.t.put('/integrations/xero/bill-accounts', { category: 'fuel', code: null }, user.token);
    expect(reset.json.categories.find((c: { category: string }) => c.category === 'fuel')).toMatchObject({ code: '449', chosen: false });
    // Another business's choices are its own.
    const other = await connectedUser(x);
    expect((await x.t.get('/integrations/xero/bill-accounts', other.token)).json.categories.every((c: { chosen: boolean }) => !c.chosen)).toBe(true);
  });

  it('says Xero is not connected', async () => {
    const user = await signUp(x.t);
    const r = await x.t.get('/integrations/xero/bill-accounts', user.token);
    expect([r.status, r.json.detail]).toEqual([400, ACCOUNTING_MESSAGES.notConnected]);
  });
});

describe('a connection made before attachments were asked for', () => {
  let old: XeroTestApp;
  beforeAll(async () => {
    old = await startXeroApp({ adapter: { scopes: 'offline_access accounting.invoices accounting.contacts accounting.payments accounting.settings.read' } });
  });
  afterAll(() => old?.close());

  it('still sends the bill; the receipt is not attached and the cost says to connect again; the connection is not marked broken', async () => {
    const user = await connectedUser(old);
    const r0 = await old.t.post('/costs', { supplier: 'Plumbing World', date: '2026-05-05', amount: '161.00' }, user.token);
    const fd = new FormData();
    fd.append('file', new File([PDF], 'receipt.pdf'));
    expect((await old.t.call('POST', `/costs/${r0.json.id}/receipt`, { token: user.token, body: fd })).status).toBe(200);
    const r = await old.t.post(`/integrations/xero/bills/${r0.json.id}`, undefined, user.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ already_sent: false, receipt_attached: false, warning: BILL_MESSAGES.attachNotAllowed });
    expect(old.fake.state.attachments).toEqual([]);
    expect((await old.t.get('/integrations/xero/status', user.token)).json).toMatchObject({ connected: true, needs_reauth: false });
    expect((await old.t.get(`/costs/${r0.json.id}`, user.token)).json.xero_bill.detail).toBe(BILL_MESSAGES.attachNotAllowed);
  });
});
