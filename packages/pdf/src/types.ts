import type { DocumentView, Form1Text, LocalDate } from '@tradie/domain';

/**
 * The business settings the PDF prints, in the order they are kept in a render input (the API's
 * PDF cache key is made from that input's JSON, so the order is part of the key).
 */
export const PDF_BUSINESS_FIELDS = [
  'business_name',
  'trading_as',
  'nzbn',
  'gst_number',
  'phone',
  'email',
  'website',
  'address',
  'city',
  'postcode',
  'bank_name',
  'bank_account_name',
  'bank_account_number',
] as const;

export type PdfBusinessField = (typeof PDF_BUSINESS_FIELDS)[number];

/** The business settings the PDF prints (PDF_BUSINESS_FIELDS). Every field is '' when blank. */
export type PdfBusiness = Record<PdfBusinessField, string>;

export type LogoKind = 'png' | 'jpeg' | 'svg';

export interface PdfLogo {
  bytes: Buffer;
  kind: LogoKind;
}

export interface PdfInput {
  document: DocumentView;
  business: PdfBusiness;
  logo?: PdfLogo | null;
  /** The NZ calendar day of the render: the PDF's creation date, so the same input gives the same bytes. */
  today: LocalDate;
  /** A quote's terms: the business's own, or those its client accepted; printed after the quote. */
  quoteTerms?: string;
  /** An accepted quote on the client's link: the acceptance certificate added as the last page. */
  acceptance?: PdfAcceptance | null;
  /** Variations the client approved through the link: a certificate each, after the quote's. */
  variationAcceptances?: PdfAcceptance[];
  /** An invoice that is a payment claim under the Construction Contracts Act 2002: its claim pages. */
  claim?: PdfClaim | null;
  /** Photos the tradie ticked for the PDF (JPEGs the API wrote): an appendix after the document. */
  photos?: PdfPhoto[];
}

/** A photo for the appendix: a JPEG and its size in pixels. */
export interface PdfPhoto {
  bytes: Uint8Array;
  width: number;
  height: number;
}

/** A payment claim as the PDF prints it: text worked out by the API (the same figures as the screen). */
export interface PdfClaim {
  statement: string;
  contractReference: string;
  contractDate: string;
  site: string;
  work: string;
  period: string;
  claimedAmount: string;
  paymentDue: string;
  scheduleDueBy: string;
  lines: { description: string; value: string; percentToDate: string; previous: string; thisClaim: string }[];
  contractSum: string;
  variations: string;
  revisedSum: string;
  toDate: string;
  previouslyClaimed: string;
  thisClaim: string;
  retentionLabel: string;
  retention: string;
  earlier: string[];
  /** The amounts include GST (false: the business was not registered for GST). */
  gstIncluded: boolean;
  form1: Form1Text;
}

/** How a client accepted a quote (or approved a variation of it) through its link (the certificate page). */
export interface PdfAcceptance {
  /** For a variation's certificate: its name ('Variation 1'); absent for the quote's own. */
  variation?: string;
  signerName: string;
  /** The instant (ISO 8601); printed in New Zealand time. */
  acceptedAt: string;
  documentVersion: number;
  shownSha256: string;
  termsAccepted: boolean;
  /** The terms accepted, word for word ('' for none); null when the wording was not recorded (older acceptances). */
  terms: string | null;
  ip: string;
  userAgent: string;
  /** The finger signature (PNG), or null when the client only typed their name. */
  signaturePng: Uint8Array | null;
}
