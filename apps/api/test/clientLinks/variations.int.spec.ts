// A variation after the client accepted a quote is its own agreement, through the API on PGlite:
// the quote as accepted (its lines, total and the hash the client's acceptance named) never
// changes; the variation is emailed with the quote's link (which keeps working), shown apart on
// the tradie's detail and the client's page, approved (a name, an optional signature, the
// certificate) or declined by the client there; invoicing it before it is approved is refused
// with a reason and writes nothing; once approved it is invoiced, and the PDF read back with
// pdftotext shows what was signed, then each variation with where it stands.
import { CLIENT_LINK_MESSAGES } from '@tradie/contracts';
import { documentStreamId } from '@tradie/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { addClient, eventTypes, line, pdfText, setSettings } from '../documents/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { type User, publicClient, sendAndReadLink, signaturePng } from './support.ts';

const t = useTestApp();
afterEach(() => t.clock.set('2026-05-04T21:30:00.000Z'));

const ownerMails = (u: User) => t.mailer.sent.filter((m) => m.to.map(String).includes(u.email));

/**
 * A quote of $1,812.50 + $735.03 = $2,547.53 + GST 382.1295 → $382.13 (on the total) = $2,929.66,
 * emailed to the client and accepted by them through the link with a signature.
 */
async function acceptedQuote() {
  const u = await signUp(t);
  await setSettings(t, u.userId, { business_name: 'Rata Plumbing Ltd', gst_number: '123-456-788' });
  const clientId = await addClient(t, u.userId, { name: 'Aroha Ngata', email: 'aroha@example.nz' });
  const q = (await t.post('/invoices', { type: 'quote', client_id: clientId, line_items: [line('Hot water cylinder, supplied and fitted', 1, 1812.5), line('Labour', 1, 735.03)] }, u.token)).json;
  expect(q.total).toBe(2929.66);
  const { token } = await sendAndReadLink(t, u, q.id);
  const c = publicClient(t);
  const page = (await c.get(`/quotes/${token}`)).json;
  const accepted = await c.post(`/quotes/${token}/accept`, { signer_name: 'Aroha Ngata', signature_png: signaturePng(), shown_sha256: page.shown_sha256, version: page.version });
  expect(accepted.status).toBe(200);
  return { u, q: q as { id: string; reference: string }, token, c, page: accepted.json };
}

/** Proposes a variation; its id. */
async function propose(u: User, quoteId: string, lines: unknown[], note = ''): Promise<string> {
  const r = await t.post(`/invoices/${quoteId}/variations`, { lines, note }, u.token);
  expect(r.status).toBe(201);
  return r.json.variations.at(-1).id as string;
}

const invoiceCount = async (accountId: string): Promise<number> =>
  Number((await t.deps.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM documents_list WHERE account_id = $1 AND type = 'invoice'", [accountId]))[0]?.n);

describe('a variation after the client accepted the quote', () => {
  it('is sent, shown apart, approved by the client through the link and only then invoiced; the signed quote and its hash never change', async () => {
    const { u, q, token, c, page: signed } = await acceptedQuote();

    // Variation 1: an extra downpipe, $104.35 + GST 15.6525 → $15.65 = $120.00.
    const id = await propose(u, q.id, [line('Extra downpipe', 1, 104.35)], 'The old downpipe is cracked');
    const detail = (await t.get(`/invoices/${q.id}`, u.token)).json;
    expect(detail).toMatchObject({ status: 'accepted', total: 2929.66, variations_summary: 'Accepted $2,929.66 · Variation 1 $120.00 awaiting approval', stages: { quoted: 2929.66, remaining: 2929.66 } });
    expect(detail.line_items.map((l: { description: string }) => l.description)).toEqual(['Hot water cylinder, supplied and fitted', 'Labour']);
    expect(detail.variations).toMatchObject([{ id, name: 'Variation 1', status: 'awaiting_approval', total: 120, gst: 15.65, line_indexes: [2], note: 'The old downpipe is cracked', send_attempts: [] }]);

    // The client's page: the quote as they accepted it, the same hash; the variation apart.
    const shown = (await c.get(`/quotes/${token}`)).json;
    expect(shown.document).toEqual(signed.document);
    expect(shown.shown_sha256).toBe(signed.shown_sha256);
    expect(shown).toMatchObject({ state: 'accepted', acceptance: { signer_name: 'Aroha Ngata', signed: true }, summary: 'Accepted $2,929.66 · Variation 1 $120.00 awaiting approval' });
    expect(shown.variations).toMatchObject([{ id, name: 'Variation 1', status: 'awaiting_approval', total: 120, formatted: { total: '$120.00' }, acceptance: null }]);

    // Invoicing it before the client approves is refused with the reason, and writes nothing.
    const before = await eventTypes(t, documentStreamId(q.id));
    const early = await t.post(`/invoices/${q.id}/stages`, { kind: 'progress', variation_id: id }, u.token);
    expect([early.status, early.json.detail]).toEqual([409, "Variation 1 is awaiting the client's approval: it can be invoiced once they approve it."]);
    const byLine = await t.post(`/invoices/${q.id}/stages`, { kind: 'progress', lines: [{ line_index: 2, percent: 100 }] }, u.token);
    expect([byLine.status, byLine.json.detail]).toEqual([409, "Line 3 is part of Variation 1, which is awaiting the client's approval: it can be invoiced once they approve it."]);
    expect(await eventTypes(t, documentStreamId(q.id))).toEqual(before);
    expect(await invoiceCount(u.userId)).toBe(0);

    // Sent: the email carries the quote's link (the same one: it keeps working) and the PDF.
    const sent = await t.post(`/invoices/${q.id}/variations/${id}/send`, undefined, u.token);
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ id: q.id, variation_id: id, to: ['aroha@example.nz'], outcome: 'delivered', detail: null });
    const mail = t.mailer.sent.at(-1)!;
    expect(mail.subject).toBe(`Variation 1 to quote ${q.reference} from Rata Plumbing Ltd`);
    expect(mail.text).toContain('Extra downpipe: $104.35');
    expect(mail.text).toContain('Variation 1 total: $120.00 incl. GST ($15.65 GST)');
    expect(mail.text).toContain(`Approve or decline it online: http://app.test/q/${token}`);
    const attached = pdfText(mail.attachments?.[0]?.content as Buffer).replace(/\s+/g, ' ');
    expect(attached).toContain('Variation 1 — Awaiting approval');
    expect(attached).toContain("Awaiting the client's approval: it is not part of what is agreed until they approve it");
    expect((await t.get(`/invoices/${q.id}`, u.token)).json.variations[0].send_attempts).toMatchObject([{ to: ['aroha@example.nz'], outcome: 'delivered' }]);

    // A page changed under the client is refused; then they approve it, signed.
    const stale = await c.post(`/quotes/${token}/variations/${id}/accept`, { signer_name: 'Aroha Ngata', shown_sha256: 'f'.repeat(64) });
    expect([stale.status, stale.json.detail]).toEqual([409, CLIENT_LINK_MESSAGES.variationChanged]);
    const v = shown.variations[0];
    const approved = await c.post(`/quotes/${token}/variations/${id}/accept`, { signer_name: ' Aroha Ngata ', signature_png: signaturePng(), shown_sha256: v.shown_sha256 });
    expect(approved.status).toBe(200);
    expect(approved.json.shown_sha256).toBe(signed.shown_sha256);
    expect(approved.json).toMatchObject({ summary: 'Accepted $2,929.66 · Variation 1 $120.00 approved', variations: [{ status: 'approved', acceptance: { signer_name: 'Aroha Ngata', signed: true } }] });
    // A double tap: the same page, nothing new.
    const events = await eventTypes(t, documentStreamId(q.id));
    expect((await c.post(`/quotes/${token}/variations/${id}/accept`, { signer_name: 'Aroha Ngata', shown_sha256: v.shown_sha256 })).json).toEqual(approved.json);
    expect(await eventTypes(t, documentStreamId(q.id))).toEqual(events);
    const recorded = (await t.deps.store.readStream(documentStreamId(q.id))).events.find((e) => e.type === 'VariationAcceptedByClient')!;
    expect(recorded.data).toMatchObject({ variationId: id, signerName: 'Aroha Ngata', shownSha256: v.shown_sha256, ip: c.ip, linkId: expect.any(String) });
    // The tradie hears of it.
    expect(ownerMails(u).map((m) => m.subject)).toContain(`Variation 1 to quote ${q.reference} approved by Aroha Ngata`);

    const after = (await t.get(`/invoices/${q.id}`, u.token)).json;
    expect(after).toMatchObject({ total: 2929.66, stages: { quoted: 3049.66 }, variations: [{ status: 'approved', approved_by: 'client', signer_name: 'Aroha Ngata', signed: true, remaining: 120 }] });

    // Invoiced now: the variation alone, $120.00, named after it.
    const stage = await t.post(`/invoices/${q.id}/stages`, { kind: 'progress', variation_id: id }, u.token);
    expect(stage.status).toBe(201);
    expect(stage.json).toMatchObject({ total: 120, gst: 15.65, line_items: [{ description: 'Progress (100 % of the line): Variation 1: Extra downpipe', unit_price: 120, tax_included: true }] });
    expect((await t.get(`/invoices/${q.id}`, u.token)).json).toMatchObject({ stages: { quoted: 3049.66, invoiced: 120, remaining: 2929.66 }, variations: [{ invoiced: 120, remaining: 0 }] });
    const again = await t.post(`/invoices/${q.id}/stages`, { kind: 'progress', variation_id: id }, u.token);
    expect([again.status, again.json.detail]).toEqual([409, 'Variation 1 is invoiced in full already.']);

    // The quote's PDF: what was signed, then the variation with where it stands, the total agreed,
    // and a certificate each for the quote and the variation.
    const pdf = await t.app.request(`/api/v1/public/quotes/${token}/pdf`, {}, { remoteAddress: c.ip });
    const text = pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/\s+/g, ' ');
    const at = (s: string): number => {
      const i = text.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    expect(at('Total (incl. GST) $2,929.66')).toBeLessThan(at('Variations'));
    expect(at('Variation 1 — Approved $120.00')).toBeGreaterThan(at('Variations'));
    at('Approved by Aroha Ngata on');
    at('(signed)');
    at('Quote as accepted $2,929.66');
    at('Approved variations $120.00');
    at('Agreed in all (incl. GST) $3,049.66');
    expect(at('Acceptance certificate: Variation 1')).toBeGreaterThan(at('Acceptance certificate '));
    at(`Variation 1 to quote ${q.reference}`);
    at(v.shown_sha256);
  });

  it('the client declines one, the business withdraws another: neither is invoiced, and answers come once', async () => {
    const { u, q, token, c } = await acceptedQuote();
    const gutter = await propose(u, q.id, [line('Gutter guard', 20, 12.5)]);
    const paint = await propose(u, q.id, [line('Paint the fascia', 1, 300)]);
    const page = (await c.get(`/quotes/${token}`)).json;
    const declined = await c.post(`/quotes/${token}/variations/${gutter}/decline`, { note: 'Not this year' });
    expect(declined.status).toBe(200);
    expect(declined.json.variations.find((x: { id: string }) => x.id === gutter)).toMatchObject({ status: 'declined', declined_at: expect.any(String) });
    expect(ownerMails(u).map((m) => m.subject)).toContain(`Variation 1 to quote ${q.reference} declined`);
    const twice = await c.post(`/quotes/${token}/variations/${gutter}/accept`, { signer_name: 'Aroha Ngata', shown_sha256: page.variations[0].shown_sha256 });
    expect([twice.status, twice.json.detail]).toEqual([409, CLIENT_LINK_MESSAGES.variationAnswered]);

    expect((await t.post(`/invoices/${q.id}/variations/${paint}/withdraw`, undefined, u.token)).json.variations[1]).toMatchObject({ status: 'withdrawn' });
    expect((await c.get(`/quotes/${token}`)).json.variations.map((x: { id: string }) => x.id)).toEqual([gutter]);
    expect((await c.post(`/quotes/${token}/variations/${paint}/accept`, { signer_name: 'A', shown_sha256: 'a'.repeat(64) })).status).toBe(404);

    const refused = await t.post(`/invoices/${q.id}/stages`, { kind: 'progress', variation_id: gutter }, u.token);
    expect([refused.status, refused.json.detail]).toEqual([409, "Variation 1 was declined, so it can't be invoiced."]);
    // The final invoice takes the quote as accepted: $2,929.66, nothing of either variation.
    const final = await t.post(`/invoices/${q.id}/stages`, { kind: 'final' }, u.token);
    expect(final.json.total).toBe(2929.66);
    const timeline = (await t.get(`/invoices/${q.id}/timeline`, u.token)).json.entries.map((e: { kind: string; text: string }) => [e.kind, e.text]);
    expect(timeline).toContainEqual(['variation', 'Variation 1 proposed: $287.50']);
    expect(timeline).toContainEqual(['variation_declined', 'Variation 1 declined by the client — Not this year']);
    expect(timeline).toContainEqual(['variation_withdrawn', 'Variation 2 withdrawn']);
  });

  it("refuses what cannot be right: a quote not accepted, another account's variation, an unknown one", async () => {
    const { u, q } = await acceptedQuote();
    const other = await signUp(t, 'Someone Else');
    const id = await propose(u, q.id, [line('Extra downpipe', 1, 104.35)]);
    for (const r of [
      await t.post(`/invoices/${q.id}/variations/${id}/approve`, undefined, other.token),
      await t.post(`/invoices/${q.id}/variations/${id}/send`, undefined, other.token),
      await t.post(`/invoices/${q.id}/variations/nope/approve`, undefined, u.token),
      await t.post(`/invoices/${q.id}/variations/nope/send`, undefined, u.token),
    ]) {
      expect(r.status).toBe(404);
    }
    expect((await t.post(`/invoices/${q.id}/variations`, { lines: [line('Nothing', 0, 10)] }, u.token)).json.detail).toBe('A variation must come to more than $0.00');
    expect((await t.post(`/invoices/${q.id}/variations`, { note: 'no lines' }, u.token)).status).toBe(422);
    const draft = (await t.post('/invoices', { type: 'quote', line_items: [line('Labour', 1, 100)] }, u.token)).json;
    expect((await t.post(`/invoices/${draft.id}/variations`, { lines: [line('More', 1, 5)] }, u.token)).status).toBe(409);
    // Approved on the client's word; then neither the client nor the business answers it again.
    expect((await t.post(`/invoices/${q.id}/variations/${id}/approve`, undefined, u.token)).json.variations[0]).toMatchObject({ status: 'approved', approved_by: 'business' });
    expect((await t.post(`/invoices/${q.id}/variations/${id}/withdraw`, undefined, u.token)).json.detail).toBe('Variation 1 is already approved');
    expect((await t.post(`/invoices/${q.id}/variations/${id}/send`, undefined, u.token)).json.detail).toBe('Variation 1 is already approved');
    // A varied quote is invoiced by stages, not converted whole.
    expect((await t.post(`/invoices/${q.id}/convert`, undefined, u.token)).json.detail).toBe('This quote has Variation 1. Invoice it with a final invoice instead: it takes the quote and its approved variations.');
  });
});
