import { describe, expect, it } from 'vitest';
import { GST_NUMBER_WARNING, NZBN_WARNING } from '@tradie/domain';
import type { BusinessSettingsRecord } from '@tradie/contracts';
import { formFromRecord, logoTooLarge, numberProblems, SAVED_FIELDS, settingsBody, visibleWarnings } from './settingsForm.ts';

const record: BusinessSettingsRecord = {
  business_name: 'Ngata Plumbing',
  trading_as: '',
  abn: '',
  nzbn: '9429041234563',
  gst_number: '123-456-789',
  phone: '021 555 0101',
  email: 'office@ngata.example.nz',
  website: '',
  address: '1 Queen Street',
  city: 'Auckland',
  postcode: '1010',
  logo_url: '/business-settings/logo?v=1',
  bank_name: 'ASB',
  bank_account_name: 'Ngata Plumbing Ltd',
  bank_account_number: '12-3456-7890123-00',
  email_signature: 'Cheers, Aroha',
  quote_terms: 'A 30% deposit is due on acceptance.',
  default_email_subject: 'Invoice from [Business Name]',
  default_email_message: 'Hi [Client Name]',
  cc_email: '',
  bcc_email: '',
  default_currency: 'NZD',
  enable_multi_currency: false,
  gst_rounding: 'total',
  gst_rounding_next: null,
  gst_filing_months: 2,
  margin_basis: 'markup',
  gst_registered: true,
  warnings: [{ field: 'gst_number', message: GST_NUMBER_WARNING }],
};

describe('settings form', () => {
  it('the PUT body carries every business setting except logo_url, with NZD and no multi-currency', () => {
    const body = settingsBody({ ...formFromRecord(record), city: 'Hamilton' });
    expect(Object.keys(body).sort()).toEqual([...SAVED_FIELDS, 'default_currency', 'enable_multi_currency'].sort());
    expect(body).not.toHaveProperty('logo_url');
    expect(body).not.toHaveProperty('warnings');
    expect(body.city).toBe('Hamilton');
    // Fields with no input on the screen are sent back as loaded, not cleared.
    expect(body.email_signature).toBe('Cheers, Aroha');
    expect(body.quote_terms).toBe('A 30% deposit is due on acceptance.');
    expect(body.phone).toBe('021 555 0101');
    expect(body.default_currency).toBe('NZD');
    expect(body.enable_multi_currency).toBe(false);
  });

  it("shows the server's warning while the value is as saved, and the domain check on what is typed", () => {
    const form = formFromRecord(record);
    expect(visibleWarnings(form, record)).toEqual([{ field: 'gst_number', message: GST_NUMBER_WARNING }]);
    // A valid GST number typed (49-091-850 passes the IRD check): the warning goes.
    expect(visibleWarnings({ ...form, gst_number: '49-091-850' }, record)).toEqual([]);
    // A bad NZBN typed: warned before saving.
    expect(visibleWarnings({ ...form, gst_number: '49-091-850', nzbn: '9429041234568' }, record)).toEqual([{ field: 'nzbn', message: NZBN_WARNING }]);
  });

  it('refuses logos over 2 MB (2 × 1024 × 1024 bytes) only', () => {
    expect(logoTooLarge({ size: 2 * 1024 * 1024 })).toBe(false);
    expect(logoTooLarge({ size: 2 * 1024 * 1024 + 1 })).toBe(true);
  });
});

describe('numbers refused by a save', () => {
  it("reads the 422's field errors with the value that was sent, and nothing else", () => {
    const sent = { ...formFromRecord(record), bank_account_number: '12345', gst_number: '49091851' };
    const refused = {
      status: 422,
      body: {
        detail: 'Please check the 2 numbers marked below before saving.',
        code: 'check_numbers',
        errors: [
          { field: 'bank_account_number', message: 'bad bank', keepable: false },
          { field: 'gst_number', message: 'bad gst', keepable: true },
          { field: 'business_name', message: 'not a number field', keepable: true },
        ],
      },
    };
    expect(numberProblems(refused, sent)).toEqual([
      { field: 'bank_account_number', message: 'bad bank', keepable: false, value: '12345' },
      { field: 'gst_number', message: 'bad gst', keepable: true, value: '49091851' },
    ]);
    expect(numberProblems({ status: 422, body: { detail: 'x', errors: [] } }, sent)).toEqual([]);
    expect(numberProblems({ status: 500, body: refused.body }, sent)).toEqual([]);
  });

  it('sends the numbers kept as typed, and no list when none are', () => {
    expect(settingsBody(formFromRecord(record), ['nzbn']).keep_as_entered).toEqual(['nzbn']);
    expect(settingsBody(formFromRecord(record))).not.toHaveProperty('keep_as_entered');
  });
});
