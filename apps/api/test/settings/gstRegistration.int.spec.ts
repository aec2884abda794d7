// 'Registered for GST' in the business settings, through the HTTP app on PGlite: a business that is
// not registered charges no GST and its invoices are titled 'Invoice' on every surface (the detail,
// the PDF, the email, the client's page, the GST report); a registered one without its GST number
// sends nothing, with the reason; a document already issued keeps the GST it was issued with; and
// businesses saved before the setting existed read as what they did (docs/decisions/0023).
import { SETTINGS_MESSAGES } from '@tradie/contracts';
import { GST_REGISTRATION_MESSAGES, documentStreamId } from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/documents/repository.ts';
import { deliver } from '../../src/reminders/sender.ts';
import { publicClient } from '../clientLinks/support.ts';
import { addClient, line, pdfText, setSettings } from '../documents/support.ts';
import { TEST_GST_NUMBER, signUp, useTestApp, type TestApp } from '../support/testApp.ts';
import { statusOf } from '../../src/http/problem.ts';

const squash = (s: string): string => s.replace(/\s+/g, ' ');

async function pdfOf(t: TestApp, token: string, id: string): Promise<string> {
  const r = await t.app.request(`/api/v1/invoices/${id}/pdf`, { headers: { Authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  return squash(pdfText(new Uint8Array(await r.arrayBuffer())));
}

async function eventCount(t: TestApp, id: string): Promise<number> {
  return (await t.deps.store.readStream(documentStreamId(id))).events.length;
}

/** A business with a client; `registered` as its settings say. */
async function business(t: TestApp, settings: { gst_registered: boolean; gst_number: string }) {
  const u = await signUp(t, 'Sam Tūhoe', { gst: 'new' });
  const put = await t.put('/business-settings', { business_name: 'Sole Trader Sam', ...settings }, u.token);
  expect(put.status).toBe(200);
  const clientId = await addClient(t, u.userId, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
  const invoice = async (lines = [line('Fence', 10, 55), line('Gate', 1, 115, { tax_included: true })]) => {
    const r = await t.post('/invoices', { type: 'invoice', client_id: clientId, line_items: lines }, u.token);
    expect(r.status).toBe(201);
    return r.json;
  };
  return { u, clientId, invoice };
}

describe("a business that isn't registered for GST", () => {
  const t = useTestApp();

  it('charges no GST and titles its invoice Invoice: on the detail, the PDF, the email, the client’s page and the GST report', async () => {
    const { u, invoice } = await business(t, { gst_registered: false, gst_number: '' });
    const inv = await invoice();
    // 10 × $55 + $115 (typed as GST-inclusive, but there is no GST to include): $665.00.
    expect(inv).toMatchObject({ title: 'Invoice', gst_registered: false, subtotal: 665, gst: 0, total: 665, formatted: { gst: '$0.00', total: '$665.00' } });
    expect(inv.line_items.map((l: { tax_rate: number; tax_included: boolean; gst: number }) => [l.tax_rate, l.tax_included, l.gst])).toEqual([[0, false, 0], [0, false, 0]]);

    const pdf = await pdfOf(t, u.token, inv.id);
    expect(pdf).toContain('Invoice INV-0001');
    expect(pdf).not.toMatch(/Tax Invoice/i);
    expect(pdf).not.toMatch(/GST 15%|GST number|incl\. GST|excl\. GST/);
    expect(pdf).toContain('Not registered for GST: no GST is charged.');
    expect(pdf).toContain('$665.00');

    const sent = await t.post(`/invoices/${inv.id}/send`, undefined, u.token);
    expect(sent.status).toBe(200);
    const mail = t.mailer.sent.at(-1)!;
    expect(mail.subject).toBe('Invoice from Sole Trader Sam');
    expect(mail.text).not.toMatch(/GST|tax invoice/i);
    const token = /\/i\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const page = (await publicClient(t).get(`/invoices/${token}`)).json;
    expect(page.document).toMatchObject({ title: 'Invoice', gst_registered: false, gst: 0, total: 665 });

    const report = (await t.get('/reports/gst?start_date=2026-05-01&end_date=2026-05-31&basis=invoice', u.token)).json;
    expect(report).toMatchObject({ total_sales: 665, total_gst_collected: 0, invoice_count: 1 });
    expect(report.gst_return.box8).toBe(0);
  });

  it('its quotes are Quotes without GST, and what it changes later carries none either', async () => {
    const { u, clientId } = await business(t, { gst_registered: false, gst_number: '' });
    const q = (await t.post('/invoices', { type: 'quote', client_id: clientId, line_items: [line('Heat pump', 1, 2400)] }, u.token)).json;
    expect(q).toMatchObject({ title: 'Quote', gst_registered: false, gst: 0, total: 2400 });
    const revised = await t.put(`/invoices/${q.id}`, { line_items: [line('Heat pump', 1, 2400), line('Wiring', 2, 50)] }, u.token);
    expect(revised.json).toMatchObject({ gst: 0, total: 2500 });
    const pdf = await pdfOf(t, u.token, q.id);
    expect(pdf).toContain('Quote QTE-0001');
    expect(pdf).not.toMatch(/GST 15%|incl\. GST/);
  });
});

describe('a business registered for GST without its GST number', () => {
  const t = useTestApp();

  it('sends nothing, hands nothing over and shares no link, saying why; with the number it goes as a tax invoice', async () => {
    const { u, invoice } = await business(t, { gst_registered: true, gst_number: '' });
    const inv = await invoice();
    expect(inv).toMatchObject({ title: 'Tax invoice', gst_registered: true, gst: 97.5 }); // 550 × 15 % + 115 × 3/23
    const before = await eventCount(t, inv.id);

    for (const r of [await t.post(`/invoices/${inv.id}/send`, undefined, u.token), await t.post(`/invoices/${inv.id}/issue`, undefined, u.token), await t.post(`/invoices/${inv.id}/link`, undefined, u.token)]) {
      expect(r.status).toBe(422);
      expect(r.json.detail).toBe(GST_REGISTRATION_MESSAGES.noNumber);
    }
    expect(t.mailer.sent).toHaveLength(0);
    expect(await eventCount(t, inv.id)).toBe(before);
    expect((await t.get(`/invoices/${inv.id}`, u.token)).json.status).toBe('draft');

    const settings = await t.put('/business-settings', { gst_number: TEST_GST_NUMBER }, u.token);
    expect(settings.json.warnings).toEqual([]);
    expect((await t.post(`/invoices/${inv.id}/send`, undefined, u.token)).status).toBe(200);
    const pdf = await pdfOf(t, u.token, inv.id);
    expect(pdf).toContain('Tax Invoice INV-0001');
    expect(pdf).toContain('GST number 49-091-850');
  });

  it('is told so in the settings', async () => {
    const { u } = await business(t, { gst_registered: true, gst_number: '' });
    expect((await t.get('/business-settings', u.token)).json.warnings).toEqual([{ field: 'gst_number', message: SETTINGS_MESSAGES.gstNumberNeeded }]);
    expect((await t.put('/business-settings', { gst_registered: false }, u.token)).json.warnings).toEqual([]);
    expect((await t.put('/business-settings', { gst_registered: 'yes' }, u.token)).status).toBe(422);
  });
});

describe('every door that gives the client a document holds the registration', () => {
  const t = useTestApp();

  /** A registered business with an accepted quote and a variation of it, and a tax invoice sent and credited in part. */
  async function sideDoors() {
    const b = await business(t, { gst_registered: true, gst_number: TEST_GST_NUMBER });
    const { u, clientId } = b;
    const q = (await t.post('/invoices', { type: 'quote', client_id: clientId, line_items: [line('Heat pump', 1, 2400)] }, u.token)).json;
    expect((await t.post(`/invoices/${q.id}/accept`, undefined, u.token)).status).toBe(200);
    const varied = await t.post(`/invoices/${q.id}/variations`, { lines: [line('Extra bracket', 1, 80)], note: '' }, u.token);
    expect(varied.status).toBe(201);
    const variationId = varied.json.variations.at(-1).id as string;
    const inv = await b.invoice();
    expect((await t.post(`/invoices/${inv.id}/send`, undefined, u.token)).status).toBe(200);
    const cn = await t.post(`/invoices/${inv.id}/credit-notes`, { amount: '50.00', reason: 'Gate not needed' }, u.token);
    expect(cn.status).toBe(201);
    return { u, q, variationId, inv, creditNoteId: cn.json.id as string };
  }

  it('without the GST number: the variation, the credit note, a reminder by hand, the quote’s link and the invoice go nowhere, with the reason, and nothing is recorded; with it back, each goes', async () => {
    const { u, q, variationId, inv, creditNoteId } = await sideDoors();
    const mailed = t.mailer.sent.length;
    const events = [await eventCount(t, q.id), await eventCount(t, inv.id)];
    await t.put('/business-settings', { gst_number: '' }, u.token);

    const doors = {
      variation: await t.post(`/invoices/${q.id}/variations/${variationId}/send`, undefined, u.token),
      creditNote: await t.post(`/credit-notes/${creditNoteId}/send`, undefined, u.token),
      reminder: await t.post(`/reminders/invoices/${inv.id}/send-now`, undefined, u.token),
      quoteLink: await t.post(`/invoices/${q.id}/link`, undefined, u.token),
      invoice: await t.post(`/invoices/${inv.id}/send`, undefined, u.token),
    };
    for (const r of Object.values(doors)) expect([r.status, r.json.detail]).toEqual([422, GST_REGISTRATION_MESSAGES.noNumber]);
    // The invoice's 'Send reminder now' is off, saying why.
    expect((await t.get(`/reminders/invoices/${inv.id}`, u.token)).json.send_now).toMatchObject({ allowed: false, reason: GST_REGISTRATION_MESSAGES.noNumber });
    expect(t.mailer.sent).toHaveLength(mailed);
    expect([await eventCount(t, q.id), await eventCount(t, inv.id)]).toEqual(events);

    await t.put('/business-settings', { gst_number: TEST_GST_NUMBER }, u.token);
    expect((await t.post(`/invoices/${q.id}/variations/${variationId}/send`, undefined, u.token)).status).toBe(200);
    expect((await t.post(`/credit-notes/${creditNoteId}/send`, undefined, u.token)).status).toBe(200);
    expect((await t.post(`/reminders/invoices/${inv.id}/send-now`, undefined, u.token)).status).toBe(200);
    expect(t.mailer.sent).toHaveLength(mailed + 3);
  });

  it('an automatic reminder is held, not sent, while the number is missing', async () => {
    const { u, inv } = await sideDoors();
    await t.put('/business-settings', { gst_number: '' }, u.token);
    const mailed = t.mailer.sent.length;
    const loaded = await loadDocument(t.deps.store, u.userId, inv.id);
    const step = { id: 'due', offset_days: 0, subject: 'Invoice [Invoice Number] is due', message: 'Kia ora [Client Name]' };
    const held = await deliver(t.deps, u.userId, loaded.state, step, ['hemi@example.nz'], 0);
    expect(held).toMatchObject({ kind: 'held', refusal: { detail: GST_REGISTRATION_MESSAGES.noNumber } });
    expect(held.kind === 'held' && statusOf(held.refusal)).toBe(422);
    expect(t.mailer.sent).toHaveLength(mailed);
  });
});

describe('a business not registered for GST: its variations and credit notes', () => {
  const t = useTestApp();

  it('carry no GST and name none: the variation’s figures and email, the credit note’s figures, PDF and email', async () => {
    const { u, clientId, invoice } = await business(t, { gst_registered: false, gst_number: '' });
    const q = (await t.post('/invoices', { type: 'quote', client_id: clientId, line_items: [line('Heat pump', 1, 2400)] }, u.token)).json;
    expect((await t.post(`/invoices/${q.id}/accept`, undefined, u.token)).status).toBe(200);
    const varied = await t.post(`/invoices/${q.id}/variations`, { lines: [line('Extra bracket', 1, 80), line('Bolts', 1, 23, { tax_included: true })], note: '' }, u.token);
    expect(varied.json.variations.at(-1)).toMatchObject({ subtotal: 103, gst: 0, total: 103 });
    const vSent = await t.post(`/invoices/${q.id}/variations/${varied.json.variations.at(-1).id}/send`, undefined, u.token);
    expect(vSent.status).toBe(200);
    expect(t.mailer.sent.at(-1)!.text).not.toMatch(/GST/);
    const quotePdf = await pdfOf(t, u.token, q.id);
    expect(quotePdf).toContain('Variation 1 — Awaiting approval $103.00');
    expect(quotePdf).toContain('Agreed in all $2,400.00');
    expect(quotePdf).not.toMatch(/incl\. GST|excl\. GST|GST 15%/);

    const inv = await invoice();
    expect((await t.post(`/invoices/${inv.id}/send`, undefined, u.token)).status).toBe(200);
    const cn = await t.post(`/invoices/${inv.id}/credit-notes`, { amount: '50.00', reason: 'Gate not needed' }, u.token);
    expect(cn.json).toMatchObject({ subtotal: 50, gst: 0, total: 50, supplier: { gst_number: '' } });
    const pdf = await t.app.request(`/api/v1/credit-notes/${cn.json.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } });
    expect(pdf.status).toBe(200);
    const text = squash(pdfText(new Uint8Array(await pdf.arrayBuffer())));
    expect(text).toContain('Credit note');
    expect(text).not.toMatch(/Tax credit note|GST number|incl\. GST|excl\. GST|GST credited/i);
    expect(text).toContain('Credit of $50.00 on INV-0001');
    expect(text).toContain('Total credit (no GST: not registered) $50.00');
    expect((await t.post(`/credit-notes/${cn.json.id}/send`, undefined, u.token)).status).toBe(200);
    expect(t.mailer.sent.at(-1)!.text).not.toMatch(/GST/);
  });
});

describe('changing registration', () => {
  const t = useTestApp();

  it('a draft saved under the other registration is refused until it is saved again; then it carries what the business may charge', async () => {
    const { u, invoice } = await business(t, { gst_registered: false, gst_number: '' });
    const inv = await invoice();
    await t.put('/business-settings', { gst_registered: true, gst_number: TEST_GST_NUMBER }, u.token);
    const refused = await t.post(`/invoices/${inv.id}/send`, undefined, u.token);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(GST_REGISTRATION_MESSAGES.registeredSince('invoice'));
    const saved = await t.put(`/invoices/${inv.id}`, { line_items: [line('Fence', 10, 55), line('Gate', 1, 115, { tax_included: true })] }, u.token);
    expect(saved.json).toMatchObject({ title: 'Tax invoice', gst_registered: true, gst: 97.5, total: 747.5 });
    expect((await t.post(`/invoices/${inv.id}/send`, undefined, u.token)).status).toBe(200);
  });

  it('an issued tax invoice keeps its GST and its title after the business stops being registered', async () => {
    const { u, invoice } = await business(t, { gst_registered: true, gst_number: TEST_GST_NUMBER });
    const inv = await invoice();
    expect((await t.post(`/invoices/${inv.id}/issue`, undefined, u.token)).status).toBe(200);
    await t.put('/business-settings', { gst_registered: false }, u.token);
    const after = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(after).toMatchObject({ title: 'Tax invoice', gst_registered: true, gst: 97.5, total: 747.5 });
    const pdf = await pdfOf(t, u.token, inv.id);
    expect(pdf).toContain('Tax Invoice INV-0001');
    expect(pdf).toContain('$97.50');
    // A new invoice now carries none.
    expect(await invoice()).toMatchObject({ title: 'Invoice', gst: 0 });
  });
});

describe('businesses whose settings were saved before registration was asked', () => {
  const t = useTestApp();

  async function legacy(fields: Record<string, string>) {
    const u = await signUp(t, 'Legacy Lee', { gst: 'new' });
    await setSettings(t, u.userId, { business_name: 'Legacy Lee Ltd', ...fields });
    await t.deps.store.db.query('UPDATE business_settings SET gst_registered = NULL WHERE account_id = $1', [u.userId]);
    return u;
  }
  const registered = async (token: string): Promise<boolean> => (await t.get('/business-settings', token)).json.gst_registered;

  it('read as registered with a GST number, and with GST charged on a document; otherwise not', async () => {
    expect(await registered((await legacy({ gst_number: TEST_GST_NUMBER })).token)).toBe(true);

    const charged = await legacy({});
    // Not registered as read now (no number, nothing charged): a document made now carries no GST.
    expect(await registered(charged.token)).toBe(false);
    expect((await t.post('/invoices', { type: 'invoice', line_items: [line('Fence', 1, 100)] }, charged.token)).json.gst).toBe(0);
    // GST charged before the setting existed: registered.
    await t.deps.store.db.query('UPDATE documents_list SET gst_cents = 1500 WHERE account_id = $1', [charged.userId]);
    expect(await registered(charged.token)).toBe(true);
  });

  it('is written down on the next save, so it never changes unasked', async () => {
    const u = await legacy({ gst_number: TEST_GST_NUMBER });
    await t.put('/business-settings', { city: 'Napier' }, u.token);
    const [row] = await t.deps.store.db.query<{ gst_registered: boolean | null }>('SELECT gst_registered FROM business_settings WHERE account_id = $1', [u.userId]);
    expect(row?.gst_registered).toBe(true);
    const none = await legacy({});
    await t.put('/business-settings', { city: 'Napier' }, none.token);
    const [row2] = await t.deps.store.db.query<{ gst_registered: boolean | null }>('SELECT gst_registered FROM business_settings WHERE account_id = $1', [none.userId]);
    expect(row2?.gst_registered).toBe(false);
  });
});
