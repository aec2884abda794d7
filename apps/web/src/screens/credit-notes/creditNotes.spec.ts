// The credit notes' own logic: when an invoice can be credited, the body of POST /credit-notes, and
// how much may be paid back on a credit note.
import { describe, expect, it } from 'vitest';
import type { CreditNoteRecord, DocumentDetail } from '@tradie/contracts';
import { canCredit, creditBody, creditedWhat, leftToCredit, refundable, type CreditDraft } from './creditNotes.ts';

const line = (description: string, amount: number) => ({ description, qty: 1, unit_price: amount, tax_included: false, tax_rate: 0.15, amount, gst: amount * 0.15, amount_excl_gst: amount, formatted: { unit_price: `$${amount.toFixed(2)}`, amount: `$${amount.toFixed(2)}` } });
const doc = (over: Partial<DocumentDetail> = {}) =>
  ({ type: 'invoice', status: 'issued', issued_on: '2026-11-20', total: 253, credited: 0, line_items: [line('Labour', 160), line('Brackets', 60)], ...over }) as DocumentDetail;
const draft = (over: Partial<CreditDraft>): CreditDraft => ({ mode: 'whole', lines: {}, amount: '', reason: 'Returned', ...over });

describe('Credit: which invoices', () => {
  it('an issued invoice with something left to credit; not a draft, a void invoice or a quote', () => {
    expect(canCredit(doc())).toBe(true);
    expect(canCredit(doc({ status: 'paid' }))).toBe(true);
    expect(canCredit(doc({ issued_on: null, status: 'draft' }))).toBe(false);
    expect(canCredit(doc({ status: 'void' }))).toBe(false);
    expect(canCredit(doc({ type: 'quote' }))).toBe(false);
    expect(canCredit(doc({ credited: 253 }))).toBe(false);
  });

  it('what is left is the total less what was credited, in whole cents', () => {
    expect(leftToCredit(doc({ credited: 69 }))).toBe(184);
    expect(leftToCredit(doc({ total: 0.3, credited: 0.1 }))).toBe(0.2);
    expect(leftToCredit(doc({ credited: 300 }))).toBe(0);
  });
});

describe('Credit: the body of POST /credit-notes', () => {
  it('the whole invoice: every line when nothing was credited, else the amount that is left', () => {
    expect(creditBody(draft({}), doc())).toEqual({ ok: true, body: { lines: [{ line_index: 0 }, { line_index: 1 }], reason: 'Returned' } });
    expect(creditBody(draft({}), doc({ credited: 69 }))).toEqual({ ok: true, body: { amount: '184.00', reason: 'Returned' } });
  });

  it('some lines: the ticked ones, in order, each in full or a quantity of it', () => {
    const lines = { 1: { checked: true, qty: '' }, 0: { checked: true, qty: ' 0.5 ' }, 2: { checked: false, qty: '3' } };
    expect(creditBody(draft({ mode: 'lines', lines }), doc())).toEqual({ ok: true, body: { lines: [{ line_index: 0, qty: '0.5' }, { line_index: 1 }], reason: 'Returned' } });
  });

  it('an amount: dollars and cents, GST included', () => {
    expect(creditBody(draft({ mode: 'amount', amount: '$1,050.5' }), doc())).toEqual({ ok: true, body: { amount: '1050.5', reason: 'Returned' } });
  });

  it('says what is wrong before sending', () => {
    expect(creditBody(draft({ reason: '  ' }), doc())).toEqual({ ok: false, error: 'Say why the invoice is credited' });
    expect(creditBody(draft({ mode: 'lines' }), doc())).toEqual({ ok: false, error: 'Choose at least one line to credit' });
    expect(creditBody(draft({ mode: 'lines', lines: { 0: { checked: true, qty: '0' } } }), doc())).toEqual({
      ok: false,
      error: 'Enter a quantity more than 0 for line 1, or leave it blank for all of it',
    });
    expect(creditBody(draft({ mode: 'amount', amount: 'ten' }), doc())).toEqual({ ok: false, error: 'Enter the amount in dollars, e.g. 50 or 49.95' });
    expect(creditBody(draft({ mode: 'amount', amount: '1.001' }), doc())).toEqual({ ok: false, error: 'The amount must be in whole cents' });
    expect(creditBody(draft({ mode: 'amount', amount: '0' }), doc())).toEqual({ ok: false, error: 'The amount must be more than $0.00' });
  });
});

describe('Credit notes: refunds and wording', () => {
  const note = (over: Partial<CreditNoteRecord> = {}) => ({ total: 100, refunded: 0, line_items: [], amount: 100, ...over }) as CreditNoteRecord;

  it('at most what the invoice owes back and what is left of the note', () => {
    expect(refundable(note(), 100)).toBe(100);
    expect(refundable(note(), 40)).toBe(40);
    expect(refundable(note({ refunded: 70 }), 100)).toBe(30);
    expect(refundable(note(), 0)).toBe(0);
  });

  it('says what was credited', () => {
    expect(creditedWhat(note())).toBe('An amount');
    expect(creditedWhat(note({ amount: null, line_items: [{ ...line('Brackets', 60), line_index: 1, qty: 2 }] }))).toBe('Brackets × 2');
  });
});
