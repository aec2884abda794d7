// POST /invoices/{id}/generate-pdf records the PDF's sha256 (once per change); GET /invoices/{id}/pdf
// serves it. Read back with pdftotext: what the client, and IRD, would read on the page.
import { documentStreamId, formatNzd } from '@tradie/domain';
import type { PdfInput } from '@tradie/pdf';
import { renderDocumentPdf } from '@tradie/pdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';
import { addClient, eventTypes, line, pdfText, setSettings } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const squash = (s: string) => s.replace(/[ \t]+/g, ' ');
const BUSINESS = {
  business_name: 'Tāmaki Sparky Limited', trading_as: 'Tāmaki Sparky', gst_number: '49-091-850', nzbn: '9429041234563',
  address: '7 Kauri Road', city: 'Whangārei', postcode: '0110', email: 'office@tamakisparky.nz', phone: '021 555 0100',
  bank_name: 'Kiwibank', bank_account_name: 'Tāmaki Sparky Ltd', bank_account_number: '38-9000-7654303-00',
};

async function pdfOf(token: string, id: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await t.app.request(`/api/v1/invoices/${id}/pdf`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('GET /invoices/{id}/pdf', () => {
  it('serves a tax invoice with the business, the client, dates, lines and the domain totals', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, BUSINESS);
    const c = await addClient(t, u.userId, { name: 'Hēmi Walker', address: '3 Ōtara Road, Tāmaki Makaurau', email: 'hemi@example.nz' });
    const doc = (await t.post('/invoices', { type: 'invoice', client_id: c, line_items: [line('Switchboard upgrade', 1, 1450), line('RCD', 2, 89.9)] }, u.token)).json;
    const r = await pdfOf(u.token, doc.id);
    expect(r.status).toBe(200);
    expect(r.headers.get('Content-Type')).toBe('application/pdf');
    expect(r.headers.get('Content-Disposition')).toBe('inline; filename="INV-0001.pdf"');
    expect(r.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = squash(pdfText(r.bytes));
    for (const s of ['Tax Invoice', 'INV-0001', 'Tāmaki Sparky Limited', 'GST number 49-091-850', 'Whangārei', 'Hēmi Walker', 'Ōtara Road', 'Switchboard upgrade', 'RCD', 'Kiwibank', '38-9000-7654303-00']) {
      expect(text).toContain(s);
    }
    for (const amount of [doc.formatted.subtotal, doc.formatted.gst, doc.formatted.total]) expect(text).toContain(amount);
    expect(doc.formatted.total).toBe(formatNzd(187_427n));
    expect(text).toContain('05/05/2026'); // the issue date
    expect(text).toContain('12/05/2026'); // due in 7 days
    expect((await pdfOf(u.token, doc.id)).headers.get('ETag')).toBe(r.headers.get('ETag'));
    const download = await t.app.request(`/api/v1/invoices/${doc.id}/pdf?download=1`, { headers: { Authorization: `Bearer ${u.token}` } });
    expect(download.headers.get('Content-Disposition')).toBe('attachment; filename="INV-0001.pdf"');
  });

  it('titles a quote Quote with its valid-until date, and an unregistered business Invoice', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { business_name: 'Sole Trader Sam', gst_number: '', gst_registered: false });
    const quote = (await t.post('/invoices', { type: 'quote', line_items: [line('Fence', 10, 55)] }, u.token)).json;
    const q = squash(pdfText((await pdfOf(u.token, quote.id)).bytes));
    expect(q).toContain('Quote');
    expect(q).toContain('QTE-0001');
    expect(q).toMatch(/Valid until 04\/06\/2026/);
    const inv = (await t.post('/invoices', { type: 'invoice', line_items: [line('Fence', 10, 55, { tax_rate: 0 })] }, u.token)).json;
    const i = squash(pdfText((await pdfOf(u.token, inv.id)).bytes));
    expect(i).toContain('Invoice');
    expect(i).not.toContain('Tax Invoice');
    expect(i).toContain('$550.00');
  });
});

describe('POST /invoices/{id}/generate-pdf', () => {
  it('answers the PDF address and its sha256, recording PdfGenerated only when the PDF changed', async () => {
    const u = await signUp(t);
    const doc = (await t.post('/invoices', { type: 'invoice', line_items: [line('Work', 1, 100)] }, u.token)).json;
    const r = await t.post(`/invoices/${doc.id}/generate-pdf`, undefined, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ pdf_url: `/invoices/${doc.id}/pdf`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const served = await pdfOf(u.token, doc.id);
    expect(served.headers.get('ETag')).toBe(`"${r.json.sha256}"`);
    expect((await t.post(`/invoices/${doc.id}/generate-pdf`, undefined, u.token)).json.sha256).toBe(r.json.sha256);
    expect(await eventTypes(t, documentStreamId(doc.id))).toEqual(['DocumentDrafted', 'PdfGenerated']);
    expect((await t.get(`/invoices/${doc.id}`, u.token)).json.pdf_sha256).toBe(r.json.sha256);

    await t.put(`/invoices/${doc.id}`, { line_items: [line('Work', 2, 100)] }, u.token);
    const changed = await t.post(`/invoices/${doc.id}/generate-pdf`, undefined, u.token);
    expect(changed.json.sha256).not.toBe(r.json.sha256);
    expect(await eventTypes(t, documentStreamId(doc.id))).toEqual(['DocumentDrafted', 'PdfGenerated', 'DocumentRevised', 'PdfGenerated']);
  });
});

describe('the renderPdf port', () => {
  it('gets the document, the business settings, the logo and today in NZ', async () => {
    const seen: PdfInput[] = [];
    const clock = new TestClock('2026-03-31T12:30:00Z'); // 1 April in NZ
    const app = await createTestApp({ clock, overrides: { renderPdf: async (input) => (seen.push(input), renderDocumentPdf(input)) } });
    try {
      const u = await signUp(app);
      await setSettings(app, u.userId, { business_name: 'Port Test Ltd', gst_number: '49-091-850' });
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
      await app.deps.store.db.query(
        `INSERT INTO business_logos (account_id, kind, content_type, bytes, sha256, updated_at) VALUES ($1, 'png', 'image/png', $2, 'abc', now())`,
        [u.userId, png],
      );
      const doc = (await app.post('/invoices', { type: 'invoice', line_items: [line('Work', 1, 100)] }, u.token)).json;
      expect((await app.post(`/invoices/${doc.id}/generate-pdf`, undefined, u.token)).status).toBe(200);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.today).toBe('2026-04-01');
      expect(seen[0]?.document).toMatchObject({ id: doc.id, reference: 'INV-0001', issueDate: '2026-04-01' });
      expect(seen[0]?.business).toMatchObject({ business_name: 'Port Test Ltd', gst_number: '49-091-850' });
      expect(seen[0]?.logo?.kind).toBe('png');
      // A logo stored before uploads were re-encoded is re-encoded in place the first time a PDF needs it.
      const [stored] = await app.deps.store.db.query<{ state: string; bytes: Uint8Array }>('SELECT state, bytes FROM business_logos WHERE account_id = $1', [u.userId]);
      expect(stored?.state).toBe('ready');
      expect(seen[0]?.logo?.bytes.equals(Buffer.from(stored!.bytes))).toBe(true);
      expect(seen[0]?.logo?.bytes.subarray(0, 8).equals(png.subarray(0, 8))).toBe(true); // still a PNG
    } finally {
      await app.close();
    }
  });
});

describe('repeat downloads from the cache', () => {
  it('an unchanged document is rendered once; a new payment, new settings (at the same instant), or a new day each make a new PDF', async () => {
    const renders: PdfInput[] = [];
    const clock = new TestClock('2026-06-01T01:00:00Z');
    const app = await createTestApp({ clock, overrides: { renderPdf: async (input) => (renders.push(input), renderDocumentPdf(input)) } });
    const get = async (token: string, id: string) => {
      const res = await app.app.request(`/api/v1/invoices/${id}/pdf`, { headers: { Authorization: `Bearer ${token}` } });
      return { status: res.status, etag: res.headers.get('ETag'), disposition: res.headers.get('Content-Disposition'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    try {
      const u = await signUp(app);
      await setSettings(app, u.userId, { business_name: 'Cache Test Ltd', gst_number: '49-091-850' });
      const doc = (await app.post('/invoices', { type: 'invoice', line_items: [line('Work', 1, 100)] }, u.token)).json;
      const first = await get(u.token, doc.id);
      const again = await get(u.token, doc.id);
      expect(renders).toHaveLength(1);
      expect(again).toEqual(first);
      expect(again.disposition).toBe('inline; filename="INV-0001.pdf"');

      // A payment moves the document's version on: a new render, with the new balance in it.
      expect((await app.post(`/invoices/${doc.id}/payments`, { amount: 50, date: '2026-06-01', method: 'cash' }, u.token)).status).toBe(201);
      expect((await get(u.token, doc.id)).etag).not.toBe(first.etag);
      expect(renders).toHaveLength(2);

      // New settings with the clock standing still: still seen (the row's content is the fingerprint, not its time).
      await setSettings(app, u.userId, { business_name: 'Renamed Ltd' });
      await get(u.token, doc.id);
      expect(renders).toHaveLength(3);
      expect(renders.at(-1)?.business.business_name).toBe('Renamed Ltd');

      // A new day: the PDF is dated today, so it is made again.
      clock.advance(86_400_000);
      const token = (await app.post('/auth/login', { email: u.email, password: u.password })).json.access_token as string;
      expect((await get(token, doc.id)).status).toBe(200);
      expect(renders).toHaveLength(4);
      expect(renders.at(-1)?.today).toBe('2026-06-02');
      await get(token, doc.id);
      expect(renders).toHaveLength(4);

      // Another account asking for the same id gets 404, however warm the cache is.
      const other = await signUp(app);
      expect((await get(other.token, doc.id)).status).toBe(404);
      // A deleted draft is gone from the cache's point of view too.
      const draft = (await app.post('/invoices', { type: 'invoice', line_items: [line('Draft work', 1, 10)] }, token)).json;
      expect((await get(token, draft.id)).status).toBe(200);
      expect((await app.del(`/invoices/${draft.id}`, token)).status).toBeLessThan(300);
      expect((await get(token, draft.id)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
