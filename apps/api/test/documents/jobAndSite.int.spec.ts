// A quote's or invoice's job title and site address: typed on create and revise, kept through
// quote → invoice, stage invoices and duplicate, searched in the list, printed on the PDF one
// line of the address a line, shown on the client's page and named in the email.
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';
import { publicClient, sendAndReadLink } from '../clientLinks/support.ts';
import { addClient, line, pdfText, setSettings } from './support.ts';

const t = useTestApp();
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');
const SITE = '48 Rata Road,\n Hillcrest\n\nHamilton 3216';
const STORED = '48 Rata Road\nHillcrest\nHamilton 3216';

async function quoteWithJob() {
  const u = await signUp(t);
  await setSettings(t, u.userId, { business_name: 'Kauri Plumbing', phone: '021 555 0100', gst_number: '49-091-850' });
  const client_id = await addClient(t, u.userId, { name: 'Aroha Ngata', email: 'aroha@example.nz', address: '9 Home St\nFrankton' });
  const r = await t.post('/invoices', { type: 'quote', client_id, line_items: [line('Rinnai Infinity 26', 1, 1812.5)], job_title: ' New hot water  cylinder ', site_address: SITE }, u.token);
  expect(r.status).toBe(201);
  return { u, q: r.json as { id: string; job_title: string; site_address: string; version: number } };
}

describe('job title and site address', () => {
  it('are saved on create (tidied, the address one line a line) and changed by a revision; left out, a revision keeps them', async () => {
    const { u, q } = await quoteWithJob();
    expect([q.job_title, q.site_address]).toEqual(['New hot water cylinder', STORED]);
    const kept = await t.put(`/invoices/${q.id}`, { line_items: [line('Rinnai Infinity 26', 1, 1900)] }, u.token);
    expect(kept.status).toBe(200);
    expect([kept.json.job_title, kept.json.site_address]).toEqual(['New hot water cylinder', STORED]);
    const moved = await t.put(`/invoices/${q.id}`, { line_items: [line('Rinnai Infinity 26', 1, 1900)], job_title: 'Cylinder swap', site_address: '2 Kauri St\nTaupō' }, u.token);
    expect([moved.json.job_title, moved.json.site_address]).toEqual(['Cylinder swap', '2 Kauri St\nTaupō']);
  });

  it('refuses one too long with a message by it, and writes nothing', async () => {
    const { u, q } = await quoteWithJob();
    const r = await t.put(`/invoices/${q.id}`, { line_items: [line('Rinnai', 1, 1)], job_title: 'x'.repeat(201) }, u.token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(/job title can be at most 200 characters/);
    const lines = await t.put(`/invoices/${q.id}`, { line_items: [line('Rinnai', 1, 1)], site_address: Array.from({ length: 9 }, (_, i) => `Line ${i}`).join('\n') }, u.token);
    expect(lines.status).toBe(422);
    expect(lines.json.detail).toMatch(/at most 8 lines/);
    expect((await t.get(`/invoices/${q.id}`, u.token)).json.version).toBe(q.version);
  });

  it('go with the quote to its invoice, its stage invoices and a duplicate', async () => {
    const { u, q } = await quoteWithJob();
    const copy = await t.post(`/invoices/${q.id}/duplicate`, undefined, u.token);
    expect([copy.json.job_title, copy.json.site_address]).toEqual(['New hot water cylinder', STORED]);
    expect((await t.post(`/invoices/${q.id}/accept`, undefined, u.token)).status).toBe(200);
    const deposit = await t.post(`/invoices/${q.id}/stages`, { kind: 'deposit', percent: 30 }, u.token);
    expect(deposit.status).toBe(201);
    expect([deposit.json.job_title, deposit.json.site_address]).toEqual(['New hot water cylinder', STORED]);
    const other = (await quoteWithJob());
    expect((await t.post(`/invoices/${other.q.id}/accept`, undefined, other.u.token)).status).toBe(200);
    const inv = await t.post(`/invoices/${other.q.id}/convert`, undefined, other.u.token);
    expect(inv.status).toBe(201);
    expect([inv.json.job_title, inv.json.site_address]).toEqual(['New hot water cylinder', STORED]);
  });

  it('are in the list, the site on one line, and found by search', async () => {
    const { u, q } = await quoteWithJob();
    await t.post('/invoices', { type: 'quote', line_items: [line('Other job', 1, 10)] }, u.token);
    const list = await t.get('/invoices?q=hillcrest', u.token);
    expect(list.json.map((d: { id: string }) => d.id)).toEqual([q.id]);
    expect(list.json[0]).toMatchObject({ job_title: 'New hot water cylinder', site_address: '48 Rata Road, Hillcrest, Hamilton 3216' });
    expect((await t.get('/invoices?q=cylinder', u.token)).json.map((d: { id: string }) => d.id)).toEqual([q.id]);
  });

  it('are printed on the PDF, the address one line a line', async () => {
    const { u, q } = await quoteWithJob();
    const res = await t.app.request(`/api/v1/invoices/${q.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } });
    const text = squash(pdfText(Buffer.from(await res.arrayBuffer())));
    expect(text).toContain('Job');
    expect(text).toContain('New hot water cylinder');
    expect(text).toContain('Site address');
    expect(text).toMatch(/48 Rata Road\s*\n\s*Hillcrest\s*\n\s*Hamilton 3216/);
    expect(text).not.toContain('48 Rata Road, Hillcrest');
  });

  it('are on the client’s page and in the email: the subject names the job, the body the job and the site', async () => {
    const { u, q } = await quoteWithJob();
    const { token, text } = await sendAndReadLink(t, u, q.id);
    const mail = [...t.mailer.sent].reverse().find((m) => m.headers?.['X-Entity-Ref-ID'] === q.id)!;
    expect(mail.subject).toBe('Quote from Kauri Plumbing: New hot water cylinder');
    expect(text).toContain('Job: New hot water cylinder\nSite: 48 Rata Road, Hillcrest, Hamilton 3216');
    const page = await publicClient(t).get(`/quotes/${token}`);
    expect(page.status).toBe(200);
    expect(page.json.document).toMatchObject({ job_title: 'New hot water cylinder', site_address: STORED });
  });

  it('a document without them has none, in the detail and the list', async () => {
    const u = await signUp(t);
    const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Labour', 1, 85)] }, u.token);
    expect([r.json.job_title, r.json.site_address]).toEqual(['', '']);
    const list = await t.get('/invoices', u.token);
    expect(list.json[0]).toMatchObject({ job_title: '', site_address: '' });
  });
});
