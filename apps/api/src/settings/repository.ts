// Reading business settings with their defaults (spec §3 Business settings). Every feature that
// needs the tradie's details (PDF, email, Xero) reads them here.
import type { Sql } from '@tradie/store';

export const DEFAULT_EMAIL_SUBJECT = 'Invoice from [Business Name]';
export const DEFAULT_EMAIL_MESSAGE = `Hi [Client Name],

Please find attached invoice [Invoice Number].

If you have any questions, just reply to this email.

Kind regards,
[Your Name]`;

export interface BusinessSettings {
  business_name: string;
  trading_as: string;
  abn: string;
  nzbn: string;
  gst_number: string;
  phone: string;
  email: string;
  website: string;
  address: string;
  city: string;
  postcode: string;
  /** A path relative to the API base, or '' when there is no logo. */
  logo_url: string;
  bank_name: string;
  bank_account_name: string;
  bank_account_number: string;
  email_signature: string;
  default_email_subject: string;
  default_email_message: string;
  cc_email: string;
  bcc_email: string;
  default_currency: string;
  enable_multi_currency: boolean;
  /** GST rounding for new documents: on the invoice total (default) or per line (nz-rules §1.3). */
  gst_rounding: 'total' | 'line';
}

export const DEFAULT_SETTINGS: BusinessSettings = {
  business_name: '', trading_as: '', abn: '', nzbn: '', gst_number: '', phone: '', email: '', website: '', address: '', city: '',
  postcode: '', logo_url: '', bank_name: '', bank_account_name: '', bank_account_number: '', email_signature: '',
  default_email_subject: DEFAULT_EMAIL_SUBJECT, default_email_message: DEFAULT_EMAIL_MESSAGE, cc_email: '', bcc_email: '',
  default_currency: 'NZD', enable_multi_currency: false, gst_rounding: 'total',
};

export const logoUrlFor = (sha256: string): string => `/business-settings/logo?v=${sha256.slice(0, 16)}`;

export async function loadBusinessSettings(sql: Sql, accountId: string): Promise<BusinessSettings> {
  const [row] = await sql.query<Record<string, unknown>>('SELECT * FROM business_settings WHERE account_id = $1', [accountId]);
  const [logo] = await sql.query<{ sha256: string }>('SELECT sha256 FROM business_logos WHERE account_id = $1', [accountId]);
  const s: BusinessSettings = { ...DEFAULT_SETTINGS };
  if (row) {
    for (const k of Object.keys(DEFAULT_SETTINGS) as (keyof BusinessSettings)[]) {
      const v = row[k];
      if (v !== null && v !== undefined) (s as unknown as Record<string, unknown>)[k] = v;
    }
  }
  s.logo_url = logo ? logoUrlFor(logo.sha256) : '';
  return s;
}

export async function loadLogo(sql: Sql, accountId: string): Promise<{ bytes: Buffer; kind: 'png' | 'jpeg' | 'svg'; contentType: string } | null> {
  const [row] = await sql.query<{ bytes: Uint8Array; kind: 'png' | 'jpeg' | 'svg'; content_type: string }>(
    'SELECT bytes, kind, content_type FROM business_logos WHERE account_id = $1',
    [accountId],
  );
  return row ? { bytes: Buffer.from(row.bytes), kind: row.kind, contentType: row.content_type } : null;
}
