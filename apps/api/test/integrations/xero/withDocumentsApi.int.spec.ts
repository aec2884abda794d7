// The Xero routes with invoices made and paid through the documents API (POST /invoices,
// /payments, /void): the list shows the sync, and the documents feature's own push after each
// command keeps Xero up to date with no further call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushDocumentChangesToXero } from '../../../src/integrations/xero/sync.ts';
import { connectXero, setGstNumber, signUp, startXeroApp, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp();
});
afterAll(async () => {
  await x?.close();
});

describe('with the documents API', () => {
  it('an invoice made, synced, paid and voided through the API: badge data in the list, Xero kept in step', async () => {
    const user = await signUp(x.t);
    await setGstNumber(x.t, user);
    await connectXero(x, user);
    const client = await x.t.post('/clients', { name: 'Hemi Walker', email: 'hemi@example.nz', phone: '' }, user.token);
    expect(client.status).toBe(201);
    const created = await x.t.post('/invoices', { type: 'invoice', client_id: client.json.id, line_items: [{ description: 'Fit new tapware', qty: 3, unit_price: 85.5, tax_included: false, tax_rate: 0.15 }] }, user.token);
    expect(created.status).toBe(201);
    const id: string = created.json.id;

    const synced = await x.t.post(`/integrations/xero/sync/${id}`, undefined, user.token);
    expect(synced.status).toBe(200);
    expect(synced.json).toMatchObject({ already_synced: false, xero_invoice_number: created.json.reference });
    const inv = x.fake.state.invoices.find((i) => i.InvoiceID === synced.json.xero_invoice_id);
    // 3 × $85.50 = $256.50 + GST $38.47 (s 19O: the half cent of 38.475 may be disregarded) = $294.97, as our detail says.
    expect(inv?.totalCents).toBe(29497n);
    expect(created.json.total).toBe(294.97);

    const list = await x.t.get('/invoices?type=invoice', user.token);
    const row = list.json.find((d: { id: string }) => d.id === id);
    expect(row.extra_data).toMatchObject({ xero_invoice_id: inv?.InvoiceID, xero_invoice_number: created.json.reference });

    const paid = await x.t.post(`/invoices/${id}/payments`, { amount: 94.97, date: '2026-05-06', reference: 'Deposit' }, user.token);
    expect(paid.status).toBe(201);
    expect(x.fake.state.payments.filter((p) => p.InvoiceID === inv?.InvoiceID).map((p) => [p.amountCents, p.Reference])).toEqual([[9497n, 'Deposit']]);

    const removed = await x.t.del(`/invoices/${id}/payments/${paid.json.id}`, user.token);
    expect(removed.status).toBe(200);
    const voided = await x.t.post(`/invoices/${id}/void`, { reason: 'Wrong client' }, user.token);
    expect(voided.status).toBe(200);
    expect(inv?.Status).toBe('VOIDED');
    expect(x.fake.state.payments.filter((p) => p.InvoiceID === inv?.InvoiceID && p.Status !== 'DELETED')).toEqual([]);
    // Nothing was left for a retry.
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, id)).toMatchObject({ outcome: 'pushed', pushed: [] });
  });
});
