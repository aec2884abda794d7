// Shared by the backup tests (PGlite and PostgreSQL): a history made through the API, and
// everything the screens read back, to compare before and after a restore.
import { expect } from 'vitest';
import { secretsFrom } from '../../api/src/appKeys.ts';
import { TEST_APP_SECRET, type TestApp } from '../../api/test/support/testApp.ts';

export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** The secret the API tests sign with (testApp.ts): a restored app signs logo links the same way. */
export const TEST_SECRET = TEST_APP_SECRET;
/** The key the test apps sign exports with, as `npm run import` checks it on a server with the same APP_SECRET. */
export const TEST_EXPORT_KEY = secretsFrom(Buffer.from(TEST_SECRET)).exportKey;

const line = (description: string, qty: number | string, unit_price: number | string, extra: Record<string, unknown> = {}) => ({ description, qty, unit_price, ...extra });

/** A year of a sparky's work, through the API. */
export async function makeHistory(t: TestApp, token: string): Promise<void> {
  const ok = async (r: Promise<{ status: number; text: string; json: { id?: string } }>, status = 200) => {
    const res = await r;
    if (res.status !== status) throw new Error(`${res.status} ${res.text}`);
    return res.json as { id: string; [k: string]: unknown };
  };
  await ok(t.put('/business-settings', { business_name: 'Sparky Tamihana Ltd', gst_number: '49-091-850', bank_name: 'Kiwibank', bank_account_number: '38-9000-0123458-00', email_signature: 'Ngā mihi', gst_rounding: 'total' }, token));
  const fd = new FormData();
  fd.append('file', new File([PNG], 'logo.png', { type: 'image/png' }));
  await ok(t.call('POST', '/business-settings/logo', { token, body: fd }));

  const kowhai = await ok(t.post('/clients', { name: 'Kōwhai Builders', email: 'accounts@kowhai.example.nz', is_business: true, business_name: 'Kōwhai Builders Ltd', gst_number: '49-091-850', default_payment_terms: '30 days' }, token), 201);
  const hemi = await ok(t.post('/clients', { name: 'Hēmi Walker', email: 'hemi@example.nz', phone: '021 555 0101' }, token), 201);
  const gone = await ok(t.post('/clients', { name: 'Moved Away', email: 'gone@example.nz' }, token), 201);
  await ok(t.put(`/clients/${hemi.id}`, { name: 'Hēmi Walker', email: 'hemi.walker@example.nz', version: 1 }, token));

  const invoice = (client_id: string | null, issue_date: string, lines: unknown[]) => ok(t.post('/invoices', { type: 'invoice', client_id, issue_date, line_items: lines }, token), 201);
  const i1 = await invoice(kowhai.id, '2026-03-28', [line('Switchboard upgrade', 1, 2450), line('Labour', 6.5, 95), line('Exported parts', 1, 120, { tax_rate: 0 })]);
  const i2 = await invoice(hemi.id, '2026-04-03', [line('Heat pump install', 1, '2299.99', { tax_included: true })]);
  const i3 = await invoice(gone.id, '2026-04-15', [line('Call-out', 1, 85), line('Cable 2.5mm', '12.5', '3.333')]);
  const i4 = await invoice(kowhai.id, '2026-05-02', [line('Raised in error', 1, 500)]);
  const i5 = await invoice(null, '2026-05-20', [line('Cash job', 1, 160)]);
  await ok(t.post(`/invoices/${i1.id}/send`, {}, token));
  await ok(t.post(`/invoices/${i1.id}/payments`, { amount: 1000, date: '2026-04-02', method: 'bank_transfer', reference: 'Deposit' }, token), 201);
  await ok(t.post(`/invoices/${i1.id}/mark-paid`, { date: '2026-04-20', method: 'bank_transfer' }, token));
  const wrong = await ok(t.post(`/invoices/${i2.id}/payments`, { amount: 22.99, date: '2026-04-10', method: 'cash' }, token), 201);
  await ok(t.del(`/invoices/${i2.id}/payments/${wrong.id}`, token));
  await ok(t.post(`/invoices/${i2.id}/payments`, { amount: 1150.5, date: '2026-04-11', method: 'card' }, token), 201);
  await ok(t.post(`/invoices/${i3.id}/payments`, { amount: 50, date: '2026-05-01' }, token), 201);
  await ok(t.post(`/invoices/${i4.id}/void`, { reason: 'Raised in error' }, token));
  await ok(t.post(`/invoices/${i5.id}/generate-pdf`, undefined, token));

  const q1 = await ok(t.post('/invoices', { type: 'quote', client_id: kowhai.id, issue_date: '2026-05-25', line_items: [line('Rewire garage', 1, 3800)] }, token), 201);
  await ok(t.post(`/invoices/${q1.id}/accept`, undefined, token));
  const converted = await ok(t.post(`/invoices/${q1.id}/convert`, undefined, token), 201);
  await ok(t.post(`/invoices/${converted.id}/payments`, { amount: '4370.00', date: '2026-06-10' }, token), 201);
  const q2 = await ok(t.post('/invoices', { type: 'quote', client_id: hemi.id, line_items: [line('Spa pool circuit', 1, 950)] }, token), 201);
  await ok(t.post(`/invoices/${q2.id}/decline`, undefined, token));
  const draft = await ok(t.post('/invoices', { type: 'invoice', client_id: hemi.id, line_items: [line('Never sent', 1, 1)] }, token), 201);
  await ok(t.del(`/invoices/${draft.id}`, token));
  await ok(t.put(`/invoices/${i5.id}`, { line_items: [line('Cash job', 1, 160), line('Extra socket', 2, 45)], notes: 'Paid in cash on the day' }, token));
  await ok(t.del(`/clients/${gone.id}`, token), 204);
}

/** Everything the screens read for the account, as the API answers it (the logo as base64 of its bytes). */
export async function everything(request: (path: string) => Promise<Response>): Promise<Record<string, string>> {
  const get = async (p: string): Promise<string> => {
    const r = await request(p);
    expect(r.status, p).toBe(200);
    return r.text();
  };
  const paths = [
    '/api/v1/auth/me',
    '/api/v1/business-settings',
    '/api/v1/billing/subscription-status',
    '/api/v1/clients',
    '/api/v1/invoices?limit=200',
    '/api/v1/invoices?type=quote',
    '/api/v1/invoices?status=paid,partial,void',
    '/api/v1/invoices/counts',
    ...['invoice', 'payments'].flatMap((basis) => [
      `/api/v1/reports/gst?start_date=2026-03-01&end_date=2026-04-30&basis=${basis}`,
      `/api/v1/reports/gst?start_date=2026-05-01&end_date=2026-06-30&basis=${basis}`,
      `/api/v1/reports/gst?start_date=2025-04-01&end_date=2027-03-31&basis=${basis}`,
      `/api/v1/reports/export/gst-csv?start_date=2026-04-01&end_date=2026-06-30&basis=${basis}`,
    ]),
    '/api/v1/reports/annual?year=2026',
    '/api/v1/reports/annual?year=2027',
    '/api/v1/reports/export/annual-csv?year=2027',
  ];
  const out: Record<string, string> = {};
  for (const p of paths) out[p] = await get(p);
  // Every document's detail and payments, every client's history, and the logo's bytes.
  for (const d of JSON.parse(out['/api/v1/invoices?limit=200']!) as { id: string }[]) {
    for (const p of [`/api/v1/invoices/${d.id}`, `/api/v1/invoices/${d.id}/payments`]) out[p] = await get(p);
  }
  for (const c of JSON.parse(out['/api/v1/clients']!) as { id: string }[]) out[`/api/v1/clients/${c.id}/documents`] = await get(`/api/v1/clients/${c.id}/documents`);
  const logo = await request('/api/v1/business-settings/logo');
  out.logo = Buffer.from(await logo.arrayBuffer()).toString('base64');
  return out;
}

