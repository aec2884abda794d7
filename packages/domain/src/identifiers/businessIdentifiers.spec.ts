import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BANK_ACCOUNT_KEPT_WARNING, BUSINESS_IDENTIFIER_MESSAGES, businessIdentifierWarnings, checkBusinessIdentifiers, CHECKED_BUSINESS_FIELDS } from './businessIdentifiers.ts';
import { BANK_ACCOUNT_MESSAGES } from './nzBankAccount.ts';
import { GST_NUMBER_WARNING } from './nzIdentifiers.ts';

describe("the business's own numbers before they are saved", () => {
  it('passes valid and blank numbers, writing a valid bank account the usual way', () => {
    expect(checkBusinessIdentifiers({ gst_number: '49-091-850', nzbn: '9429041234563', bank_account_number: '12 3140 0171323 50' })).toEqual({ errors: [], bankAccountNumber: '12-3140-0171323-50' });
    expect(checkBusinessIdentifiers({ gst_number: '', nzbn: undefined, bank_account_number: '' })).toEqual({ errors: [], bankAccountNumber: '' });
  });

  it("refuses '12345' as a bank account, and a check digit that fails, even when asked to keep them", () => {
    const keepAll = [...CHECKED_BUSINESS_FIELDS];
    expect(checkBusinessIdentifiers({ bank_account_number: '12345' }, keepAll).errors).toEqual([{ field: 'bank_account_number', message: BANK_ACCOUNT_MESSAGES.format, keepable: false }]);
    expect(checkBusinessIdentifiers({ bank_account_number: '01-0242-0100195-00' }, keepAll).errors).toEqual([{ field: 'bank_account_number', message: BANK_ACCOUNT_MESSAGES.checksum, keepable: false }]);
  });

  it('an unknown branch, a bad GST number or a bad NZBN is an error until the tradie keeps it', () => {
    const input = { gst_number: '49091851', nzbn: '9429041234560', bank_account_number: '02-2030-0123456-00' };
    expect(checkBusinessIdentifiers(input).errors).toEqual([
      { field: 'gst_number', message: BUSINESS_IDENTIFIER_MESSAGES.gstNumber, keepable: true },
      { field: 'nzbn', message: BUSINESS_IDENTIFIER_MESSAGES.nzbn, keepable: true },
      { field: 'bank_account_number', message: BANK_ACCOUNT_MESSAGES.branch, keepable: true },
    ]);
    expect(checkBusinessIdentifiers(input, ['gst_number', 'bank_account_number']).errors.map((e) => e.field)).toEqual(['nzbn']);
    expect(checkBusinessIdentifiers(input, ['gst_number', 'nzbn', 'bank_account_number'])).toEqual({ errors: [], bankAccountNumber: '02-2030-0123456-00' });
  });

  it('keeping a field lifts only that field, and never an error that cannot be kept (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), fc.string({ maxLength: 24 }), fc.string({ maxLength: 24 }), fc.subarray([...CHECKED_BUSINESS_FIELDS]), (gst, nzbn, bank, keep) => {
        const input = { gst_number: gst, nzbn, bank_account_number: bank };
        const all = checkBusinessIdentifiers(input).errors;
        const kept = checkBusinessIdentifiers(input, keep).errors;
        expect(kept).toEqual(all.filter((e) => !(e.keepable && keep.includes(e.field))));
      }),
    );
  });

  it('warns about numbers saved as typed', () => {
    expect(businessIdentifierWarnings({ gst_number: '49091851', nzbn: '', bank_account_number: '02-2030-0123456-00' })).toEqual([
      { field: 'gst_number', message: GST_NUMBER_WARNING },
      { field: 'bank_account_number', message: BANK_ACCOUNT_KEPT_WARNING },
    ]);
    expect(businessIdentifierWarnings({ gst_number: '', nzbn: '', bank_account_number: '12-3140-0171323-50' })).toEqual([]);
  });
});
