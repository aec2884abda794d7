// PUT (revise a draft, stale versions), DELETE (drafts go, issued documents are voided), void,
// convert (quote → new invoice in one transaction), accept and decline.
import { documentStreamId, sequenceStreamId } from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { listCalls } from './listSupport.ts';
import { addClient, eventTypes, line, removeClient } from './support.ts';

const t = useTestApp();
const { make } = listCalls(t);

const STALE = 'Someone else changed this at the same time. Please reload and try again.';

describe('PUT /invoices/{id}', () => {
  it('revises a draft: new lines and totals, a new version, dates kept unless asked', async () => {
    const u = await signUp(t);
    const doc = await make(u, { due_date: '2026-05-30', notes: 'First visit' });
    const r = await t.put(`/invoices/${doc.id}`, { line_items: [line('Work', 2, 100), line('Parts', 1, 50, { tax_included: true })], version: 1 }, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: doc.id, reference: 'INV-0001', version: 2, due_date: '2026-05-30', notes: 'First visit', subtotal: 243.48, gst: 36.52, total: 280 });
    expect(r.json.line_items).toHaveLength(2);
    expect((await t.get(`/invoices/${doc.id}`, u.token)).json).toEqual(r.json);
    expect((await t.get('/invoices', u.token)).json[0].total).toBe(280);
    expect(await eventTypes(t, documentStreamId(doc.id))).toEqual(['DocumentDrafted', 'DocumentRevised']);
  });

  it('changes the client (snapshot and payment terms), the issue date, or removes the client', async () => {
    const u = await signUp(t);
    const a = await addClient(t, u.userId, { name: 'A', default_payment_terms: '7 days' });
    const b = await addClient(t, u.userId, { name: 'B', email: 'b@example.nz', default_payment_terms: '30 days' });
    const doc = await make(u, { client_id: a });
    const toB = await t.put(`/invoices/${doc.id}`, { client_id: b, line_items: [line('Work', 1, 100)] }, u.token);
    expect(toB.json).toMatchObject({ client_id: b, client_name: 'B', client: { email: 'b@example.nz' }, payment_terms: '30 days', due_date: '2026-06-04' });
    const moved = await t.put(`/invoices/${doc.id}`, { issue_date: '2026-05-10', line_items: [line('Work', 1, 100)] }, u.token);
    expect(moved.json).toMatchObject({ client_id: b, issue_date: '2026-05-10', due_date: '2026-06-09' });
    // The client was removed from the book since: the document keeps the snapshot it had.
    await removeClient(t, u.userId, b);
    const kept = await t.put(`/invoices/${doc.id}`, { client_id: b, line_items: [line('Work', 1, 100)] }, u.token);
    expect(kept.status).toBe(200);
    expect(kept.json.client).toMatchObject({ id: b, name: 'B' });
    const none = await t.put(`/invoices/${doc.id}`, { client_id: null, line_items: [line('Work', 1, 100)] }, u.token);
    expect(none.json).toMatchObject({ client: null, client_name: '' });
  });

  it('answers 409 for a stale version and never overwrites the other edit', async () => {
    const u = await signUp(t);
    const doc = await make(u);
    expect((await t.put(`/invoices/${doc.id}`, { line_items: [line('Mine', 1, 1)], version: 1 }, u.token)).status).toBe(200);
    const stale = await t.put(`/invoices/${doc.id}`, { line_items: [line('Theirs', 1, 2)], version: 1 }, u.token);
    expect(refusal(stale)).toEqual({ status: 409, detail: STALE });
    expect((await t.get(`/invoices/${doc.id}`, u.token)).json.line_items[0].description).toBe('Mine');
    expect((await t.put(`/invoices/${doc.id}`, { line_items: [line('x', 1, 1)], version: 0 }, u.token)).status).toBe(422);
  });

  it('refuses to change a document once sent (409) or paid, and refuses a change of type', async () => {
    const u = await signUp(t);
    const c = await addClient(t, u.userId, { name: 'C', email: 'c@example.nz' });
    const sent = await make(u, { client_id: c });
    expect((await t.post(`/invoices/${sent.id}/send`, undefined, u.token)).status).toBe(200);
    const r = await t.put(`/invoices/${sent.id}`, { line_items: [line('x', 1, 1)] }, u.token);
    expect(refusal(r)).toEqual({ status: 409, detail: "This invoice has been sent, so it can't be changed. Void it and create a new invoice instead." });

    const paid = await make(u);
    expect((await t.post(`/invoices/${paid.id}/payments`, { amount: 20 }, u.token)).status).toBe(201);
    const p = await t.put(`/invoices/${paid.id}`, { line_items: [line('x', 1, 1)] }, u.token);
    expect(p.status).toBe(409);
    expect(p.json.detail).toMatch(/payments recorded/);

    const quote = await make(u, { type: 'quote' });
    const typed = await t.put(`/invoices/${quote.id}`, { type: 'invoice', line_items: [line('x', 1, 1)] }, u.token);
    expect(typed.status).toBe(422);
    expect(typed.json.detail).toMatch(/Convert it to an invoice instead/);
  });

  it('validates like create, and writes nothing when refused', async () => {
    const u = await signUp(t);
    const doc = await make(u);
    const r = await t.put(`/invoices/${doc.id}`, { line_items: [line('ok', 1, 1), line('', 1, 1)] }, u.token);
    expect(refusal(r)).toEqual({ status: 422, detail: 'Line 2: Each line needs a description' });
    expect((await t.put(`/invoices/${doc.id}`, { line_items: [line('ok', 1, 1)], client_id: 'nobody' }, u.token)).status).toBe(404);
    expect((await t.put(`/invoices/${doc.id}`, { line_items: [line('ok', 1, 1)], due_date: '2026-01-01' }, u.token)).json.detail).toBe('The due date cannot be before the issue date');
    expect((await t.get(`/invoices/${doc.id}`, u.token)).json.version).toBe(1);
  });
});

describe('DELETE /invoices/{id}', () => {
  it('deletes a draft nobody has seen; its number is never handed out again', async () => {
    const u = await signUp(t);
    const doc = await make(u);
    const r = await t.del(`/invoices/${doc.id}`, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: doc.id, outcome: 'deleted' });
    expect((await t.get(`/invoices/${doc.id}`, u.token)).status).toBe(404);
    expect((await t.get('/invoices', u.token)).json).toEqual([]);
    expect(await eventTypes(t, documentStreamId(doc.id))).toEqual(['DocumentDrafted', 'DocumentDeleted']);
    expect((await make(u)).reference).toBe('INV-0002');
    expect((await t.del(`/invoices/${doc.id}`, u.token)).status).toBe(404);
  });

  it('voids an issued invoice instead, keeping it and its number', async () => {
    const u = await signUp(t);
    const c = await addClient(t, u.userId, { name: 'C', email: 'c@example.nz' });
    const doc = await make(u, { client_id: c });
    await t.post(`/invoices/${doc.id}/send`, undefined, u.token);
    const r = await t.del(`/invoices/${doc.id}`, u.token);
    expect(r.json).toEqual({ id: doc.id, outcome: 'voided' });
    expect((await t.get(`/invoices/${doc.id}`, u.token)).json).toMatchObject({ status: 'void', reference: 'INV-0001', void_reason: 'Deleted by user' });
    expect((await t.get('/invoices', u.token)).json[0]).toMatchObject({ id: doc.id, status: 'void' });
    const again = await t.del(`/invoices/${doc.id}`, u.token);
    expect(refusal(again)).toEqual({ status: 409, detail: 'This invoice is already void' });
  });

  it('refuses to void an invoice with payments until they are removed', async () => {
    const u = await signUp(t);
    const doc = await make(u);
    await t.post(`/invoices/${doc.id}/mark-paid`, undefined, u.token);
    const r = await t.del(`/invoices/${doc.id}`, u.token);
    expect(refusal(r)).toEqual({ status: 409, detail: 'Remove the payments recorded on this invoice before voiding it' });
  });
});

describe('POST /invoices/{id}/void', () => {
  it('voids with a reason, once', async () => {
    const u = await signUp(t);
    const doc = await make(u);
    const r = await t.post(`/invoices/${doc.id}/void`, { reason: 'Wrong client' }, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'void', void_reason: 'Wrong client', version: 2 });
    expect((await t.post(`/invoices/${doc.id}/void`, undefined, u.token)).status).toBe(409);
    expect((await t.post(`/invoices/${doc.id}/void`, { reason: 5 }, u.token)).status).toBe(422);
  });
});

describe('POST /invoices/{id}/convert', () => {
  it('makes a new invoice from the quote in one transaction: lines, client, new number, NZ today', async () => {
    const u = await signUp(t);
    const c = await addClient(t, u.userId, { name: 'Rangi', email: 'rangi@example.nz', default_payment_terms: '14 days' });
    await make(u); // INV-0001 exists already
    const made = await make(u, { type: 'quote', client_id: c, issue_date: '2026-04-20', notes: 'Bring ladder', line_items: [line('Rewire', 1, 1200), line('Switches', 4, 25.5)] });
    const quote = (await t.get(`/invoices/${made.id}`, u.token)).json;
    const r = await t.post(`/invoices/${quote.id}/convert`, undefined, u.token);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      type: 'invoice', reference: 'INV-0002', status: 'draft', converted_from: quote.id, client_id: c, client_name: 'Rangi',
      issue_date: '2026-05-05', due_date: '2026-05-19', payment_terms: '14 days', notes: 'Bring ladder', total: quote.total, valid_until: null,
    });
    expect(r.json.line_items).toEqual(quote.line_items);
    expect((await t.get(`/invoices/${quote.id}`, u.token)).json).toMatchObject({ status: 'converted', converted_to: r.json.id });
    expect(await eventTypes(t, documentStreamId(quote.id))).toEqual(['DocumentDrafted', 'QuoteConverted']);
    const seq = await t.deps.store.readStream(sequenceStreamId(u.userId, 'invoice'));
    expect(seq.events.at(-1)?.data).toMatchObject({ documentId: r.json.id, reference: 'INV-0002' });
    // The quote's change, the new invoice and its number were written by one transaction.
    const txs = await t.deps.store.db.query<{ tx: string }>(
      `SELECT DISTINCT tx_id::text AS tx FROM events
       WHERE (stream_id = $1 AND event_type = 'QuoteConverted') OR stream_id = $2 OR (stream_id = $3 AND data->>'documentId' = $4)`,
      [documentStreamId(quote.id), documentStreamId(r.json.id), sequenceStreamId(u.userId, 'invoice'), r.json.id],
    );
    expect(txs).toHaveLength(1);
  });

  it('answers 409 when already converted, using up no number; and for invoices and declined quotes', async () => {
    const u = await signUp(t);
    const quote = await make(u, { type: 'quote' });
    expect((await t.post(`/invoices/${quote.id}/convert`, undefined, u.token)).json.reference).toBe('INV-0001');
    const again = await t.post(`/invoices/${quote.id}/convert`, undefined, u.token);
    expect(refusal(again)).toEqual({ status: 409, detail: 'This quote has already been converted to an invoice' });
    expect((await make(u)).reference).toBe('INV-0002');
    const invoice = await make(u);
    expect((await t.post(`/invoices/${invoice.id}/convert`, undefined, u.token)).json.detail).toBe('Only a quote can be converted to an invoice');
    const declined = await make(u, { type: 'quote' });
    await t.post(`/invoices/${declined.id}/decline`, undefined, u.token);
    expect((await t.post(`/invoices/${declined.id}/convert`, undefined, u.token)).status).toBe(409);
    expect((await t.get('/invoices/counts', u.token)).json).toEqual({ quotes: 2, invoices: 3 });
  });
});

describe('accept and decline', () => {
  it('moves a quote between accepted and declined; an invoice cannot', async () => {
    const u = await signUp(t);
    const quote = await make(u, { type: 'quote' });
    expect((await t.post(`/invoices/${quote.id}/accept`, undefined, u.token)).json.status).toBe('accepted');
    expect((await t.post(`/invoices/${quote.id}/accept`, undefined, u.token)).status).toBe(409);
    expect((await t.post(`/invoices/${quote.id}/decline`, undefined, u.token)).json.status).toBe('declined');
    const invoice = await make(u);
    const r = await t.post(`/invoices/${invoice.id}/accept`, undefined, u.token);
    expect(refusal(r)).toEqual({ status: 409, detail: 'Only a quote can be accepted' });
  });
});
