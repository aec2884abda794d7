// A cost (a receipt, a supplier's bill, an expense) → a Xero bill (an ACCPAY invoice). Pure.
//
// One line, GST-inclusive, for the amount paid, carrying exactly the GST this app claims for it:
// INPUT2 ('15% GST on Expenses') with the claimed GST as its TaxAmount, or NONE with no tax when
// nothing is claimed (no GST in it, the business not registered, or a receipt over $200 without the
// supply information). So the GST return Xero works out from its bills is the one this app files.
// The account is the category's expense account in Xero's standard New Zealand chart
// (BILL_ACCOUNT_CODES). A supplier's credit (money back) is a credit note from the supplier in Xero
// (ACCPAYCREDIT) with the same line.
import { centsToString, toCents } from '@tradie/domain';
import { AccountingError, type BillSource } from './port.ts';
import { type WireDecimal, wireDecimal } from './wireDecimal.ts';

export interface XeroBillLine {
  Description: string;
  Quantity: WireDecimal;
  UnitAmount: WireDecimal;
  LineAmount: WireDecimal;
  TaxAmount: WireDecimal;
  TaxType: 'INPUT2' | 'NONE';
  AccountCode: string;
}

/** The request element for PUT /Invoices of a bill (field names as Xero spells them). */
export interface XeroBill {
  Type: 'ACCPAY';
  Contact: { ContactID: string };
  LineItems: [XeroBillLine];
  LineAmountTypes: 'Inclusive' | 'NoTax';
  /** On a bill Xero shows this as its Reference (a bill's Reference field is for sales only). */
  InvoiceNumber: string;
  Date: string;
  DueDate: string;
  Status: 'AUTHORISED';
  CurrencyCode: 'NZD';
}

/** General Expenses: where a category the chart has no better account for goes. */
export const GENERAL_EXPENSES_CODE = '429';

/**
 * A cost's category → the expense account of Xero's standard NZ chart of accounts. The built-in
 * categories first; then the words tradies use for business expenses; anything else is General
 * Expenses (the accountant can recode it in Xero).
 */
export const BILL_ACCOUNT_CODES: Readonly<Record<string, string>> = {
  materials: '300', // Purchases
  subcontractor: '310', // Cost of Goods Sold
  labour: '310',
  equipment: '473', // Repairs and Maintenance (hire and upkeep of plant)
  other: GENERAL_EXPENSES_CODE,
  advertising: '400',
  'bank fees': '404',
  cleaning: '408',
  accounting: '412',
  entertainment: '420',
  freight: '425',
  insurance: '433',
  legal: '441',
  power: '445',
  fuel: '449', // Motor Vehicle Expenses
  vehicle: '449',
  office: '453',
  printing: '461',
  rent: '469',
  repairs: '473',
  subscriptions: '485',
  phone: '489', // Telephone & Internet
  internet: '489',
  travel: '493',
};

export const billAccountCode = (category: string): string => BILL_ACCOUNT_CODES[category.trim().toLowerCase()] ?? GENERAL_EXPENSES_CODE;

/** The bill's number in Xero (shown there as its Reference): how a bill an earlier, lost attempt created is found again. */
export const billReference = (costId: string): string => `Cost ${costId}`;

const titleCase = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The one line of a bill or a supplier's credit: the amount, GST-inclusive, with exactly the GST claimed here. */
function billLine(cost: BillSource, gstRegistered: boolean, accountCode: string): XeroBillLine {
  const abs = (cents: bigint) => (cents < 0n ? -cents : cents);
  const amount = abs(toCents(cost.amount));
  if (amount === 0n) throw new AccountingError('mapping', `Xero needs a ${cost.credit ? 'credit' : 'bill'} for more than $0.00.`);
  const gst = gstRegistered ? abs(toCents(cost.gst_claimed)) : 0n;
  const money = (cents: bigint) => wireDecimal(centsToString(cents));
  const description = (cost.note.trim() !== '' ? cost.note.trim() : `${titleCase(cost.category)} from ${cost.supplier}`).replace(/\s+/g, ' ').slice(0, 4000);
  return {
    Description: description,
    Quantity: wireDecimal('1'),
    UnitAmount: money(amount),
    LineAmount: money(amount),
    TaxAmount: money(gst),
    TaxType: gst > 0n ? 'INPUT2' : 'NONE',
    AccountCode: accountCode,
  };
}

/** The request element for PUT /CreditNotes of a supplier's credit (field names as Xero spells them). */
export interface XeroSupplierCredit {
  Type: 'ACCPAYCREDIT';
  Contact: { ContactID: string };
  LineItems: [XeroBillLine];
  LineAmountTypes: 'Inclusive' | 'NoTax';
  CreditNoteNumber: string;
  Date: string;
  Status: 'AUTHORISED';
  CurrencyCode: 'NZD';
}

/** A supplier's credit (money back) → a Xero credit note from the supplier (ACCPAYCREDIT), the same line as a bill's. */
export function toXeroSupplierCredit(cost: BillSource, contactId: string, options: { gstRegistered: boolean; accountCode?: string }): XeroSupplierCredit {
  if (!cost.credit) throw new AccountingError('mapping', 'Only a credit from the supplier goes to Xero as a credit note.');
  return {
    Type: 'ACCPAYCREDIT',
    Contact: { ContactID: contactId },
    LineItems: [billLine(cost, options.gstRegistered, options.accountCode ?? billAccountCode(cost.category))],
    LineAmountTypes: options.gstRegistered ? 'Inclusive' : 'NoTax',
    CreditNoteNumber: billReference(cost.id),
    Date: cost.date,
    Status: 'AUTHORISED',
    CurrencyCode: 'NZD',
  };
}

/** The request element for the cost's bill. Throws AccountingError('mapping') for what a bill cannot hold. */
export function toXeroBill(cost: BillSource, contactId: string, options: { gstRegistered: boolean; accountCode?: string }): XeroBill {
  if (cost.credit) throw new AccountingError('mapping', "A supplier's credit is a credit note in Xero, not a bill.");
  return {
    Type: 'ACCPAY',
    Contact: { ContactID: contactId },
    LineItems: [billLine(cost, options.gstRegistered, options.accountCode ?? billAccountCode(cost.category))],
    LineAmountTypes: options.gstRegistered ? 'Inclusive' : 'NoTax',
    InvoiceNumber: billReference(cost.id),
    Date: cost.date,
    // Paid on a receipt's day, or when the bill says it was (or will be) paid.
    DueDate: cost.paid_date ?? cost.date,
    Status: 'AUTHORISED',
    CurrencyCode: 'NZD',
  };
}
