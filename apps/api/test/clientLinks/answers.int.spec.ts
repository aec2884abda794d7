// The client's answers through a quote's link: accept with a name, the terms and a signature
// (the quote is accepted, the timeline and the tradie's email say so, the PDF gains the
// acceptance certificate), a double tap answered the same with nothing new recorded, a stale page
// refused (409), decline with reasons, ask for changes. Refusals write nothing.
import { CLIENT_LINK_MESSAGES } from '@tradie/contracts';
import { documentStreamId, formatNzDate, formatNzd, toCents } from '@tradie/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { clientAnswerNotice } from '../../src/clientLinks/notify.ts';
import { PUBLIC_ANSWERS_PER_LINK, PUBLIC_READS } from '../../src/clientLinks/publicRoutes.ts';
import { eventTypes, pdfText, setSettings } from '../documents/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { type User, documentFor, publicClient, sendAndReadLink, signaturePng } from './support.ts';

const t = useTestApp();
afterEach(() => t.clock.set('2026-05-04T21:30:00.000Z'));

async function sentQuote(u: User) {
  const q = await documentFor(t, u, 'quote');
  const { token } = await sendAndReadLink(t, u, q.id);
  const c = publicClient(t);
  const page = (await c.get(`/quotes/${token}`)).json;
  return { q, token, c, page };
}

const ownerMails = (u: User) => t.mailer.sent.filter((m) => m.to.map(String).includes(u.email));

describe('POST /public/quotes/{token}/accept', () => {
  it('accepts with a signature: the quote is accepted, the page, timeline, PDF and the tradie all hear of it', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { quote_terms: 'A 30% deposit is due before work starts.' });
    const { q, token, c, page } = await sentQuote(u);
    expect(page).toMatchObject({ state: 'open', terms: 'A 30% deposit is due before work starts.', version: 1, acceptance: null, decline: null });
    expect(page.shown_sha256).toMatch(/^[0-9a-f]{64}$/);

    const r = await c.post(`/quotes/${token}/accept`, { signer_name: ' Jo Bloggs ', terms_accepted: true, signature_png: signaturePng(), shown_sha256: page.shown_sha256, version: page.version });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ state: 'accepted', acceptance: { signer_name: 'Jo Bloggs', signed: true } });
    expect(r.json.acceptance.accepted_at).toBe(t.clock.now().toISOString());
    expect(r.json.shown_sha256).toBe(page.shown_sha256);
    expect((await t.get(`/invoices/${q.id}`, u.token)).json.status).toBe('accepted');

    const events = (await t.deps.store.readStream(documentStreamId(q.id))).events;
    const accepted = events.find((e) => e.type === 'QuoteAcceptedByClient')!;
    expect(accepted.data).toMatchObject({
      documentId: q.id, documentVersion: 1, shownSha256: page.shown_sha256, signerName: 'Jo Bloggs', termsAccepted: true, terms: 'A 30% deposit is due before work starts.', ip: c.ip, userAgent: 'Mozilla/5.0 (iPhone; test)',
    });
    const [sig] = await t.deps.store.db.query<{ png: Uint8Array; sha256: string }>('SELECT png, sha256 FROM client_signatures WHERE document_id = $1', [q.id]);
    expect(sig!.sha256).toBe(accepted.data.signatureSha256);
    expect(Buffer.from(sig!.png).subarray(1, 4).toString()).toBe('PNG');

    const timeline = (await t.get(`/invoices/${q.id}/timeline`, u.token)).json.entries;
    expect(timeline.map((e: { kind: string }) => e.kind)).toEqual(['created', 'link_issued', 'sent', 'accepted']);
    expect(timeline[3]).toEqual({ kind: 'accepted', at: t.clock.now().toISOString(), text: 'Accepted by Jo Bloggs (signed)' });

    const told = ownerMails(u);
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toBe(`Quote ${q.reference} accepted by Jo Bloggs`);
    expect(told[0]!.text).toContain(`http://app.test/app/invoices/${q.id}`);

    const pdf = await t.app.request(`/api/v1/public/quotes/${token}/pdf`, {}, { remoteAddress: c.ip });
    expect(pdf.status).toBe(200);
    const text = pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/[ \t]+/g, ' ');
    expect(text).toContain('Acceptance certificate');
    expect(text).toContain('Jo Bloggs');
    expect(text).toContain(`${q.reference}, version 1`);
    expect(text).toContain(page.shown_sha256);
    expect(text).toContain(c.ip);
    expect(text).toContain('NZST');
    // The terms in full on the quote and, word for word, in the certificate (not 'Terms: Accepted').
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Terms and conditions A 30% deposit is due before work starts.');
    expect(flat).toContain('Accepted, as follows: A 30% deposit is due before work starts.');
    // The tradie's own PDF is the same document as the client's, certificate included.
    const mine = await t.app.request(`/api/v1/invoices/${q.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } });
    expect(pdfText(Buffer.from(await mine.arrayBuffer())).replace(/[ \t]+/g, ' ')).toBe(text);

    // New terms in the settings later: the accepted quote still quotes what was accepted.
    await setSettings(t, u.userId, { quote_terms: 'Payment within 14 days of completion.' });
    const later = pdfText(Buffer.from(await (await t.app.request(`/api/v1/invoices/${q.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } })).arrayBuffer()));
    expect(later).toContain('A 30% deposit is due before work starts.');
    expect(later).not.toContain('Payment within 14 days');
  });

  it('a double tap answers the same page and records nothing new', async () => {
    const u = await signUp(t);
    const { q, token, c, page } = await sentQuote(u);
    const body = { signer_name: 'Jo Bloggs', shown_sha256: page.shown_sha256, version: page.version };
    const first = await c.post(`/quotes/${token}/accept`, body);
    const second = await c.post(`/quotes/${token}/accept`, body);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(first.json.acceptance.signed).toBe(false);
    expect((await eventTypes(t, documentStreamId(q.id))).filter((e) => e === 'QuoteAcceptedByClient')).toHaveLength(1);
    expect(ownerMails(u)).toHaveLength(1);
    // A different answer now is refused.
    const decline = await c.post(`/quotes/${token}/decline`, { reasons: ['price'] });
    expect(decline.status).toBe(409);
    expect(decline.json.detail).toBe(CLIENT_LINK_MESSAGES.alreadyAccepted);
  });

  it('refuses a stale version or hash (409), missing terms, a bad name or signature (422), writing nothing', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { quote_terms: 'Payment within 7 days of completion.' });
    const { q, token, c, page } = await sentQuote(u);
    const before = await eventTypes(t, documentStreamId(q.id));
    const ok = { signer_name: 'Jo Bloggs', terms_accepted: true, shown_sha256: page.shown_sha256, version: page.version };
    const cases: [unknown, number, string][] = [
      [{ ...ok, version: page.version + 1 }, 409, CLIENT_LINK_MESSAGES.quoteChanged],
      [{ ...ok, shown_sha256: '0'.repeat(64) }, 409, CLIENT_LINK_MESSAGES.quoteChanged],
      [{ ...ok, terms_accepted: false }, 422, CLIENT_LINK_MESSAGES.termsRequired],
      [{ ...ok, signer_name: '   ' }, 422, CLIENT_LINK_MESSAGES.nameRequired],
      [{ ...ok, signature_png: 'data:image/png;base64,R0lGODlhAQABAAAAACw=' }, 422, 'The signature must be a PNG image'],
      [{ ...ok, signature_png: `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(151 * 1024)]).toString('base64')}` }, 422, CLIENT_LINK_MESSAGES.signatureTooLarge],
      [{ ...ok, signature_png: `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png')]).toString('base64')}` }, 422, 'The signature must be a PNG image'],
    ];
    for (const [body, status, detail] of cases) {
      const r = await c.post(`/quotes/${token}/accept`, body);
      expect(r.status, detail).toBe(status);
      expect(r.json.detail).toBe(detail);
    }
    expect(await eventTypes(t, documentStreamId(q.id))).toEqual(before);
    expect((await t.deps.store.db.query('SELECT 1 FROM client_signatures WHERE document_id = $1', [q.id]))).toHaveLength(0);
    // The terms changed since the page was read: the hash no longer matches.
    await setSettings(t, u.userId, { quote_terms: 'Payment within 14 days of completion.' });
    const changed = await c.post(`/quotes/${token}/accept`, ok);
    expect(changed.status).toBe(409);
    expect(changed.json.detail).toBe(CLIENT_LINK_MESSAGES.quoteChanged);
    const fresh = (await c.get(`/quotes/${token}`)).json;
    expect(fresh.shown_sha256).not.toBe(page.shown_sha256);
    expect((await c.post(`/quotes/${token}/accept`, { ...ok, shown_sha256: fresh.shown_sha256 })).status).toBe(200);
  });

  it('an invoice has no accept: its token is unknown on the quote routes', async () => {
    const u = await signUp(t);
    const inv = await documentFor(t, u, 'invoice');
    const { token } = await sendAndReadLink(t, u, inv.id);
    const r = await publicClient(t).post(`/quotes/${token}/accept`, { signer_name: 'Jo', shown_sha256: '0'.repeat(64), version: 1 });
    expect(r.status).toBe(404);
  });
});

describe('POST /public/quotes/{token}/decline and /changes', () => {
  it('declines with reasons and a note: the quote is declined, and the tradie hears why', async () => {
    const u = await signUp(t);
    const { q, token, c, page } = await sentQuote(u);
    const r = await c.post(`/quotes/${token}/decline`, { reasons: ['price', 'timing', 'price'], note: 'Too dear for now' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ state: 'declined', decline: { reasons: ['price', 'timing'], note: 'Too dear for now', declined_at: t.clock.now().toISOString() } });
    expect((await t.get(`/invoices/${q.id}`, u.token)).json.status).toBe('declined');
    const again = await c.post(`/quotes/${token}/accept`, { signer_name: 'Jo', shown_sha256: page.shown_sha256, version: page.version });
    expect(again.status).toBe(409);
    expect(again.json.detail).toBe(CLIENT_LINK_MESSAGES.alreadyDeclined);
    expect((await c.post(`/quotes/${token}/decline`, { reasons: ['nope'] })).status).toBe(422);
    const told = ownerMails(u);
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toBe(`Quote ${q.reference} declined`);
    expect(told[0]!.text).toContain('Why: Price is too high, Timing does not suit');
    const timeline = (await t.get(`/invoices/${q.id}/timeline`, u.token)).json.entries;
    expect(timeline.at(-1)).toMatchObject({ kind: 'declined', text: 'Declined by the client: Price is too high, Timing does not suit — Too dear for now' });
  });

  it('asks for changes: the quote stays open and can still be accepted', async () => {
    const u = await signUp(t);
    const { q, token, c, page } = await sentQuote(u);
    expect((await c.post(`/quotes/${token}/changes`, { note: '  ' })).json.detail).toBe(CLIENT_LINK_MESSAGES.changesRequired);
    const r = await c.post(`/quotes/${token}/changes`, { note: 'Could you quote a second heat pump?' });
    expect(r.status).toBe(200);
    expect(r.json.state).toBe('changes_requested');
    expect(r.json.version).toBe(page.version);
    expect((await t.get(`/invoices/${q.id}`, u.token)).json.status).toBe('sent');
    const timeline = (await t.get(`/invoices/${q.id}/timeline`, u.token)).json.entries;
    expect(timeline.at(-1)).toMatchObject({ kind: 'changes_requested', text: 'Changes asked for: Could you quote a second heat pump?' });
    expect(ownerMails(u).map((m) => m.subject)).toEqual([`Changes asked for on quote ${q.reference}`]);
    expect((await c.post(`/quotes/${token}/accept`, { signer_name: 'Jo', shown_sha256: r.json.shown_sha256, version: r.json.version })).status).toBe(200);
  });
});

describe('limits', () => {
  it('reads are limited per address (429 with Retry-After), and other addresses are not held up', async () => {
    const c = publicClient(t);
    const unknown = `/quotes/${'D'.repeat(32)}`;
    for (let i = 0; i < PUBLIC_READS.max; i++) expect((await c.get(unknown)).status).toBe(404);
    const r = await c.get(unknown);
    expect(r.status).toBe(429);
    expect(r.json.detail).toBe(CLIENT_LINK_MESSAGES.rateLimited);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await publicClient(t).get(unknown)).status).toBe(404);
  });

  it('answers are limited per link too, and a body over the bound is refused before it is read', async () => {
    const u = await signUp(t);
    const { q, token, page } = await sentQuote(u);
    const huge = await publicClient(t).post(`/quotes/${token}/accept`, { signer_name: 'Jo', shown_sha256: page.shown_sha256, version: page.version, padding: 'x'.repeat(300 * 1024) });
    expect(huge.status).toBe(413);
    for (let i = 0; i < PUBLIC_ANSWERS_PER_LINK.max; i++) expect((await publicClient(t).post(`/quotes/${token}/changes`, { note: `Question ${i}` })).status).toBe(200);
    expect((await publicClient(t).post(`/quotes/${token}/changes`, { note: 'One more' })).status).toBe(429);
    expect((await eventTypes(t, documentStreamId(q.id))).filter((e) => e === 'QuoteChangesRequested')).toHaveLength(PUBLIC_ANSWERS_PER_LINK.max);
  });
});

describe('the notice to the business', () => {
  it('is sent once per answer, however often the reaction runs', async () => {
    const u = await signUp(t);
    const { q, token, c } = await sentQuote(u);
    expect((await c.post(`/quotes/${token}/changes`, { note: 'Can you start in June?' })).status).toBe(200);
    expect(ownerMails(u)).toHaveLength(1);
    const event = (await t.deps.store.readStream(documentStreamId(q.id))).events.find((e) => e.type === 'QuoteChangesRequested')!;
    const row = { accountId: u.userId, streamId: documentStreamId(q.id), eventId: event.eventId, eventType: event.type, payload: event.data };
    await clientAnswerNotice.handle(t.deps, row);
    await clientAnswerNotice.handle(t.deps, row);
    expect(ownerMails(u)).toHaveLength(1);
  });
});

describe('the timeline', () => {
  it('merges sends, link changes, views, payments and the void, oldest first, one line each', async () => {
    const u = await signUp(t);
    const inv = await documentFor(t, u, 'invoice');
    const { token } = await sendAndReadLink(t, u, inv.id);
    t.clock.advance(60_000);
    expect((await publicClient(t).post(`/links/${token}/viewed`)).status).toBe(204);
    t.clock.advance(60_000);
    const total = (await t.get(`/invoices/${inv.id}`, u.token)).json.total as number;
    expect((await t.post(`/invoices/${inv.id}/payments`, { amount: 100, method: 'bank_transfer' }, u.token)).status).toBe(201);
    t.clock.advance(60_000);
    expect((await t.post(`/invoices/${inv.id}/payments`, { amount: (total * 100 - 10_000) / 100, method: 'card' }, u.token)).status).toBe(201);
    const entries = (await t.get(`/invoices/${inv.id}/timeline`, u.token)).json.entries as { kind: string; at: string; text: string }[];
    expect(entries.map((e) => e.kind)).toEqual(['created', 'link_issued', 'sent', 'viewed', 'payment', 'paid']);
    const expiresOn = (await t.get(`/invoices/${inv.id}/link`, u.token)).json.expires_on as string;
    const rest = formatNzd(toCents(((total * 100 - 10_000) / 100).toFixed(2)));
    expect(entries.map((e) => e.text)).toEqual([
      `Created ${inv.reference}`, `Link made (works until ${formatNzDate(expiresOn)})`, 'Emailed to hemi@example.nz', 'Viewed', 'Payment of $100.00 by bank transfer', `Paid ${rest} by card`,
    ]);
    expect((await t.post(`/invoices/${inv.id}/void`, { reason: 'x' }, u.token)).status).toBe(409); // paid: the domain's rule
    const at = entries.map((e) => e.at);
    expect([...at].sort()).toEqual(at);
  });
});
