// The Clients screen's pure logic: the form's values, the body it sends, the search, the texts of
// errors and money. Rules (payment terms, check digits, display names, NZD) come from the domain.
import {
  DEFAULT_PAYMENT_TERMS,
  clientWarnings,
  formatNzd,
  isPaymentTerms,
  toCents,
  type PaymentTerms,
} from '@tradie/domain';
import type { ClientRecord, FieldWarning } from '@tradie/contracts';

/** Everything the form edits, as the inputs hold it. */
export interface ClientFormValues {
  name: string;
  email: string;
  phone: string;
  address: string;
  is_business: 'true' | 'false';
  business_name: string;
  company_number: string;
  gst_number: string;
  notes: string;
  default_payment_terms: PaymentTerms;
}

/** The body of POST /clients and PUT /clients/{id}: every field, '' when blank. */
export type ClientBody = ClientFormValues;

export const emptyClientForm: ClientFormValues = {
  name: '',
  email: '',
  phone: '',
  address: '',
  is_business: 'false',
  business_name: '',
  company_number: '',
  gst_number: '',
  notes: '',
  default_payment_terms: DEFAULT_PAYMENT_TERMS,
};

/** The form, filled in from a saved client (Edit). */
export function formFromClient(c: ClientRecord): ClientFormValues {
  return {
    name: c.name,
    email: c.email,
    phone: c.phone,
    address: c.address,
    is_business: c.is_business === 'true' ? 'true' : 'false',
    business_name: c.business_name,
    company_number: c.company_number,
    gst_number: c.gst_number,
    notes: c.notes,
    default_payment_terms: isPaymentTerms(c.default_payment_terms) ? c.default_payment_terms : DEFAULT_PAYMENT_TERMS,
  };
}

/**
 * What is saved is what the form shows: the Business Details block is hidden for an individual, so
 * its fields are sent blank then (a business name left over from toggling the type is not kept).
 */
export function clientBody(v: ClientFormValues): ClientBody {
  const business = v.is_business === 'true';
  return {
    ...v,
    business_name: business ? v.business_name : '',
    company_number: business ? v.company_number : '',
    gst_number: business ? v.gst_number : '',
  };
}

/** The label of the name field for the chosen client type. */
export const nameLabel = (isBusiness: 'true' | 'false'): string => (isBusiness === 'true' ? 'Contact Name *' : 'Full Name *');

/**
 * The soft check-digit warnings of what is typed (the same domain rule the API applies), shown
 * under the fields before saving. Individuals have no business identifiers, so no warnings.
 */
export function formWarnings(v: ClientFormValues): FieldWarning[] {
  return v.is_business === 'true' ? clientWarnings({ gst_number: v.gst_number, company_number: v.company_number }) : [];
}

/** Case-insensitive match of the search term on name, email or business_name; a blank term matches all. */
export function matchesSearch(c: Pick<ClientRecord, 'name' | 'email' | 'business_name'>, term: string): boolean {
  const t = term.trim().toLowerCase();
  if (t === '') return true;
  return [c.name, c.email, c.business_name].some((field) => field.toLowerCase().includes(t));
}

export const filterClients = <C extends Pick<ClientRecord, 'name' | 'email' | 'business_name'>>(clients: readonly C[], term: string): C[] =>
  clients.filter((c) => matchesSearch(c, term));

/** The history's dollar amounts (the API rounds them to cents) as NZD text, through exact cents. */
export const nzd = (dollars: number): string => formatNzd(toCents(dollars));
