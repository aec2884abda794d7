// GET/PUT /business-settings through the HTTP app on PGlite: defaults, round trip, partial
// saves, validation, check-digit and GST-rounding warnings, tenant isolation.
import { BANK_ACCOUNT_KEPT_WARNING, BANK_ACCOUNT_MESSAGES, BUSINESS_IDENTIFIER_MESSAGES, GST_NUMBER_WARNING, NZBN_WARNING } from '@tradie/domain';
import { SETTINGS_MESSAGES } from '@tradie/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_MESSAGE, DEFAULT_EMAIL_SUBJECT } from '../../src/settings/repository.ts';
import { signUp, useTestApp } from '../support/testApp.ts';

const FULL = {
  business_name: 'Tamihana Electrical Ltd',
  trading_as: 'Sparky Tamihana',
  abn: '',
  nzbn: '9429041234563',
  gst_number: '49-091-850',
  phone: '021 123 4567',
  email: 'office@sparky.co.nz',
  website: 'https://sparky.co.nz',
  address: '12 Kauri Street',
  city: 'Whangārei',
  postcode: '0110',
  bank_name: 'ANZ',
  bank_account_name: 'Tamihana Electrical Ltd',
  bank_account_number: '01-0123-0123457-00',
  email_signature: 'Ngā mihi,\nAroha',
  quote_terms: 'A 30% deposit is due before work starts.',
  default_email_subject: 'Invoice [Invoice Number] from [Business Name]',
  default_email_message: 'Kia ora [Client Name],\n\nInvoice [Invoice Number] is attached.\n\n[Your Name]',
  cc_email: 'books@sparky.co.nz',
  bcc_email: 'archive@sparky.co.nz',
  default_currency: 'NZD',
  enable_multi_currency: false,
  gst_rounding: 'total',
  gst_rounding_next: null,
  gst_filing_months: 2,
  margin_basis: 'margin',
  gst_registered: true,
};

describe('business settings', () => {
  const t = useTestApp();

  it("remembers the calculator's markup-or-margin choice, alone, and refuses anything else", async () => {
    const { token } = await signUp(t);
    const r = await t.put('/business-settings', { margin_basis: 'margin' }, token);
    expect(r.status).toBe(200);
    expect(r.json.margin_basis).toBe('margin');
    expect((await t.get('/business-settings', token)).json.margin_basis).toBe('margin');
    const bad = await t.put('/business-settings', { margin_basis: 'markdown' }, token);
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBe("margin_basis must be 'markup' (on cost) or 'margin' (on price)");
    expect((await t.get('/business-settings', token)).json.margin_basis).toBe('margin');
  });

  it('answers every field with its default for a new account (registered for GST, and asked for the number)', async () => {
    const { token } = await signUp(t, 'Aroha Tamihana', { gst: 'new' });
    const r = await t.get('/business-settings', token);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      business_name: '', trading_as: '', abn: '', nzbn: '', gst_number: '', phone: '', email: '', website: '', address: '', city: '', postcode: '',
      logo_url: '', bank_name: '', bank_account_name: '', bank_account_number: '', email_signature: '', quote_terms: '',
      default_email_subject: 'Invoice from [Business Name]', default_email_message: DEFAULT_EMAIL_MESSAGE,
      cc_email: '', bcc_email: '', default_currency: 'NZD', enable_multi_currency: false, gst_rounding: 'total', gst_rounding_next: null, gst_filing_months: 2, margin_basis: 'markup',
      gst_registered: true, warnings: [{ field: 'gst_number', message: SETTINGS_MESSAGES.gstNumberNeeded }],
    });
    expect(DEFAULT_EMAIL_SUBJECT).toBe('Invoice from [Business Name]');
    expect(r.json.default_email_message).toContain('Hi [Client Name]');
    expect(r.json.default_email_message).toContain('Please find attached invoice [Invoice Number].');
    expect(r.json.default_email_message).toContain('[Your Name]');
  });

  it('needs a signed-in user', async () => {
    expect((await t.get('/business-settings')).status).toBe(401);
    expect((await t.put('/business-settings', FULL)).status).toBe(401);
  });

  it('saves every field and reads them back; logo_url in the body is ignored', async () => {
    const { token } = await signUp(t);
    const put = await t.put('/business-settings', { ...FULL, logo_url: 'https://evil.example/x.png' }, token);
    expect(put.status).toBe(200);
    const { warnings, ...saved } = put.json;
    expect(saved).toEqual({ ...FULL, logo_url: '' });
    expect(warnings).toEqual([]);
    const get = await t.get('/business-settings', token);
    expect(get.json).toEqual(put.json);
  });

  it('keeps the fields a save leaves out, trims text and clears with null', async () => {
    const { token } = await signUp(t);
    await t.put('/business-settings', FULL, token);
    const r = await t.put('/business-settings', { city: '  Tauranga  ', phone: null }, token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ business_name: FULL.business_name, bank_account_number: FULL.bank_account_number, city: 'Tauranga', phone: '' });
  });

  it('goes back to the default subject and message when they are cleared', async () => {
    const { token } = await signUp(t);
    await t.put('/business-settings', FULL, token);
    const r = await t.put('/business-settings', { default_email_subject: '  ', default_email_message: null }, token);
    expect(r.json.default_email_subject).toBe(DEFAULT_EMAIL_SUBJECT);
    expect(r.json.default_email_message).toBe(DEFAULT_EMAIL_MESSAGE);
  });

  it.each([
    [{ cc_email: 'not an email' }, 'CC email must be a valid email address'],
    [{ bcc_email: 'a@' }, 'BCC email must be a valid email address'],
    [{ email: 'office at sparky' }, 'Email must be a valid email address'],
    [{ business_name: 'x'.repeat(201) }, 'Business name must be at most 200 characters'],
    [{ default_email_message: 'x'.repeat(10_001) }, 'Default email message must be at most 10000 characters'],
    [{ phone: 12345 }, 'Phone must be text'],
    [{ default_currency: 'AUD' }, SETTINGS_MESSAGES.currencyNzdOnly],
    [{ enable_multi_currency: true }, SETTINGS_MESSAGES.multiCurrencyComingSoon],
    [{ gst_rounding: 'nearest' }, SETTINGS_MESSAGES.gstRounding],
  ])('refuses %j with a clear detail and saves nothing', async (body, detail) => {
    const { token } = await signUp(t);
    const r = await t.put('/business-settings', { business_name: 'Should not be saved', ...body }, token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe(detail);
    expect((await t.get('/business-settings', token)).json.business_name).toBe('');
  });

  it('takes blank emails, and NZD in any case', async () => {
    const { token } = await signUp(t);
    const r = await t.put('/business-settings', { cc_email: '', bcc_email: ' ', email: '', default_currency: 'nzd' }, token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ cc_email: '', bcc_email: '', email: '', default_currency: 'NZD' });
  });

  it('answers 415 for a body that is not JSON and 400 for broken JSON', async () => {
    const { token } = await signUp(t);
    expect((await t.call('PUT', '/business-settings', { token, body: 'business_name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    expect((await t.call('PUT', '/business-settings', { token, body: '{"business_name":', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
  });

  it('refuses a GST number and NZBN whose check digits fail, by field, saving nothing; kept on purpose they save with warnings', async () => {
    const { token } = await signUp(t);
    const before = (await t.get('/business-settings', token)).json;
    const bad = { business_name: 'Ngaio Plumbing', gst_number: '49-091-851', nzbn: '9429041234560' };
    const r = await t.put('/business-settings', bad, token);
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      detail: BUSINESS_IDENTIFIER_MESSAGES.summary(2),
      code: 'check_numbers',
      errors: [
        { field: 'gst_number', message: BUSINESS_IDENTIFIER_MESSAGES.gstNumber, keepable: true },
        { field: 'nzbn', message: BUSINESS_IDENTIFIER_MESSAGES.nzbn, keepable: true },
      ],
    });
    expect((await t.get('/business-settings', token)).json).toMatchObject({ business_name: before.business_name, gst_number: before.gst_number, nzbn: before.nzbn });

    const kept = await t.put('/business-settings', { ...bad, keep_as_entered: ['gst_number', 'nzbn'] }, token);
    expect(kept.status).toBe(200);
    expect(kept.json).toMatchObject({ business_name: 'Ngaio Plumbing', gst_number: '49-091-851', nzbn: '9429041234560' });
    expect(kept.json.warnings).toEqual([
      { field: 'gst_number', message: GST_NUMBER_WARNING },
      { field: 'nzbn', message: NZBN_WARNING },
    ]);
    expect((await t.get('/business-settings', token)).json.warnings).toEqual(kept.json.warnings);
    // Kept once is kept: saving the other settings again, the same numbers are not refused.
    expect((await t.put('/business-settings', { ...bad, business_name: 'Ngaio Plumbing Ltd' }, token)).status).toBe(200);

    const fixed = await t.put('/business-settings', { gst_number: '49-091-850', nzbn: '9429041234563' }, token);
    expect(fixed.json.warnings).toEqual([]);
  });

  it("refuses '12345' as a bank account (it cannot be kept), and saves a valid one written the usual way", async () => {
    const { token } = await signUp(t);
    const r = await t.put('/business-settings', { bank_account_number: '12345', keep_as_entered: ['bank_account_number'] }, token);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ detail: BANK_ACCOUNT_MESSAGES.format, errors: [{ field: 'bank_account_number', message: BANK_ACCOUNT_MESSAGES.format, keepable: false }] });
    const typo = await t.put('/business-settings', { bank_account_number: '12-3140-0171324-50' }, token);
    expect(typo.status).toBe(422);
    expect(typo.json.errors).toEqual([{ field: 'bank_account_number', message: BANK_ACCOUNT_MESSAGES.checksum, keepable: false }]);
    expect((await t.get('/business-settings', token)).json.bank_account_number).toBe('');

    const ok = await t.put('/business-settings', { bank_account_number: '12 3140 171323 50' }, token);
    expect(ok.status).toBe(200);
    expect(ok.json.bank_account_number).toBe('12-3140-0171323-50');
    expect(ok.json.warnings).toEqual([]);
  });

  it('keeps a bank account on a branch it does not know only when asked, with a warning', async () => {
    const { token } = await signUp(t);
    const unknown = await t.put('/business-settings', { bank_account_number: '02-2030-0123456-00' }, token);
    expect(unknown.status).toBe(422);
    expect(unknown.json.errors).toEqual([{ field: 'bank_account_number', message: BANK_ACCOUNT_MESSAGES.branch, keepable: true }]);
    const kept = await t.put('/business-settings', { bank_account_number: '02-2030-0123456-00', keep_as_entered: ['bank_account_number'] }, token);
    expect(kept.status).toBe(200);
    expect(kept.json.warnings).toEqual([{ field: 'bank_account_number', message: BANK_ACCOUNT_KEPT_WARNING }]);
  });

  it('a GST rounding change waits for the start of the next GST period and says from when; documents until then keep the old method', async () => {
    t.clock.set('2026-05-31T11:55:00.000Z'); // 11:55 pm on 31 May in NZ: the two-monthly period April–May
    const { token } = await signUp(t);
    const same = await t.put('/business-settings', { gst_rounding: 'total' }, token);
    expect(same.json.warnings).toEqual([]);
    expect(same.json.gst_rounding_next).toBeNull();
    const changed = await t.put('/business-settings', { gst_rounding: 'line' }, token);
    expect(changed.status).toBe(200);
    expect(changed.json.gst_rounding).toBe('total');
    const appliesFrom = 'Applies from 1 June 2026, the start of your next GST period';
    expect(changed.json.gst_rounding_next).toEqual({ rounding: 'line', from: '2026-06-01', applies_from: appliesFrom });
    expect(changed.json.warnings).toEqual([{ field: 'gst_rounding', message: appliesFrom }]);
    const again = await t.put('/business-settings', { gst_rounding: 'line', city: 'Napier' }, token);
    expect(again.json.gst_rounding_next).toMatchObject({ rounding: 'line', from: '2026-06-01' });

    const body = { type: 'invoice', client_id: null, line_items: [{ description: 'Fitting', qty: 1, unit_price: 0.1, tax_included: false, tax_rate: 0.15 }] };
    const may = await t.post('/invoices', body, token);
    expect(may.status, may.text).toBe(201);
    expect(may.json).toMatchObject({ gst_rounding: 'total' });

    t.clock.set('2026-05-31T12:00:00.000Z'); // 1 June in NZ: the next period
    const june = await t.post('/invoices', body, token);
    expect(june.status, june.text).toBe(201);
    expect(june.json).toMatchObject({ gst_rounding: 'line' });
    const now = (await t.get('/business-settings', token)).json;
    expect(now.gst_rounding).toBe('line');
    expect(now.gst_rounding_next).toBeNull();
    expect(now.warnings).toEqual([]);
    // The May invoice keeps the method it was made with.
    expect((await t.get(`/invoices/${may.json.id}`, token)).json).toMatchObject({ gst_rounding: 'total' });
  });

  it('asking for the method in use again cancels a waiting change; six-monthly periods start in April and October', async () => {
    t.clock.set('2026-05-04T21:30:00.000Z');
    const { token } = await signUp(t);
    const six = await t.put('/business-settings', { gst_filing_months: 6, gst_rounding: 'line' }, token);
    expect(six.json).toMatchObject({ gst_filing_months: 6, gst_rounding: 'total', gst_rounding_next: { rounding: 'line', from: '2026-10-01' } });
    const back = await t.put('/business-settings', { gst_rounding: 'total' }, token);
    expect(back.json).toMatchObject({ gst_rounding: 'total', gst_rounding_next: null, warnings: [] });
    expect((await t.put('/business-settings', { gst_filing_months: 3 }, token)).status).toBe(422);
  });

  it("keeps each account's settings to itself", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await t.put('/business-settings', { ...FULL, business_name: 'A Ltd' }, a.token);
    await t.put('/business-settings', { business_name: 'B Ltd' }, b.token);
    expect((await t.get('/business-settings', a.token)).json).toMatchObject({ business_name: 'A Ltd', bank_account_number: FULL.bank_account_number });
    expect((await t.get('/business-settings', b.token)).json).toMatchObject({ business_name: 'B Ltd', bank_account_number: '' });
  });
});
