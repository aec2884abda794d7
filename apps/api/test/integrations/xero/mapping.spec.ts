import { describe, expect, it } from 'vitest';
import { contactFromClient, toXeroInvoice } from '../../../src/integrations/xero/mapping.ts';
import { AccountingError } from '../../../src/integrations/xero/port.ts';
import { wireDecimal } from '../../../src/integrations/xero/wireDecimal.ts';
import { client, invoiceView, send } from './documents.ts';

const wire = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;

describe('toXeroInvoice', () => {
  it('an issued invoice: ACCREC, our contact, our number as number and reference, dates, AUTHORISED', () => {
    const x = toXeroInvoice(invoiceView(), 'contact-1');
    expect(wire(x)).toEqual({
      Type: 'ACCREC',
      Contact: { ContactID: 'contact-1' },
      LineItems: [
        // $180 + $225 = $405.00, GST $60.75 (27.00 + 33.75: whole cents, nothing to spread).
        { Description: 'Replace hot water cylinder valve', Quantity: 1, UnitAmount: 180, LineAmount: 180, TaxAmount: 27, TaxType: 'OUTPUT2', AccountCode: '200' },
        { Description: 'Labour', Quantity: 2.5, UnitAmount: 90, LineAmount: 225, TaxAmount: 33.75, TaxType: 'OUTPUT2', AccountCode: '200' },
      ],
      LineAmountTypes: 'Exclusive',
      InvoiceNumber: 'INV-0001',
      Reference: 'INV-0001',
      Date: '2026-05-04',
      DueDate: '2026-05-11',
      Status: 'AUTHORISED',
      SentToContact: false,
      CurrencyCode: 'NZD',
    });
  });

  it("each line's TaxAmount is its share of the document's GST: 3 × $1.11 sends 0.17, 0.17, 0.16 ($0.50, not Xero's $0.51)", () => {
    const v = invoiceView({ lines: [1, 2, 3].map((n) => ({ description: `Washer ${n}`, qty: 1, unit_price: 1.11 })) });
    expect((wire(toXeroInvoice(v, 'c')) as { LineItems: Array<Record<string, unknown>> }).LineItems.map((l: Record<string, unknown>) => [l['LineAmount'], l['TaxAmount']])).toEqual([[1.11, 0.17], [1.11, 0.17], [1.11, 0.16]]);
  });

  it('SentToContact is set once ours was sent, so Xero may chase it', () => {
    expect(toXeroInvoice(invoiceView({ then: [send] }), 'c').SentToContact).toBe(true);
  });

  it('GST-inclusive prices go as Inclusive, exclusive as Exclusive', () => {
    const incl = invoiceView({ lines: [{ description: 'Fixed-price job', qty: 1, unit_price: 230, tax_included: true }] });
    expect(toXeroInvoice(incl, 'c').LineAmountTypes).toBe('Inclusive');
    const excl = invoiceView({ lines: [{ description: 'Labour', qty: 1, unit_price: 200, tax_included: false }] });
    expect(toXeroInvoice(excl, 'c').LineAmountTypes).toBe('Exclusive');
  });

  it('15% is OUTPUT2; 0% is ZERORATED for a GST-registered business', () => {
    const v = invoiceView({
      lines: [
        { description: 'Install', qty: 1, unit_price: 100, tax_rate: 0.15 },
        { description: 'Export parts', qty: 1, unit_price: 50, tax_rate: 0 },
      ],
    });
    expect(toXeroInvoice(v, 'c').LineItems.map((l) => l.TaxType)).toEqual(['OUTPUT2', 'ZERORATED']);
  });

  it('not GST-registered: every line NONE and the invoice NoTax', () => {
    const v = invoiceView({ lines: [{ description: 'Mowing', qty: 1, unit_price: 60, tax_rate: 0 }] });
    const x = toXeroInvoice(v, 'c', { gstRegistered: false });
    expect(x.LineItems.map((l) => l.TaxType)).toEqual(['NONE']);
    expect(x.LineAmountTypes).toBe('NoTax');
  });

  it('a zero-rated line does not decide inclusive/exclusive; only taxed lines do', () => {
    const v = invoiceView({
      lines: [
        { description: 'Job', qty: 1, unit_price: 115, tax_included: true },
        { description: 'Zero-rated part', qty: 1, unit_price: 10, tax_rate: 0, tax_included: false },
      ],
    });
    expect(toXeroInvoice(v, 'c').LineAmountTypes).toBe('Inclusive');
  });

  it('refuses what Xero cannot hold, with a sentence for the user', () => {
    const mixed = invoiceView({
      lines: [
        { description: 'A', qty: 1, unit_price: 115, tax_included: true },
        { description: 'B', qty: 1, unit_price: 100, tax_included: false },
      ],
    });
    expect(() => toXeroInvoice(mixed, 'c')).toThrow(/mixes prices that include GST/);
    const gstButNotRegistered = invoiceView();
    expect(() => toXeroInvoice(gstButNotRegistered, 'c', { gstRegistered: false })).toThrow(/not GST-registered/);
    // No rate but 15% and 0% is accepted any more; a document stored before that rule could still hold one.
    const oddRate = { ...invoiceView(), lines: [{ description: 'Odd', qty: '1', unit_price: '10', tax_included: false, tax_rate: '0.125' }] };
    expect(() => toXeroInvoice(oddRate, 'c')).toThrow(/no New Zealand tax code for a 12.5% rate/);
    const quote = invoiceView({ over: { type: 'quote', reference: 'QTE-0001' } });
    expect(() => toXeroInvoice(quote, 'c')).toThrow(AccountingError);
    const voided = invoiceView({ then: [send, { type: 'VoidDocument', data: { reason: 'wrong client' } }] });
    try {
      toXeroInvoice(voided, 'c');
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ kind: 'mapping', detail: "This invoice is void, so it can't be synced to Xero." });
    }
  });

  it('prices reach the JSON digit for digit: four-decimal unit prices and quantities are never floats', () => {
    const v = invoiceView({ lines: [{ description: 'Cable per metre', qty: '12.3456', unit_price: '0.1235' }, { description: 'Big', qty: 1, unit_price: '99999999.99' }] });
    const json = JSON.stringify(toXeroInvoice(v, 'c'));
    expect(json).toContain('"Quantity":12.3456,"UnitAmount":0.1235');
    expect(json).toContain('"UnitAmount":99999999.99');
  });

  it('the sales account is configurable', () => {
    expect(toXeroInvoice(invoiceView(), 'c', { salesAccountCode: '260' }).LineItems.every((l) => l.AccountCode === '260')).toBe(true);
  });
});

describe('wireDecimal', () => {
  it('writes the text as a JSON number and refuses anything that is not a plain decimal', () => {
    expect(JSON.stringify({ a: wireDecimal('230.00') })).toBe('{"a":230.00}');
    for (const bad of ['1e5', '', '01', '1.', 'NaN', ' 1']) expect(() => wireDecimal(bad)).toThrow(RangeError);
  });
});

describe('contactFromClient', () => {
  it('a person by name, a business by its business name; phone only when known', () => {
    expect(contactFromClient(client)).toEqual({ name: 'Aroha Ngata', email: 'aroha@example.nz', phone: '021 555 0101' });
    expect(contactFromClient({ ...client, is_business: 'true', business_name: 'Ngata Plumbing Ltd', phone: '' })).toEqual({ name: 'Ngata Plumbing Ltd', email: 'aroha@example.nz' });
  });
});
