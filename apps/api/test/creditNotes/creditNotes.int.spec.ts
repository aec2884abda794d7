// Credit notes through the HTTP app: crediting lines, part quantities or an amount of an issued
// invoice (numbered CN-0001, CN-0002 on their own sequence), the invoice's `credited` and balance,
// refusals that write nothing, Idempotency-Key, money paid back, the PDF, the GST report on both
// bases, and another account's credit note being 404. Numbers worked by hand: the invoice is
// 1 × $100 + 2 × $50, GST exclusive = 200.00 + GST 30.00 = 230.00.
import { documentStreamId, sequenceStreamId } from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { type User, listCalls } from '../documents/listSupport.ts';
import { addClient, eventTypes, line, pdfText, setSettings, signInAgain } from '../documents/support.ts';

const t = useTestApp();
const { make } = listCalls(t);

async function issuedInvoice(u: User): Promise<string> {
  const client = await addClient(t, u.userId, { name: 'Aroha Ngata', gst_number: '' });
  const doc = await make(u, { client_id: client, line_items: [line('Work', 1, 100), line('Parts', 2, 50)] });
  const issued = await t.post(`/invoices/${doc.id}/issue`, undefined, u.token);
  if (issued.status !== 200) throw new Error(`issue failed: ${issued.status} ${issued.text}`);
  return doc.id;
}

describe('POST /invoices/{id}/credit-notes', () => {
  it('credits part of a line: CN-0001, 1 × $50 + GST $7.50 = $57.50, with the supply correction information; the balance goes down', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { business_name: 'Kōwhai Plumbing Limited', gst_number: '49-091-850' });
    const id = await issuedInvoice(u);
    const r = await t.post(`/invoices/${id}/credit-notes`, { lines: [{ line_index: 1, qty: 1 }], reason: 'One part returned' }, u.token);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      number: 1, reference: 'CN-0001', invoice_id: id, invoice_reference: 'INV-0001', date: '2026-05-05', reason: 'One part returned',
      supplier: { name: 'Kōwhai Plumbing Limited', gst_number: '49-091-850' }, client_name: 'Aroha Ngata',
      line_items: [{ line_index: 1, description: 'Parts', qty: 1, unit_price: 50, amount: 50, gst: 7.5 }],
      amount: null, subtotal: 50, gst: 7.5, total: 57.5, refunded: 0, formatted: { total: '$57.50' }, pdf_url: `/credit-notes/${r.json.id}/pdf`,
    });
    const detail = (await t.get(`/invoices/${id}`, u.token)).json;
    expect(detail).toMatchObject({ total: 230, paid: 0, credited: 57.5, balance: 172.5, to_refund: 0, line_items: [{ qty: 1 }, { qty: 2 }] });
    // The list's balance agrees.
    expect((await t.get('/invoices', u.token)).json.find((d: { id: string }) => d.id === id).balance).toBe(172.5);
    // The rest of the invoice, by amount: 172.50, of which GST 30.00 − 7.50 = 22.50.
    const rest = await t.post(`/invoices/${id}/credit-notes`, { amount: '172.50', reason: 'Job cancelled' }, u.token);
    expect(rest.json).toMatchObject({ reference: 'CN-0002', amount: 172.5, subtotal: 150, gst: 22.5, total: 172.5 });
    expect((await t.get(`/invoices/${id}`, u.token)).json).toMatchObject({ credited: 230, balance: 0 });
    const list = await t.get(`/invoices/${id}/credit-notes`, u.token);
    expect(list.json.map((n: { reference: string }) => n.reference)).toEqual(['CN-0001', 'CN-0002']);
    expect((await t.get(`/credit-notes/${r.json.id}`, u.token)).json).toEqual(list.json[0]);
    expect(await eventTypes(t, documentStreamId(id))).toEqual(['DocumentDrafted', 'DocumentIssued', 'CreditNoteIssued', 'CreditNoteIssued']);
    expect(await eventTypes(t, sequenceStreamId(u.userId, 'credit_note'))).toEqual(['ReferenceAllocated', 'ReferenceAllocated']);
    const timeline = (await t.get(`/invoices/${id}/timeline`, u.token)).json.entries;
    expect(timeline.filter((e: { kind: string }) => e.kind === 'credited').map((e: { text: string }) => e.text)).toEqual([
      'Credit note CN-0001 for $57.50: One part returned',
      'Credit note CN-0002 for $172.50: Job cancelled',
    ]);
  });

  it('refuses a draft, a quote, a void invoice, more than is left and bad input, with a detail, and writes nothing', async () => {
    const u = await signUp(t);
    const draft = await make(u);
    const quote = await make(u, { type: 'quote' });
    const voided = await make(u);
    await t.post(`/invoices/${voided.id}/issue`, undefined, u.token);
    await t.post(`/invoices/${voided.id}/void`, { reason: 'Wrong client' }, u.token);
    const id = await issuedInvoice(u);
    const body = { amount: 10, reason: 'x' };
    expect(refusal(await t.post(`/invoices/${draft.id}/credit-notes`, body, u.token))).toEqual({ status: 409, detail: 'This invoice is a draft: change it instead of crediting it' });
    expect(refusal(await t.post(`/invoices/${quote.id}/credit-notes`, body, u.token))).toEqual({ status: 409, detail: 'Only an invoice can be credited' });
    expect(refusal(await t.post(`/invoices/${voided.id}/credit-notes`, body, u.token))).toEqual({ status: 409, detail: "This invoice is void, so it can't be credited" });
    expect(refusal(await t.post(`/invoices/${id}/credit-notes`, { amount: '230.01', reason: 'x' }, u.token))).toEqual({
      status: 422, detail: 'This credit of $230.01 is more than the $230.00 left to credit on the invoice',
    });
    expect((await t.post(`/invoices/${id}/credit-notes`, { lines: [{ line_index: 1, qty: 3 }], reason: 'x' }, u.token)).json.detail).toBe('Line 2 has only 2 left to credit');
    expect((await t.post(`/invoices/${id}/credit-notes`, { lines: [{ line_index: 0 }], amount: 1, reason: 'x' }, u.token)).status).toBe(422);
    expect((await t.post(`/invoices/${id}/credit-notes`, { amount: 1 }, u.token)).status).toBe(422);
    expect((await t.post(`/invoices/${id}/credit-notes`, { amount: 'ten', reason: 'x' }, u.token)).json.detail).toBe('Amount must be a number');
    expect((await t.post(`/invoices/${id}/credit-notes`, { lines: [{ line_index: 5 }], reason: 'x' }, u.token)).json.detail).toBe('The invoice has no line 6');
    expect(await eventTypes(t, documentStreamId(id))).toEqual(['DocumentDrafted', 'DocumentIssued']);
    expect(await eventTypes(t, sequenceStreamId(u.userId, 'credit_note'))).toEqual([]);
    expect((await t.post(`/invoices/${id}/credit-notes`, body, u.token)).json.reference).toBe('CN-0001');
  });

  it('honours the Idempotency-Key: a double tap makes one credit note', async () => {
    const u = await signUp(t);
    const id = await issuedInvoice(u);
    const body = { lines: [{ line_index: 0 }], reason: 'Not done' };
    const first = await t.post(`/invoices/${id}/credit-notes`, body, u.token, { 'Idempotency-Key': 'cn-1' });
    const again = await t.post(`/invoices/${id}/credit-notes`, body, u.token, { 'Idempotency-Key': 'cn-1' });
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await t.get(`/invoices/${id}/credit-notes`, u.token)).json).toHaveLength(1);
    // The same key with another body is refused, and writes nothing.
    const other = await t.post(`/invoices/${id}/credit-notes`, { amount: 1, reason: 'Not done' }, u.token, { 'Idempotency-Key': 'cn-1' });
    expect(other.status).toBe(422);
    expect(other.json.detail).toMatch(/already used for a different request/);
    expect((await t.get(`/invoices/${id}/credit-notes`, u.token)).json).toHaveLength(1);
  });

  it("another account's invoice and credit note are 404", async () => {
    const u = await signUp(t);
    const v = await signUp(t);
    const id = await issuedInvoice(u);
    const cn = (await t.post(`/invoices/${id}/credit-notes`, { amount: 10, reason: 'x' }, u.token)).json;
    expect((await t.post(`/invoices/${id}/credit-notes`, { amount: 10, reason: 'x' }, v.token)).status).toBe(404);
    expect((await t.get(`/invoices/${id}/credit-notes`, v.token)).status).toBe(404);
    expect(refusal(await t.get(`/credit-notes/${cn.id}`, v.token))).toEqual({ status: 404, detail: 'Credit note not found' });
    expect((await t.get(`/credit-notes/${cn.id}/pdf`, v.token)).status).toBe(404);
    expect((await t.get('/credit-notes/not-an-id', u.token)).status).toBe(404);
  });

  it('a credit note is found through its read model, which a rebuild writes again the same', async () => {
    const u = await signUp(t);
    const id = await issuedInvoice(u);
    const cn = (await t.post(`/invoices/${id}/credit-notes`, { amount: 10, reason: 'Returned part' }, u.token)).json;
    const rows = (): Promise<unknown[]> => t.deps.store.db.query('SELECT document_id, credit_note_id, account_id FROM credit_notes WHERE account_id = $1', [u.userId]);
    const live = await rows();
    expect(live).toEqual([{ document_id: id, credit_note_id: cn.id, account_id: u.userId }]);
    await t.deps.store.rebuildProjections(['credit_notes']);
    expect(await rows()).toEqual(live);
    const found = await t.get(`/credit-notes/${cn.id}`, u.token);
    expect(found.status).toBe(200);
    expect(found.json.reference).toBe(cn.reference);
  });
});

describe('money owed back, the PDF and the GST report', () => {
  it('paid $230.00, credited $23.00 (GST 23 × 30/230 = $3.00): $23.00 to refund; the refund counts on the payments basis when paid back', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { business_name: 'Kōwhai Plumbing Limited', gst_number: '49-091-850' });
    const id = await issuedInvoice(u);
    expect((await t.post(`/invoices/${id}/payments`, { amount: 230, date: '2026-05-05' }, u.token)).status).toBe(201);
    // The credit note in July, a later GST period.
    const before = t.clock.now().toISOString();
    t.clock.set('2026-07-15T00:00:00.000Z');
    const token = await signInAgain(t, u);
    const cn = (await t.post(`/invoices/${id}/credit-notes`, { amount: 23, reason: 'Overcharged' }, token)).json;
    expect(cn).toMatchObject({ date: '2026-07-15', subtotal: 20, gst: 3, total: 23 });
    expect((await t.get(`/invoices/${id}`, token)).json).toMatchObject({ paid: 230, credited: 23, balance: -23, to_refund: 23 });
    expect(refusal(await t.post(`/credit-notes/${cn.id}/refunds`, { amount: 23.01 }, token))).toEqual({ status: 422, detail: 'This refund is more than the $23.00 owed back to the client' });
    const refunded = await t.post(`/credit-notes/${cn.id}/refunds`, { amount: 23, date: '2026-08-03', reference: 'Bank' }, token);
    expect(refunded.status).toBe(201);
    expect(refunded.json).toMatchObject({ refunded: 23, refunds: [{ amount: 23, date: '2026-08-03', method: 'bank_transfer', reference: 'Bank' }] });
    expect((await t.get(`/invoices/${id}`, token)).json).toMatchObject({ paid: 207, credited: 23, balance: 0, to_refund: 0 });

    const gst = async (start: string, end: string, basis: string) => (await t.get(`/reports/gst?start_date=${start}&end_date=${end}&basis=${basis}`, token)).json;
    // Invoice basis: May keeps the invoice; July has the credit note, negative.
    expect(await gst('2026-05-01', '2026-06-30', 'invoice')).toMatchObject({ total_sales: 230, total_gst_collected: 30, invoice_count: 1 });
    expect(await gst('2026-07-01', '2026-08-31', 'invoice')).toMatchObject({ total_sales: -23, total_gst_collected: -3, invoice_count: 0, corrections: { count: 1, sales: -23, gst: -3 } });
    // Payments basis: the payment in May; nothing in July (no money moved); the refund in August.
    expect(await gst('2026-05-01', '2026-06-30', 'payments')).toMatchObject({ total_sales: 230, total_gst_collected: 30 });
    expect(await gst('2026-07-01', '2026-07-31', 'payments')).toMatchObject({ total_sales: 0, total_gst_collected: 0 });
    expect(await gst('2026-08-01', '2026-08-31', 'payments')).toMatchObject({ total_sales: -23, total_gst_collected: -3, corrections: { count: 1, sales: -23, gst: -3 } });

    // The CSV: the credit note is a row of its own in July, negative, and the totals are the report's.
    const csv = (await t.get('/reports/export/gst-csv?start_date=2026-07-01&end_date=2026-08-31&basis=invoice', token)).text;
    expect(csv).toContain('CN-0001,2026-07-15,Aroha Ngata,,-20.00,-3.00,-23.00,Credit note for INV-0001,,2026-07-15\r\n');
    expect(csv).toContain('Total,,"0 invoices, 1 credit note",,-20.00,-3.00,-23.00,');
    const paymentsCsv = (await t.get('/reports/export/gst-csv?start_date=2026-08-01&end_date=2026-08-31&basis=payments', token)).text;
    expect(paymentsCsv).toContain('INV-0001,2026-08-03,Aroha Ngata,,-20.00,-3.00,-23.00,Refunded,,2026-05-05\r\n');

    const pdf = await t.app.request(`/api/v1/credit-notes/${cn.id}/pdf`, { headers: { Authorization: `Bearer ${token}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
    expect(pdf.headers.get('Content-Disposition')).toBe('inline; filename="CN-0001.pdf"');
    const text = pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/[ \t]+/g, ' ');
    expect(text).toContain('Credit note');
    expect(text).toContain('Kōwhai Plumbing Limited');
    expect(text).toContain('GST number: 49-091-850');
    expect(text).toContain('Credits invoice: INV-0001');
    expect(text).toContain('Date issued: 15/07/2026');
    expect(text).toMatch(/Total credit incl\. GST \$23\.00/);
    t.clock.set(before);
  });
});

describe('dates that would rewrite an earlier GST period are refused', () => {
  it('money paid back before its credit note, or a payment on an issued invoice before it counted for GST: 422 with the reason, nothing written', async () => {
    const u = await signUp(t);
    const id = await issuedInvoice(u); // issued 5 May 2026
    expect((await t.post(`/invoices/${id}/payments`, { amount: 230, date: '2026-05-05' }, u.token)).status).toBe(201);
    const cn = (await t.post(`/invoices/${id}/credit-notes`, { amount: 23, reason: 'Overcharged' }, u.token)).json;
    expect(cn.date).toBe('2026-05-05');
    const before = await eventTypes(t, documentStreamId(id));
    expect(refusal(await t.post(`/credit-notes/${cn.id}/refunds`, { amount: 23, date: '2026-05-04' }, u.token))).toEqual({
      status: 422, detail: "A refund can't be dated before its credit note: CN-0001 is dated 5 May 2026",
    });
    // An issued invoice owing money: a payment dated before the day it was issued is refused.
    const other = await issuedInvoice(u);
    expect(refusal(await t.post(`/invoices/${other}/payments`, { amount: 10, date: '2026-04-30' }, u.token))).toEqual({
      status: 422,
      detail: "This invoice counts for GST from 5 May 2026, so a payment on it can't be dated before then: that would move the invoice into an earlier GST period. Please check the payment date.",
    });
    expect(await eventTypes(t, documentStreamId(id))).toEqual(before);
    expect(await eventTypes(t, documentStreamId(other))).toEqual(['DocumentDrafted', 'DocumentIssued']);
    // On the day itself both are taken.
    expect((await t.post(`/credit-notes/${cn.id}/refunds`, { amount: 23, date: '2026-05-05' }, u.token)).status).toBe(201);
    expect((await t.post(`/invoices/${other}/payments`, { amount: 10, date: '2026-05-05' }, u.token)).status).toBe(201);
  });
});
