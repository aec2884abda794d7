import type { DocumentView, LocalDate } from '@tradie/domain';

/** The business settings the PDF prints. Every field is '' when blank. */
export interface PdfBusiness {
  business_name: string;
  trading_as: string;
  nzbn: string;
  gst_number: string;
  phone: string;
  email: string;
  website: string;
  address: string;
  city: string;
  postcode: string;
  bank_name: string;
  bank_account_name: string;
  bank_account_number: string;
}

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
}
