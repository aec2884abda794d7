// Events of a quote or invoice stream (document-{id}). Past tense; data carries the ids so a
// fixture line reads on its own. Amounts are decimal strings ("123.45").
import type { LocalDate } from '../dates/dates.ts';
import type { PaymentTerms } from '../dates/paymentTerms.ts';
import type { GstRounding } from '../gst/gst.ts';
import type { Line } from './lines.ts';

export type DocumentType = 'quote' | 'invoice';

/** Who the document is for, as they were when it was drafted or revised. Survives the client's deletion. */
export interface ClientSnapshot {
  id: string | null;
  name: string;
  email: string;
  phone: string;
  address: string;
  is_business: 'true' | 'false';
  business_name: string;
  company_number: string;
  gst_number: string;
}

export const PAYMENT_METHODS = ['bank_transfer', 'cash', 'card', 'cheque', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  card: 'Card',
  cheque: 'Cheque',
  other: 'Other',
};

export interface DraftedData {
  documentId: string;
  type: DocumentType;
  number: number;
  reference: string;
  client: ClientSnapshot | null;
  lines: Line[];
  gstRounding: GstRounding;
  issueDate: LocalDate;
  dueDate: LocalDate;
  paymentTerms: PaymentTerms;
  /** Quotes only: the day the price stops holding. */
  validUntil: LocalDate | null;
  notes: string;
  /** Set on an invoice made from a quote. */
  convertedFrom: string | null;
}

export interface RevisedData {
  documentId: string;
  client: ClientSnapshot | null;
  lines: Line[];
  issueDate: LocalDate;
  dueDate: LocalDate;
  paymentTerms: PaymentTerms;
  validUntil: LocalDate | null;
  notes: string;
}

export interface PaymentData {
  documentId: string;
  paymentId: string;
  amount: string;
  date: LocalDate;
  method: PaymentMethod;
  reference: string;
}

export type DocumentEvent =
  | { type: 'DocumentDrafted'; data: DraftedData }
  | { type: 'DocumentRevised'; data: RevisedData }
  | { type: 'DocumentSent'; data: { documentId: string; to: string[]; cc: string[]; bcc: string[]; subject: string } }
  /** An invoice handed over without the app's email (on site, printed): issued from now on. */
  | { type: 'DocumentIssued'; data: { documentId: string } }
  | { type: 'QuoteAccepted'; data: { documentId: string } }
  | { type: 'QuoteDeclined'; data: { documentId: string } }
  | { type: 'QuoteConverted'; data: { documentId: string; invoiceId: string } }
  | { type: 'PaymentRecorded'; data: PaymentData }
  | { type: 'PaymentRemoved'; data: { documentId: string; paymentId: string } }
  | { type: 'DocumentVoided'; data: { documentId: string; reason: string } }
  | { type: 'DocumentDeleted'; data: { documentId: string } }
  | { type: 'SyncedToAccounting'; data: { documentId: string; provider: string; externalId: string; externalNumber: string } }
  /** The totals the accounting system answered with for its copy of the invoice (dollars and cents, as it gave them). */
  | { type: 'AccountingTotalsReported'; data: { documentId: string; provider: string; subtotal: string; gst: string; total: string } }
  | { type: 'PdfGenerated'; data: { documentId: string; sha256: string } };

export type DocumentEventType = DocumentEvent['type'];

export const documentStreamId = (documentId: string): string => `document-${documentId}`;
