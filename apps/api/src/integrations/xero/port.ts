// The AccountingProvider port: what the API needs from an accounting service (Xero today).
// Amounts cross it as decimal strings from the domain; only the adapter turns them into JSON
// numbers, at the wire.
import type { CreditNote, DocumentView, LocalDate } from '@tradie/domain';

export type ProviderName = 'xero';

/** A token pair as stored (encrypted) by the API. `expiresAt` comes from the injected clock. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
  scope: string;
  /** Xero's `authentication_event_id` claim of the access token: which consent produced it. */
  authEventId: string | null;
}

export interface Tenant {
  /** The connection id (for DELETE /connections/{id}). */
  connectionId: string;
  /** What goes in the `xero-tenant-id` header. */
  tenantId: string;
  tenantName: string;
  tenantType: string;
  authEventId: string | null;
}

/** What every Accounting API call needs. */
export interface ProviderConnection {
  accessToken: string;
  tenantId: string;
}

export interface ContactInput {
  name: string;
  /** '' when the client has none. */
  email: string;
  phone?: string;
}

export interface ContactRef {
  contactId: string;
  name: string;
  created: boolean;
}

export type InvoiceStatus = 'DRAFT' | 'SUBMITTED' | 'AUTHORISED' | 'PAID' | 'VOIDED' | 'DELETED';

export interface InvoiceRef {
  invoiceId: string;
  invoiceNumber: string;
  reference: string;
  status: InvoiceStatus;
  /** Xero's SubTotal, TotalTax and Total for its copy, in dollars and cents exactly as sent; null when the answer had none. */
  totals: { subtotal: string; gst: string; total: string } | null;
}

/** What to push: our invoice as the domain folds it, and the provider's contact for its client. */
export interface InvoiceInput {
  document: DocumentView;
  contactId: string;
  /** Not registered: no GST on the provider's invoice either. */
  gstRegistered: boolean;
}

export interface PaymentInput {
  invoiceId: string;
  /** A decimal string from the domain, e.g. "230.00". */
  amount: string;
  date: LocalDate;
  reference: string;
  /** Overrides the adapter's receipts account (default '090'). */
  accountCode?: string;
}

/** A payment applied to an invoice in the provider, as the provider lists it on the invoice now. */
export interface PaymentThere {
  paymentId: string;
  /** Dollars and cents exactly as the provider sent them ("230.00"). */
  amount: string;
  date: LocalDate;
  reference: string;
}

/** A credit note's credit applied to the invoice in the provider (made there or pushed from here). */
export interface CreditThere {
  creditNoteId: string;
  creditNoteNumber: string;
  /** What of the credit note is applied to this invoice, dollars and cents exactly as sent. */
  amount: string;
  date: LocalDate;
}

/** The invoice as the provider has it now, with the payments and credit notes applied to it there. */
export interface InvoiceNow extends InvoiceRef {
  payments: PaymentThere[];
  credits: CreditThere[];
}

/** An invoice changed in the provider since a given instant (the poll). */
export interface InvoiceChanged {
  invoiceId: string;
  /** The provider's last-changed time, as it sent it (identifies the change). */
  updatedAt: string;
}

/** At most this many invoices come on one page of the provider's list (Xero: 100). */
export const INVOICE_PAGE_SIZE = 100;

export interface PaymentRef {
  paymentId: string;
  invoiceStatus: InvoiceStatus | null;
}

/** What to send as a credit note: ours as the invoice holds it, and the provider's contact. */
export interface CreditNoteInput {
  creditNote: CreditNote;
  contactId: string;
  gstRegistered: boolean;
}

export interface CreditNoteRef {
  creditNoteId: string;
  creditNoteNumber: string;
}

export interface AllocationInput {
  creditNoteId: string;
  invoiceId: string;
  /** A decimal string from the domain. */
  amount: string;
  date: LocalDate;
}

/** Money paid back to the client from a credit note's credit (a cash refund). */
export interface CreditNoteRefundInput {
  creditNoteId: string;
  /** A decimal string from the domain. */
  amount: string;
  date: LocalDate;
  reference: string;
  /** Overrides the adapter's receipts account, as for a payment. */
  accountCode?: string;
}

/** What a bill (ACCPAY) is made from: a cost (a receipt, a supplier's bill, an expense) as the API keeps it. */
export interface BillSource {
  id: string;
  kind: string;
  supplier: string;
  date: LocalDate;
  paid_date: LocalDate | null;
  /** Including GST, a decimal string ("161.00"). */
  amount: string;
  /** The GST in it this app claims back ("21.00", "0.00"). */
  gst_claimed: string;
  credit: boolean;
  category: string;
  note: string;
}

export interface BillInput {
  cost: BillSource;
  /** The provider's contact for the supplier. */
  contactId: string;
  gstRegistered: boolean;
  /** The account its line is coded to: the one chosen for the cost's category, else the standard chart's. */
  accountCode: string;
}

/** An account of the organisation's chart a cost can be coded to (an active expense or direct-cost account). */
export interface ExpenseAccount {
  code: string;
  name: string;
}

/** A file attached to an invoice or bill in the provider (a receipt's photo or PDF). */
export interface AttachmentInput {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface AccountingProvider {
  readonly name: ProviderName;
  /** The address the Connect window opens. `codeChallenge` is the S256 PKCE challenge. */
  authorizationUrl(state: string, codeChallenge: string): string;
  exchangeCode(code: string, codeVerifier: string): Promise<ProviderTokens>;
  /** Refresh tokens are single use: call this under the connection's refresh lock only. */
  refresh(refreshToken: string): Promise<ProviderTokens>;
  connections(accessToken: string): Promise<Tenant[]>;
  revoke(refreshToken: string): Promise<void>;
  findOrCreateContact(conn: ProviderConnection, contact: ContactInput): Promise<ContactRef>;
  /** `idempotencyKey` (≤ 128 chars) must stay the same across retries of one attempt. */
  createInvoice(conn: ProviderConnection, invoice: InvoiceInput, idempotencyKey: string): Promise<InvoiceRef>;
  /** An invoice an earlier, lost attempt may have created (created by this app, not deleted). */
  findInvoiceByReference(conn: ProviderConnection, reference: string): Promise<InvoiceRef | null>;
  updateInvoiceStatus(conn: ProviderConnection, invoiceId: string, status: 'AUTHORISED' | 'VOIDED', sentToContact?: boolean): Promise<InvoiceRef>;
  /**
   * Puts our lines (and their GST) back on the provider's copy of an invoice, replacing whatever was
   * edited there. The provider refuses it (validation) while money is applied to the invoice or it is voided.
   */
  replaceInvoiceLines(conn: ProviderConnection, invoiceId: string, invoice: InvoiceInput): Promise<InvoiceRef>;
  /** A page (from 1) of the sales invoices changed since `since` (If-Modified-Since), oldest change first. */
  invoicesChangedSince(conn: ProviderConnection, since: Date, page: number): Promise<InvoiceChanged[]>;
  /** The invoice as the provider has it now, with its payments (made from here or there). */
  getInvoice(conn: ProviderConnection, invoiceId: string): Promise<InvoiceNow>;
  createPayment(conn: ProviderConnection, payment: PaymentInput, idempotencyKey: string): Promise<PaymentRef>;
  /** Removes a payment pushed earlier (a payment removed here). Deleting one already deleted succeeds. */
  deletePayment(conn: ProviderConnection, paymentId: string): Promise<PaymentRef>;
  /** A sales credit note (ACCRECCREDIT), approved. `idempotencyKey` as for createInvoice. */
  createCreditNote(conn: ProviderConnection, input: CreditNoteInput, idempotencyKey: string): Promise<CreditNoteRef>;
  /** Applies some of a credit note's credit to an invoice (at most the credit left and what the invoice owes). */
  allocateCreditNote(conn: ProviderConnection, allocation: AllocationInput, idempotencyKey: string): Promise<void>;
  /** Pays some of a credit note's credit back to the client (at most the credit left); answers the provider's payment id. */
  refundCreditNote(conn: ProviderConnection, refund: CreditNoteRefundInput, idempotencyKey: string): Promise<{ paymentId: string }>;
  /**
   * A cost as an approved bill (ACCPAY), or a supplier's credit as an approved credit note from the
   * supplier (ACCPAYCREDIT; `invoiceId` is then the credit note's id). `idempotencyKey` as for createInvoice.
   */
  createBill(conn: ProviderConnection, bill: BillInput, idempotencyKey: string): Promise<InvoiceRef>;
  /** A bill (or, with `credit`, a supplier's credit) an earlier, lost attempt may have created (by this app, not deleted). */
  findBillByReference(conn: ProviderConnection, reference: string, credit?: boolean): Promise<InvoiceRef | null>;
  /** Puts the cost's figures on its bill or credit again (a changed cost). Refused (validation) once it is paid, allocated or voided there. */
  updateBill(conn: ProviderConnection, invoiceId: string, bill: BillInput): Promise<InvoiceRef>;
  /** The organisation's active expense and direct-cost accounts with a code, by code. */
  listExpenseAccounts(conn: ProviderConnection): Promise<ExpenseAccount[]>;
  /** Voids a bill or a supplier's credit (a cost deleted). Voiding one already voided succeeds. */
  voidBill(conn: ProviderConnection, invoiceId: string, credit: boolean): Promise<InvoiceRef>;
  /** Attaches a file to an invoice or bill (or a credit note); the same name again replaces it. Needs the accounting.attachments scope. */
  attachFile(conn: ProviderConnection, invoiceId: string, file: AttachmentInput, on?: 'Invoices' | 'CreditNotes'): Promise<void>;
}

export type AccountingErrorKind =
  /** No connection stored for this account: 'Please connect Xero in Settings first'. */
  | 'not_connected'
  /** 401: the access token expired or was rejected. Refresh once, retry once. */
  | 'unauthorized'
  /** 403: tenant disconnected or rights lost. Mark the connection as needing re-authorisation. */
  | 'forbidden'
  /** invalid_grant on the token endpoint: the refresh token is spent, expired or revoked. Re-authorise. */
  | 'invalid_grant'
  /** Another OAuth error from the token endpoint (invalid_client, unsupported_grant_type, …). */
  | 'oauth'
  /** 429 after the bounded retries, or a Retry-After too long to wait for. */
  | 'rate_limited'
  /** 400 ValidationException: the messages are for the user. Do not retry. */
  | 'validation'
  | 'not_found'
  /** 5xx or network failure after the bounded retries. */
  | 'unavailable'
  /** Our document cannot be expressed as an invoice in the provider. */
  | 'mapping';

/** Every failure of the port. `detail` is a sentence a person can read. */
export class AccountingError extends Error {
  readonly kind: AccountingErrorKind;
  readonly detail: string;
  readonly status: number | null;
  /** Seconds, for 'rate_limited': pass on as our own Retry-After. */
  readonly retryAfterSeconds: number | null;
  /** For 'validation': Xero's messages. */
  readonly messages: string[];

  constructor(kind: AccountingErrorKind, detail: string, opts: { status?: number | null; retryAfterSeconds?: number | null; messages?: string[]; cause?: unknown } = {}) {
    super(detail, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AccountingError';
    this.kind = kind;
    this.detail = detail;
    this.status = opts.status ?? null;
    this.retryAfterSeconds = opts.retryAfterSeconds ?? null;
    this.messages = opts.messages ?? [];
  }
}

export const isAccountingError = (e: unknown, kind?: AccountingErrorKind): e is AccountingError =>
  e instanceof AccountingError && (kind === undefined || e.kind === kind);
