import { describe, expect, it } from 'vitest';
import { correctionWords } from './corrections.ts';

const none = { invoices_voided: 0, credit_notes: 0, payments_removed: 0, refunds: 0 };

describe('corrections named as what they are', () => {
  it('a void and a credit note are not "2 invoices voided"', () => {
    expect(correctionWords({ ...none, invoices_voided: 1, credit_notes: 1 })).toBe('1 invoice voided and 1 credit note');
  });
  it('a removed payment and a refund are not "2 payments removed"', () => {
    expect(correctionWords({ ...none, payments_removed: 1, refunds: 1 })).toBe('1 payment removed and 1 refund paid back');
    expect(correctionWords({ ...none, refunds: 2 })).toBe('2 refunds paid back');
  });
  it('one kind, three kinds, none', () => {
    expect(correctionWords({ ...none, invoices_voided: 2 })).toBe('2 invoices voided');
    expect(correctionWords({ invoices_voided: 1, credit_notes: 2, payments_removed: 0, refunds: 1 })).toBe('1 invoice voided, 2 credit notes and 1 refund paid back');
    expect(correctionWords(none)).toBe('');
  });
});
