import { describe, expect, it } from 'vitest';
import { CLIENT_FIELDS, labelOf, leftWhenEditing } from './clientFields.ts';
import { emptyClientForm } from './clientForm.ts';

describe('the client form fields', () => {
  it('come in the order the form shows them, each block together', () => {
    expect(CLIENT_FIELDS.map((f) => `${f.section}:${f.name}`)).toEqual([
      'contact:name',
      'contact:email',
      'contact:phone',
      'business:business_name',
      'business:company_number',
      'business:gst_number',
      'more:address',
      'more:default_payment_terms',
      'more:notes',
    ]);
  });

  it('label the name for the client type, and every other field the same way always', () => {
    const name = CLIENT_FIELDS[0]!;
    expect(labelOf(name, emptyClientForm)).toBe('Full Name *');
    expect(labelOf(name, { ...emptyClientForm, is_business: 'true' })).toBe('Contact Name *');
    expect(CLIENT_FIELDS.slice(1).map((f) => labelOf(f, emptyClientForm))).toEqual([
      'Email',
      'Phone',
      'Business/Trading Name',
      'NZBN / Company Number',
      'GST Number',
      'Address',
      'Default Payment Terms',
      'Notes (Internal)',
    ]);
  });

  it('check the digits of the NZBN and GST number only, shown at once when editing a saved client', () => {
    expect(leftWhenEditing()).toEqual({ company_number: true, gst_number: true });
  });
});
