// Reading business settings with their defaults. Every feature that
// needs the tradie's details (PDF, email, Xero) reads them here.
import { nzDateOf, requestRounding, roundingOn, type GstFilingMonths, type GstRegistration, type GstRounding, type LocalDate, type RoundingSetting } from '@tradie/domain';
import type { PdfBusiness } from '@tradie/pdf';
import type { Sql } from '@tradie/store';

export const DEFAULT_EMAIL_SUBJECT = 'Invoice from [Business Name]';
export const DEFAULT_EMAIL_MESSAGE = `Hi [Client Name],

Please find attached invoice [Invoice Number].

If you have any questions, just reply to this email.

Kind regards,
[Your Name]`;

/** The business's settings: the details its PDFs print (PdfBusiness), and the rest. */
export interface BusinessSettings extends PdfBusiness {
  abn: string;
  /** A path relative to the API base, or '' when there is no logo. */
  logo_url: string;
  email_signature: string;
  /** The terms a client must tick before accepting a quote through its link; '' when none. */
  quote_terms: string;
  default_email_subject: string;
  default_email_message: string;
  cc_email: string;
  bcc_email: string;
  default_currency: string;
  enable_multi_currency: boolean;
  /**
   * GST rounding for new documents (s 19O): on the invoice total (default) or per line
   * (docs/decisions/0002-money-and-rounding.md).
   */
  gst_rounding: 'total' | 'line';
  /**
   * A change of rounding waiting for the start of the next GST period (one method per period,
   * docs/decisions/0025-one-rounding-per-period.md); null when none. New documents take
   * `roundingInUse`, never `gst_rounding` alone.
   */
  gst_rounding_next: { rounding: GstRounding; from: LocalDate } | null;
  /** How many months a GST return covers (1, 2 or 6): where GST periods start. */
  gst_filing_months: GstFilingMonths;
  /**
   * Registered for GST: its documents carry GST and its invoices are tax invoices, which must show
   * `gst_number`. Not registered: no GST on anything it makes (docs/decisions/0023-gst-registration.md).
   */
  gst_registered: boolean;
  /** The calculator's way of working out a price: markup on cost (default) or margin on price. */
  margin_basis: 'markup' | 'margin';
}

export const DEFAULT_SETTINGS: BusinessSettings = {
  business_name: '', trading_as: '', abn: '', nzbn: '', gst_number: '', phone: '', email: '', website: '', address: '', city: '',
  postcode: '', logo_url: '', bank_name: '', bank_account_name: '', bank_account_number: '', email_signature: '', quote_terms: '',
  default_email_subject: DEFAULT_EMAIL_SUBJECT, default_email_message: DEFAULT_EMAIL_MESSAGE, cc_email: '', bcc_email: '',
  default_currency: 'NZD', enable_multi_currency: false, gst_rounding: 'total', gst_rounding_next: null, gst_filing_months: 2, margin_basis: 'markup', gst_registered: true,
};

/**
 * A business whose settings were saved before registration was asked (gst_registered NULL) is
 * registered when it has a GST number or has charged GST on a quote or invoice: what it did until
 * then keeps working, and one with GST but no number is asked for it before anything is sent. An
 * account with no settings yet is registered, as most tradespeople are: its first send asks for the
 * number (or for the switch to be turned off).
 */
async function registeredBefore(sql: Sql, accountId: string, gstNumber: string): Promise<boolean> {
  if (gstNumber.trim() !== '') return true;
  const [charged] = await sql.query('SELECT 1 FROM documents_list WHERE account_id = $1 AND gst_cents <> 0 LIMIT 1', [accountId]);
  return charged !== undefined;
}

/** The business's GST registration as the domain checks it before anything goes to a client. */
export const gstRegistrationOf = (s: Pick<BusinessSettings, 'gst_registered' | 'gst_number'>): GstRegistration => ({ registered: s.gst_registered, gstNumber: s.gst_number });

/** The rounding as the settings hold it: the method in use and any change waiting. */
const roundingSettingOf = (s: Pick<BusinessSettings, 'gst_rounding' | 'gst_rounding_next'>): RoundingSetting => ({ rounding: s.gst_rounding, next: s.gst_rounding_next });

/** The GST rounding a document made on `today` (NZ day) takes: every path that makes a document calls this. */
export const roundingInUse = (s: Pick<BusinessSettings, 'gst_rounding' | 'gst_rounding_next'>, today: LocalDate): GstRounding => roundingOn(roundingSettingOf(s), today);

/** A `date` column as the driver gives it (a string or a Date at UTC midnight). */
const localDateOf = (v: unknown): LocalDate => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

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
    s.gst_rounding_next = row.gst_rounding_next === 'total' || row.gst_rounding_next === 'line' ? { rounding: row.gst_rounding_next, from: localDateOf(row.gst_rounding_from) } : null;
    if (row.gst_registered === null || row.gst_registered === undefined) s.gst_registered = await registeredBefore(sql, accountId, s.gst_number);
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

/** The columns PUT /business-settings writes (everything but the logo). */
export const WRITABLE_SETTINGS = [
  'business_name', 'trading_as', 'abn', 'nzbn', 'gst_number', 'phone', 'email', 'website', 'address', 'city', 'postcode',
  'bank_name', 'bank_account_name', 'bank_account_number', 'email_signature', 'quote_terms', 'default_email_subject', 'default_email_message',
  'cc_email', 'bcc_email', 'default_currency', 'enable_multi_currency', 'gst_rounding', 'gst_filing_months', 'margin_basis', 'gst_registered',
] as const satisfies readonly (keyof BusinessSettings)[];

export type SettingsPatch = Partial<{ [K in (typeof WRITABLE_SETTINGS)[number]]: BusinessSettings[K] }>;

/**
 * Upserts the fields present in `patch` (absent ones keep their saved value). A blank email
 * subject or message is stored as NULL: it reads back as the default. GST registration is written
 * down the first time the settings are saved, as it reads then, so it never changes unasked.
 * A GST rounding other than the one in use waits for the next GST period (`requestRounding`).
 * Returns the GST rounding in use before this write. Run it inside a transaction: it locks the
 * account's row.
 */
export async function saveBusinessSettings(tx: Sql, accountId: string, patch: SettingsPatch, now: Date): Promise<{ previousGstRounding: 'total' | 'line' }> {
  const [before] = await tx.query<{ gst_rounding: GstRounding; gst_rounding_next: GstRounding | null; gst_rounding_from: unknown; gst_filing_months: GstFilingMonths; gst_registered: boolean | null; gst_number: string }>(
    'SELECT gst_rounding, gst_rounding_next, gst_rounding_from, gst_filing_months, gst_registered, gst_number FROM business_settings WHERE account_id = $1 FOR UPDATE',
    [accountId],
  );
  const held: RoundingSetting = before
    ? { rounding: before.gst_rounding, next: before.gst_rounding_next ? { rounding: before.gst_rounding_next, from: localDateOf(before.gst_rounding_from) } : null }
    : { rounding: DEFAULT_SETTINGS.gst_rounding, next: null };
  const inUse = roundingOn(held, nzDateOf(now));
  // One method per GST period: a change is kept for the start of the next one.
  const rounding = patch.gst_rounding === undefined ? null : requestRounding(held, patch.gst_rounding, nzDateOf(now), patch.gst_filing_months ?? before?.gst_filing_months ?? DEFAULT_SETTINGS.gst_filing_months);
  const registration: SettingsPatch = {};
  if (patch.gst_registered === undefined && (!before || before.gst_registered === null)) {
    registration.gst_registered = before ? await registeredBefore(tx, accountId, patch.gst_number ?? before.gst_number) : DEFAULT_SETTINGS.gst_registered;
  }
  const columns: string[] = [];
  const values: unknown[] = [accountId, now.toISOString()];
  for (const key of WRITABLE_SETTINGS) {
    let value: unknown = key === 'gst_rounding' ? rounding?.rounding : (patch[key] ?? registration[key]);
    if (value === undefined) continue;
    if ((key === 'default_email_subject' || key === 'default_email_message') && value === '') value = null;
    columns.push(key);
    values.push(value);
  }
  if (rounding) {
    columns.push('gst_rounding_next', 'gst_rounding_from');
    values.push(rounding.next?.rounding ?? null, rounding.next?.from ?? null);
  }
  const names = ['account_id', 'updated_at', ...columns];
  const updates = ['updated_at', ...columns].map((c) => `${c} = EXCLUDED.${c}`).join(', ');
  await tx.query(
    `INSERT INTO business_settings (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT (account_id) DO UPDATE SET ${updates}`,
    values,
  );
  return { previousGstRounding: inUse };
}

export async function logoVersion(sql: Sql, accountId: string): Promise<string | null> {
  const [row] = await sql.query<{ sha256: string }>('SELECT sha256 FROM business_logos WHERE account_id = $1', [accountId]);
  return row?.sha256 ?? null;
}

/** Stores a logo made by prepareLogo (logoPrepare.ts): decoded and re-encoded, so 'ready' for PDFs. */
export async function saveLogo(sql: Sql, accountId: string, logo: { kind: 'png' | 'jpeg' | 'svg'; contentType: string; bytes: Uint8Array; sha256: string }, now: Date): Promise<void> {
  await sql.query(
    `INSERT INTO business_logos (account_id, kind, content_type, bytes, sha256, updated_at, state) VALUES ($1, $2, $3, $4, $5, $6, 'ready')
     ON CONFLICT (account_id) DO UPDATE SET kind = EXCLUDED.kind, content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes,
       sha256 = EXCLUDED.sha256, updated_at = EXCLUDED.updated_at, state = 'ready'`,
    [accountId, logo.kind, logo.contentType, logo.bytes, logo.sha256, now.toISOString()],
  );
}

export type LogoState = 'unchecked' | 'ready' | 'unreadable';

/**
 * The logo a PDF may draw, or null. A logo stored before uploads were re-encoded ('unchecked') is
 * put through `prepare` now, once: re-encoded in place ('ready'), or marked 'unreadable' and left
 * out. The update only lands if the row still holds the bytes that were checked (a new upload
 * meanwhile wins), so two processes doing this at once write the same thing or nothing.
 */
export async function logoForPdf(
  sql: Sql,
  accountId: string,
  prepare: (bytes: Uint8Array) => Promise<{ ok: true; kind: 'png' | 'jpeg' | 'svg'; contentType: string; bytes: Buffer; sha256: string } | { ok: false }>,
): Promise<{ bytes: Buffer; kind: 'png' | 'jpeg' | 'svg'; sha256: string } | null> {
  const [row] = await sql.query<{ bytes: Uint8Array; kind: 'png' | 'jpeg' | 'svg'; sha256: string; state: LogoState }>(
    'SELECT bytes, kind, sha256, state FROM business_logos WHERE account_id = $1',
    [accountId],
  );
  if (!row || row.state === 'unreadable') return null;
  if (row.state === 'ready') return { bytes: Buffer.from(row.bytes), kind: row.kind, sha256: row.sha256 };
  const checked = await prepare(row.bytes);
  if (!checked.ok) {
    await sql.query(`UPDATE business_logos SET state = 'unreadable' WHERE account_id = $1 AND sha256 = $2 AND state = 'unchecked'`, [accountId, row.sha256]);
    return null;
  }
  await sql.query(
    `UPDATE business_logos SET kind = $3, content_type = $4, bytes = $5, sha256 = $6, state = 'ready'
     WHERE account_id = $1 AND sha256 = $2 AND state = 'unchecked'`,
    [accountId, row.sha256, checked.kind, checked.contentType, checked.bytes, checked.sha256],
  );
  return { bytes: checked.bytes, kind: checked.kind, sha256: checked.sha256 };
}

export async function logoState(sql: Sql, accountId: string): Promise<LogoState | null> {
  const [row] = await sql.query<{ state: LogoState }>('SELECT state FROM business_logos WHERE account_id = $1', [accountId]);
  return row?.state ?? null;
}

/** True when there was a logo to delete. */
export async function deleteLogo(sql: Sql, accountId: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM business_logos WHERE account_id = $1 RETURNING account_id', [accountId]);
  return rows.length > 0;
}
