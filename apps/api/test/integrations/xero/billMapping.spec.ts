// A cost → a Xero bill, pure: one GST-inclusive line for the amount, carrying exactly the GST this
// app claims (INPUT2) or none (NONE), so the GST Xero works out from its bills is the GST claimed
// here; the category's account from the standard NZ chart; a supplier's credit as a credit note.
import { centsToString } from '@tradie/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billAccountCode, billReference, GENERAL_EXPENSES_CODE, toXeroBill, toXeroSupplierCredit } from '../../../src/integrations/xero/billMapping.ts';
import { AccountingError } from '../../../src/integrations/xero/port.ts';

const cost = { id: 'c-1', kind: 'receipt', supplier: 'Plumbing World', date: '2026-05-05', paid_date: null, amount: '161.00', gst_claimed: '21.00', credit: false, category: 'materials', note: '' };
const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;

describe('toXeroBill', () => {
  it('one line whose amount is the cost and whose tax is the GST claimed, whatever the figures', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10_000_000_00n }), fc.boolean(), fc.boolean(), (cents, claimed, registered) => {
        const gst = claimed ? (cents * 3n + 11n) / 23n : 0n;
        const bill = json(toXeroBill({ ...cost, amount: centsToString(cents), gst_claimed: centsToString(gst) }, 'contact-1', { gstRegistered: registered }));
        const [line] = bill['LineItems'] as Record<string, unknown>[];
        const tax = registered ? gst : 0n;
        expect([line!['UnitAmount'], line!['LineAmount'], line!['Quantity']]).toEqual([Number(centsToString(cents)), Number(centsToString(cents)), 1]);
        expect(line!['TaxAmount']).toBe(Number(centsToString(tax)));
        expect(line!['TaxType']).toBe(tax > 0n ? 'INPUT2' : 'NONE');
        expect(bill['LineAmountTypes']).toBe(registered ? 'Inclusive' : 'NoTax');
      }),
    );
  });

  it('is an approved ACCPAY to the contact, numbered by the cost, dated by it, due when paid', () => {
    const bill = toXeroBill({ ...cost, paid_date: '2026-05-20', note: 'Copper  pipe\nand fittings' }, 'contact-1', { gstRegistered: true });
    expect(json(bill)).toMatchObject({ Type: 'ACCPAY', Status: 'AUTHORISED', Contact: { ContactID: 'contact-1' }, InvoiceNumber: billReference('c-1'), Date: '2026-05-05', DueDate: '2026-05-20', CurrencyCode: 'NZD' });
    expect(bill.LineItems[0].Description).toBe('Copper pipe and fittings');
    expect(toXeroBill(cost, 'c', { gstRegistered: true }).LineItems[0].Description).toBe('Materials from Plumbing World');
  });

  it("codes each category to its account; a category the chart has no account for is General Expenses", () => {
    expect(['materials', 'subcontractor', 'equipment', 'Fuel', ' phone ', 'insurance', 'other', 'Scaffold hire'].map(billAccountCode)).toEqual(['300', '310', '473', '449', '489', '433', GENERAL_EXPENSES_CODE, GENERAL_EXPENSES_CODE]);
  });

  it("a supplier's credit is a credit note from the supplier with the same line; neither is made for nothing", () => {
    const credit = toXeroSupplierCredit({ ...cost, credit: true }, 'contact-1', { gstRegistered: true });
    const bill = toXeroBill(cost, 'contact-1', { gstRegistered: true });
    expect(json(credit)).toMatchObject({ Type: 'ACCPAYCREDIT', Status: 'AUTHORISED', CreditNoteNumber: billReference('c-1'), Date: '2026-05-05', LineAmountTypes: 'Inclusive' });
    expect(json(credit)['LineItems']).toEqual(json(bill)['LineItems']);
    expect(() => toXeroBill({ ...cost, credit: true }, 'c', { gstRegistered: true })).toThrow(AccountingError);
    expect(() => toXeroSupplierCredit(cost, 'c', { gstRegistered: true })).toThrow(AccountingError);
    expect(() => toXeroBill({ ...cost, amount: '0.00', gst_claimed: '0.00' }, 'c', { gstRegistered: true })).toThrow('Xero needs a bill for more than $0.00.');
  });
});
