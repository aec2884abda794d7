// Our invoice → a Xero sales invoice. Pure. Amounts are the domain's: quantities and unit prices
// as the tradie wrote them, and each line's amount and GST as the domain works them out, with the
// document's GST spread over the lines (allocateGst) so that Xero, which adds up the line taxes it
// is given, arrives at our GST and total to the cent. Nothing here does arithmetic on money.
import { Decimal, GST_RATE, allocateGst, centsToString, documentTotals, toCents, type ClientSnapshot, type CreditNote, type DocumentView, type Line } from '@tradie/domain';
import { AccountingError, type ContactInput } from './port.ts';
import { type WireDecimal, wireDecimal } from './wireDecimal.ts';

export interface XeroLineItem {
  Description: string;
  /** The domain's decimal text, written into the JSON as a number literal. */
  Quantity: WireDecimal;
  UnitAmount: WireDecimal;
  /** qty × unit price to the cent, as our line shows it (GST-inclusive on an Inclusive invoice). */
  LineAmount: WireDecimal;
  /** This line's share of the document's GST: explicit, so Xero does not round per line its own way. */
  TaxAmount: WireDecimal;
  TaxType: 'OUTPUT2' | 'ZERORATED' | 'NONE';
  AccountCode: string;
}

/** The request element for PUT /Invoices (field names as Xero spells them). */
export interface XeroInvoice {
  Type: 'ACCREC';
  Contact: { ContactID: string };
  LineItems: XeroLineItem[];
  LineAmountTypes: 'Exclusive' | 'Inclusive' | 'NoTax';
  InvoiceNumber: string;
  Reference: string;
  Date: string;
  DueDate: string;
  Status: 'AUTHORISED';
  SentToContact: boolean;
  CurrencyCode: 'NZD';
}

export const DEFAULT_SALES_ACCOUNT_CODE = '200';
export const DEFAULT_PAYMENTS_ACCOUNT_CODE = '090';

export interface XeroInvoiceOptions {
  /** Not registered: every line is NONE and the invoice carries no tax. Default true. */
  gstRegistered?: boolean;
  /** The revenue account the lines post to. Default '200' (Sales in Xero's NZ chart). */
  salesAccountCode?: string;
}

const mappingError = (detail: string) => new AccountingError('mapping', detail);

function taxTypeOf(line: Line, gstRegistered: boolean): XeroLineItem['TaxType'] {
  const rate = new Decimal(line.tax_rate);
  if (rate.isZero()) return gstRegistered ? 'ZERORATED' : 'NONE';
  if (!rate.equals(GST_RATE)) throw mappingError(`Xero has no New Zealand tax code for a ${rate.times(100).toFixed()}% rate on '${line.description}'.`);
  if (!gstRegistered) throw mappingError(`'${line.description}' charges GST, but the business is not GST-registered.`);
  return 'OUTPUT2';
}

/**
 * Xero prices a whole invoice one way. Only lines that carry tax decide it: a zero-rated line is
 * the same amount either way. GST-inclusive and GST-exclusive prices on one invoice cannot be
 * sent without converting prices, which would change what the client was shown.
 */
function lineAmountTypesOf(lines: readonly Line[], gstRegistered: boolean): XeroInvoice['LineAmountTypes'] {
  if (!gstRegistered) return 'NoTax';
  const taxed = lines.filter((l) => !new Decimal(l.tax_rate).isZero());
  const deciding = taxed.length > 0 ? taxed : lines;
  if (deciding.every((l) => l.tax_included)) return 'Inclusive';
  if (deciding.every((l) => !l.tax_included)) return 'Exclusive';
  throw mappingError('This invoice mixes prices that include GST with prices that exclude it. Xero needs one or the other on an invoice.');
}

/** The request element for PUT /Invoices. Throws AccountingError('mapping') for what Xero cannot hold. */
export function toXeroInvoice(view: DocumentView, contactId: string, options: XeroInvoiceOptions = {}): XeroInvoice {
  const gstRegistered = options.gstRegistered ?? true;
  const accountCode = options.salesAccountCode ?? DEFAULT_SALES_ACCOUNT_CODE;
  if (view.type !== 'invoice') throw mappingError('Only invoices can be synced to Xero.');
  if (view.status === 'void' || view.status === 'deleted') throw mappingError(`This invoice is ${view.status === 'void' ? 'void' : 'deleted'}, so it can't be synced to Xero.`);
  if (view.lines.length === 0) throw mappingError('Xero needs at least one line item on an invoice.');
  const totals = documentTotals(view.lines, view.gstRounding);
  const taxes = allocateGst(totals);
  return {
    Type: 'ACCREC',
    Contact: { ContactID: contactId },
    LineItems: view.lines.map((l, i) => ({
      Description: l.description,
      Quantity: wireDecimal(l.qty),
      UnitAmount: wireDecimal(l.unit_price),
      LineAmount: wireDecimal(centsToString(totals.lines[i]!.amountCents)),
      TaxAmount: wireDecimal(centsToString(taxes[i]!)),
      TaxType: taxTypeOf(l, gstRegistered),
      AccountCode: accountCode,
    })),
    LineAmountTypes: lineAmountTypesOf(view.lines, gstRegistered),
    InvoiceNumber: view.reference,
    Reference: view.reference,
    Date: view.issueDate,
    DueDate: view.dueDate,
    // Xero keeps no partial/overdue status; approved is what an issued invoice is there, and
    // Xero only chases invoices marked as sent.
    Status: 'AUTHORISED',
    SentToContact: view.sends.length > 0,
    CurrencyCode: 'NZD',
  };
}

/** The request element for PUT /CreditNotes (field names as Xero spells them). */
export interface XeroCreditNote {
  Type: 'ACCRECCREDIT';
  Contact: { ContactID: string };
  LineItems: XeroLineItem[];
  LineAmountTypes: 'Inclusive' | 'NoTax';
  CreditNoteNumber: string;
  Reference: string;
  Date: string;
  Status: 'AUTHORISED';
  CurrencyCode: 'NZD';
}

/**
 * Our credit note → a Xero sales credit note. Its figures are the credit note's own (the domain
 * worked them out with the invoice's rounding): one GST-inclusive line for the standard-rated part
 * carrying exactly its GST, and one for the zero-rated part, so Xero's totals are ours to the cent.
 * The description names the invoice lines credited, or the amount.
 */
export function toXeroCreditNote(note: CreditNote, contactId: string, options: XeroInvoiceOptions = {}): XeroCreditNote {
  const gstRegistered = options.gstRegistered ?? true;
  const accountCode = options.salesAccountCode ?? DEFAULT_SALES_ACCOUNT_CODE;
  const total = toCents(note.total);
  const gst = toCents(note.gst);
  const zero = toCents(note.zeroRated);
  if (!gstRegistered && gst !== 0n) throw mappingError(`${note.reference} credits GST, but the business is not GST-registered.`);
  const what = note.lines.length > 0 ? note.lines.map((l) => `${l.line.qty} × ${l.line.description}`).join('; ') : 'an amount';
  const description = `Credit on ${note.invoiceReference} for ${what}: ${note.reason}`.replace(/\s+/g, ' ').slice(0, 4000);
  const line = (cents: bigint, tax: bigint, taxType: XeroLineItem['TaxType'], label: string): XeroLineItem => ({
    Description: label,
    Quantity: wireDecimal('1'),
    UnitAmount: wireDecimal(centsToString(cents)),
    LineAmount: wireDecimal(centsToString(cents)),
    TaxAmount: wireDecimal(centsToString(tax)),
    TaxType: taxType,
    AccountCode: accountCode,
  });
  const items: XeroLineItem[] = [];
  if (total - zero !== 0n) items.push(line(total - zero, gst, gstRegistered ? 'OUTPUT2' : 'NONE', description));
  if (zero !== 0n) items.push(line(zero, 0n, gstRegistered ? 'ZERORATED' : 'NONE', items.length > 0 ? `${description} (zero-rated)` : description));
  return {
    Type: 'ACCRECCREDIT',
    Contact: { ContactID: contactId },
    LineItems: items,
    LineAmountTypes: gstRegistered ? 'Inclusive' : 'NoTax',
    CreditNoteNumber: note.reference,
    Reference: note.invoiceReference,
    Date: note.date,
    Status: 'AUTHORISED',
    CurrencyCode: 'NZD',
  };
}

/** The Xero contact for a document's client: the business name for a business, else the person. */
export function contactFromClient(client: ClientSnapshot): ContactInput {
  const isBusiness = client.is_business === 'true' && client.business_name.trim() !== '';
  const name = (isBusiness ? client.business_name : client.name).trim();
  const contact: ContactInput = { name, email: client.email.trim() };
  if (client.phone.trim() !== '') contact.phone = client.phone.trim();
  return contact;
}
