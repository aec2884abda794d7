// Client links, the tradie's side and the link itself: the token (192 random bits, only its
// SHA-256 and a sealed copy at rest), the email that carries it, 404 for an unknown or malformed
// token, 410 once withdrawn, superseded, expired or voided, another account's document out of
// reach, the public answers' headers (no cookie, the strict CSP), the same numbers as the
// tradie's screen, and views counted by the page's beacon only (one per 10 minutes, 100 kept).
import { createHash } from 'node:crypto';
import { CLIENT_LINK_MESSAGES } from '@tradie/contracts';
import { documentStreamId } from '@tradie/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { countView } from '../../src/clientLinks/views.ts';
import { eventTypes, line, signInAgain } from '../documents/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { documentFor, publicClient, sendAndReadLink, sentQuoteLink } from './support.ts';

const START = '2026-05-04T21:30:00.000Z';
const t = useTestApp();
afterEach(() => t.clock.set(START));

describe('the link in the email', () => {
  it('a sent quote carries its link; the token is 192 random bits and only its hash and a sealed copy are stored', async () => {
    const u = await signUp(t);
    const q = await documentFor(t, u, 'quote');
    const { url, token, text } = await sendAndReadLink(t, u, q.id);
    expect(text).toContain(`View and accept your quote online: ${url}`);
    expect(url).toBe(`http://app.test/q/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(24);

    const rows = await t.deps.store.db.query<Record<string, unknown>>('SELECT * FROM client_links WHERE document_id = $1', [q.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_sha256).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    const events = (await t.deps.store.readStream(documentStreamId(q.id))).events;
    expect(JSON.stringify(events)).not.toContain(token);
    expect(events.map((e) => e.type)).toEqual(['DocumentDrafted', 'ClientLinkIssued', 'DocumentSent', 'PdfGenerated']);

    // The link works, and the tradie can copy the same address again.
    expect((await publicClient(t).get(`/quotes/${token}`)).status).toBe(200);
    const record = await t.get(`/invoices/${q.id}/link`, u.token);
    expect(record.status).toBe(200);
    expect(record.json).toMatchObject({ url, expires_on: '2026-06-04', views: 0, last_viewed_at: null });
  });

  it('an invoice carries its pay link, lasting a year after the due date; sending again reuses it', async () => {
    const u = await signUp(t);
    const inv = await documentFor(t, u, 'invoice', { due_date: '2026-05-20' });
    const first = await sendAndReadLink(t, u, inv.id);
    expect(first.text).toContain(`View and pay your invoice online: http://app.test/i/${first.token}`);
    const again = await sendAndReadLink(t, u, inv.id);
    expect(again.token).toBe(first.token);
    expect((await t.get(`/invoices/${inv.id}/link`, u.token)).json.expires_on).toBe('2027-05-20');
    expect((await publicClient(t).get(`/invoices/${first.token}`)).status).toBe(200);
  });
});

describe('GET /public/… with a token that does not work', () => {
  it('unknown, malformed, or of the other kind: 404 with the same words', async () => {
    const { token, c } = await sentQuoteLink(t);
    for (const path of [`/quotes/${'A'.repeat(32)}`, '/quotes/short', `/quotes/${'%27'.repeat(12)}`, `/invoices/${token}`, `/invoices/${token}/pdf`]) {
      const r = await c.get(path);
      expect(r.status, path).toBe(404);
      expect(r.json.detail).toBe(CLIENT_LINK_MESSAGES.notFound);
    }
  });

  it('withdrawn by the tradie: 410, and the tradie has no active link', async () => {
    const { u, q, token } = await sentQuoteLink(t);
    expect((await t.del(`/invoices/${q.id}/link`, u.token)).status).toBe(204);
    const r = await publicClient(t).get(`/quotes/${token}`);
    expect(r.status).toBe(410);
    expect(r.json.detail).toBe(CLIENT_LINK_MESSAGES.withdrawn);
    expect((await t.get(`/invoices/${q.id}/link`, u.token)).status).toBe(404);
    expect((await t.del(`/invoices/${q.id}/link`, u.token)).status).toBe(404);
    // A new one can be made; the old one stays withdrawn.
    const fresh = await t.post(`/invoices/${q.id}/link`, undefined, u.token);
    expect(fresh.status).toBe(200);
    expect(fresh.json.url).not.toContain(token);
    expect((await publicClient(t).get(`/quotes/${token}`)).status).toBe(410);
  });

  it('superseded when the quote is revised, and 410 voided once it is voided', async () => {
    const u = await signUp(t);
    const q = await documentFor(t, u, 'quote');
    const made = await t.post(`/invoices/${q.id}/link`, undefined, u.token);
    const token = String(made.json.url).split('/q/')[1]!;
    expect((await publicClient(t).get(`/quotes/${token}`)).status).toBe(200);
    expect((await t.put(`/invoices/${q.id}`, { line_items: [line('Heat pump install', 1, 2500)] }, u.token)).status).toBe(200);
    const r = await publicClient(t).get(`/quotes/${token}`);
    expect(r.status).toBe(410);
    expect(r.json.detail).toBe(CLIENT_LINK_MESSAGES.superseded);
    expect(await eventTypes(t, documentStreamId(q.id))).toEqual(['DocumentDrafted', 'ClientLinkIssued', 'DocumentRevised', 'ClientLinkWithdrawn']);

    const { token: sent } = await sendAndReadLink(t, u, q.id);
    expect((await t.post(`/invoices/${q.id}/void`, { reason: 'Re-quoting' }, u.token)).status).toBe(200);
    const v = await publicClient(t).get(`/quotes/${sent}`);
    expect(v.status).toBe(410);
    expect(v.json.detail).toBe(CLIENT_LINK_MESSAGES.voided);
  });

  it("expired after the quote's valid-until day (the clock moved, nobody waited)", async () => {
    const { token } = await sentQuoteLink(t, { valid_until: '2026-05-20' });
    t.clock.set('2026-05-20T11:00:00.000Z'); // 20 May, 11 pm in NZ: still the last day
    expect((await publicClient(t).get(`/quotes/${token}`)).status).toBe(200);
    t.clock.set('2026-05-20T12:30:00.000Z'); // 21 May in NZ
    const r = await publicClient(t).get(`/quotes/${token}`);
    expect(r.status).toBe(410);
    expect(r.json.detail).toBe(CLIENT_LINK_MESSAGES.expired);
    expect((await publicClient(t).post(`/links/${token}/viewed`)).status).toBe(410);
  });
});

describe('a sealed copy that no longer opens', () => {
  it('(the secret changed) the link is not shown again; a new one supersedes it', async () => {
    const { u, q, token } = await sentQuoteLink(t);
    await t.deps.store.db.query("UPDATE client_links SET token_enc = 'v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' WHERE document_id = $1", [q.id]);
    expect((await t.get(`/invoices/${q.id}/link`, u.token)).status).toBe(404);
    const fresh = await t.post(`/invoices/${q.id}/link`, undefined, u.token);
    expect(fresh.status).toBe(200);
    expect(fresh.json.url).not.toContain(token);
    expect((await publicClient(t).get(`/quotes/${token}`)).status).toBe(410);
  });
});

describe("another account's document", () => {
  it('its link, withdrawal and timeline are 404 to everyone else', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const q = await documentFor(t, a, 'quote');
    const { token } = await sendAndReadLink(t, a, q.id);
    expect((await t.get(`/invoices/${q.id}/link`, b.token)).status).toBe(404);
    expect((await t.post(`/invoices/${q.id}/link`, undefined, b.token)).status).toBe(404);
    expect((await t.del(`/invoices/${q.id}/link`, b.token)).status).toBe(404);
    expect((await t.get(`/invoices/${q.id}/timeline`, b.token)).status).toBe(404);
    expect((await t.get(`/invoices/${q.id}/link`)).status).toBe(401);
    expect((await publicClient(t).get(`/quotes/${token}`)).status).toBe(200);
  });
});

describe('the public answers', () => {
  it('set no cookie, keep the strict CSP, and send no referrer', async () => {
    const { token, c } = await sentQuoteLink(t);
    for (const r of [await c.get(`/quotes/${token}`), await c.get(`/quotes/${'B'.repeat(32)}`), await c.post(`/links/${token}/viewed`), await c.get(`/quotes/${token}/pdf`)]) {
      expect(r.headers.get('set-cookie')).toBeNull();
      expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it("the invoice page shows the tradie's own numbers: lines, totals, paid and balance", async () => {
    const u = await signUp(t);
    const inv = await documentFor(t, u, 'invoice', { line_items: [line('Labour', 3.5, 95), line('Parts', 1, 199.99, { tax_included: true }), line('Call-out', 1, 0.07)] });
    const { token } = await sendAndReadLink(t, u, inv.id);
    expect((await t.post(`/invoices/${inv.id}/payments`, { amount: 100, method: 'cash' }, u.token)).status).toBe(201);
    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    const page = await publicClient(t).get(`/invoices/${token}`);
    expect(page.status).toBe(200);
    const d = page.json.document;
    for (const k of ['subtotal', 'gst', 'total', 'paid', 'balance', 'formatted', 'reference', 'due_date', 'notes', 'client_name'] as const) expect(d[k], k).toEqual(detail[k]);
    // The same lines, less what they cost the business: that is the tradie's alone.
    const clientPart = ({ cost: _cost, category: _category, markup: _markup, cost_amount: _costAmount, price_book_item_id: _item, ...rest }: Record<string, unknown>) => rest;
    expect(d.line_items).toEqual(detail.line_items.map(clientPart));
    expect(page.json.state).toBe('partial');
    expect(page.json.payments).toEqual([{ date: '2026-05-05', amount: 100, formatted: '$100.00', method_label: 'Cash' }]);
    expect(page.json.pay).toBeNull();
    expect(d.pdf_url).toBe(`/public/invoices/${token}/pdf`);
  });

  it('the invoice page shows the bank details when the business has some', async () => {
    const u = await signUp(t);
    await t.deps.store.db.query("UPDATE business_settings SET bank_name = 'ASB', bank_account_name = 'Kōwhai Ltd', bank_account_number = '12-3456-7890103-00' WHERE account_id = $1", [u.userId]);
    const inv = await documentFor(t, u, 'invoice');
    const { token } = await sendAndReadLink(t, u, inv.id);
    expect((await publicClient(t).get(`/invoices/${token}`)).json.bank).toEqual({ bank_name: 'ASB', account_name: 'Kōwhai Ltd', account_number: '12-3456-7890103-00' });
  });

  it('the PDF of an invoice is the PDF the tradie gets', async () => {
    const u = await signUp(t);
    const inv = await documentFor(t, u, 'invoice');
    const { token } = await sendAndReadLink(t, u, inv.id);
    const r = await t.app.request(`/api/v1/public/invoices/${token}/pdf`, {}, { remoteAddress: '198.51.200.1' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    const mine = await t.app.request(`/api/v1/invoices/${inv.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } });
    expect(Buffer.from(await r.arrayBuffer()).equals(Buffer.from(await mine.arrayBuffer()))).toBe(true);
  });
});

describe('views', () => {
  it('the GET counts nothing; the beacon counts one view per 10 minutes', async () => {
    const { u, q, token, c } = await sentQuoteLink(t);
    for (let i = 0; i < 3; i++) expect((await c.get(`/quotes/${token}`)).status).toBe(200);
    expect((await t.get(`/invoices/${q.id}/link`, u.token)).json.views).toBe(0);

    expect((await c.post(`/links/${token}/viewed`)).status).toBe(204);
    expect((await c.post(`/links/${token}/viewed`)).status).toBe(204);
    let link = (await t.get(`/invoices/${q.id}/link`, u.token)).json;
    expect(link).toMatchObject({ views: 1, last_viewed_at: START });

    t.clock.advance(11 * 60_000);
    expect((await c.post(`/links/${token}/viewed`)).status).toBe(204);
    link = (await t.get(`/invoices/${q.id}/link`, u.token)).json;
    expect(link.views).toBe(2);
    const timeline = (await t.get(`/invoices/${q.id}/timeline`, u.token)).json.entries;
    expect(timeline.filter((e: { kind: string }) => e.kind === 'viewed')).toEqual([{ kind: 'viewed', at: START, text: 'Viewed (2 times)' }]);
    expect((await c.post(`/links/${'C'.repeat(32)}/viewed`)).status).toBe(404);
  });

  it('a link keeps at most its last 100 views', async () => {
    const u = await signUp(t);
    const q = await documentFor(t, u, 'quote');
    await sendAndReadLink(t, u, q.id);
    const linkId = (await t.get(`/invoices/${q.id}/link`, u.token)).json.id as string;
    const start = Date.parse(START);
    for (let i = 0; i < 130; i++) await countView(t.deps.store.db, u.userId, linkId, new Date(start + i * 11 * 60_000));
    const [row] = await t.deps.store.db.query<{ n: number; first: Date | string }>('SELECT count(*)::int AS n, min(at) AS first FROM client_link_views WHERE link_id = $1', [linkId]);
    expect(row!.n).toBe(100);
    expect(new Date(row!.first).getTime()).toBe(start + 30 * 11 * 60_000);
    t.clock.set(new Date(start + 130 * 11 * 60_000).toISOString());
    const token = await signInAgain(t, u);
    expect((await t.get(`/invoices/${q.id}/link`, token)).json.views).toBe(100);
  });
});
