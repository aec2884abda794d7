// /api/v1/business-settings — shared by the API (validation) and the Settings screen.
import { z } from 'zod';
import { CHECKED_BUSINESS_FIELDS, MARGIN_BASES } from '@tradie/domain';
import { fieldWarning, localDate } from './common.ts';

export const GST_ROUNDING_MODES = ['total', 'line'] as const;
export type GstRoundingMode = (typeof GST_ROUNDING_MODES)[number];

/** Longest value each text field takes (characters, after trimming). */
export const BUSINESS_SETTINGS_LIMITS = {
  business_name: 200,
  trading_as: 200,
  abn: 50,
  nzbn: 50,
  gst_number: 50,
  phone: 50,
  email: 254,
  website: 500,
  address: 1000,
  city: 100,
  postcode: 20,
  bank_name: 100,
  bank_account_name: 200,
  bank_account_number: 50,
  email_signature: 2000,
  quote_terms: 5000,
  default_email_subject: 200,
  default_email_message: 10_000,
  cc_email: 254,
  bcc_email: 254,
} as const;

export type BusinessTextField = keyof typeof BUSINESS_SETTINGS_LIMITS;

/** The text fields of the business settings, in the Settings screen's order. */
export const BUSINESS_TEXT_FIELDS = Object.keys(BUSINESS_SETTINGS_LIMITS) as BusinessTextField[];

const LABELS: Record<BusinessTextField, string> = {
  business_name: 'Business name',
  trading_as: 'Trading as',
  abn: 'ABN',
  nzbn: 'NZBN',
  gst_number: 'GST number',
  phone: 'Phone',
  email: 'Email',
  website: 'Website',
  address: 'Business address',
  city: 'City',
  postcode: 'Postcode',
  bank_name: 'Bank name',
  bank_account_name: 'Account name',
  bank_account_number: 'Account number',
  email_signature: 'Email signature',
  quote_terms: 'Quote terms',
  default_email_subject: 'Default email subject',
  default_email_message: 'Default email message',
  cc_email: 'CC email',
  bcc_email: 'BCC email',
};

export const SETTINGS_MESSAGES = {
  invalidEmail: (label: string) => `${label} must be a valid email address`,
  currencyNzdOnly: 'Only NZD is available for now. Multi-currency invoicing is coming soon.',
  multiCurrencyComingSoon: 'Multi-currency invoicing is coming soon.',
  gstRounding: "GST rounding must be 'total' (on the invoice total) or 'line' (on each line)",
  gstRoundingChanged:
    'GST rounding must stay the same for a whole GST period. Change it only from the first day of a new GST period; quotes and invoices already made keep the rounding they were made with.',
  gstFilingMonths: 'gst_filing_months must be 1 (monthly), 2 (two-monthly) or 6 (six-monthly)',
  gstRegistered: "gst_registered must be true (registered for GST) or false (not registered)",
  gstNumberNeeded: "You're registered for GST: add your GST number. Quotes and invoices can't be sent without it, because a tax invoice must show it.",
  logoTooLarge: 'Logo must be less than 2MB',
  logoWrongType: 'Logo must be a PNG, JPG or SVG image',
  logoUnreadableSvg: "This SVG file couldn't be read. Please save it again as a plain SVG, or upload a PNG or JPG.",
  logoUnreadableImage: "This image couldn't be read: it may be damaged. Please save it again as a PNG or JPG and upload it.",
  logoTooManyPixels: 'This image is too big to use as a logo (more than 16 megapixels). Please upload a smaller copy, such as 2000 × 800 pixels.',
  logoSvgImageUnreadable: "A picture inside this SVG couldn't be read, or is more than 16 megapixels. Please save the SVG again, or upload a PNG or JPG.",
  logoSvgTooManyImages: 'This SVG holds too many pictures (at most 8). Please simplify it, or upload a PNG or JPG.',
  logoLeftOut: "Your logo couldn't be read, so PDFs are made without it. Please upload it again.",
  logoMissing: 'Choose a logo file to upload (a PNG, JPG or SVG of at most 2MB).',
  logoNotMultipart: "Send the logo as multipart/form-data with a 'file' field.",
  noLogo: 'No logo uploaded yet',
  logoLinkInvalid: 'This logo link is invalid or has expired. Please reload the page.',
} as const;

/** Logo files: at most 2 MB (2 × 1024 × 1024 bytes). */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/** A text field: absent keeps the saved value, `null` clears it, text is trimmed and limited. */
const text = (field: BusinessTextField) => {
  const label = LABELS[field];
  const max = BUSINESS_SETTINGS_LIMITS[field];
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .nullable()
    .optional()
    .transform((v) => (v === null ? '' : v));
};

const emailField = (field: 'email' | 'cc_email' | 'bcc_email') =>
  text(field).refine((v) => v === undefined || v === '' || z.email().safeParse(v).success, { error: SETTINGS_MESSAGES.invalidEmail(LABELS[field]) });

/**
 * PUT /business-settings body: every business setting except `logo_url` (ignored when sent, as
 * are unknown fields). A field left out keeps its saved value; `null` or '' clears it (the email
 * subject and message then go back to their defaults). A GST number, NZBN or bank account number
 * that fails its check is refused (422, `errors` by field, nothing saved) unless the field is named
 * in `keep_as_entered` and its problem is one a tradie may keep (docs/nz-bank-accounts.md); a
 * valid bank account is saved written the usual way (12-3456-0123456-00).
 */
export const businessSettingsInput = z.object({
  business_name: text('business_name'),
  trading_as: text('trading_as'),
  abn: text('abn'),
  nzbn: text('nzbn'),
  gst_number: text('gst_number'),
  phone: text('phone'),
  email: emailField('email'),
  website: text('website'),
  address: text('address'),
  city: text('city'),
  postcode: text('postcode'),
  bank_name: text('bank_name'),
  bank_account_name: text('bank_account_name'),
  bank_account_number: text('bank_account_number'),
  email_signature: text('email_signature'),
  /** The terms a client ticks before accepting a quote online; '' for none. */
  quote_terms: text('quote_terms'),
  default_email_subject: text('default_email_subject'),
  default_email_message: text('default_email_message'),
  cc_email: emailField('cc_email'),
  bcc_email: emailField('bcc_email'),
  default_currency: z
    .string({ error: SETTINGS_MESSAGES.currencyNzdOnly })
    .trim()
    .toUpperCase()
    .refine((v) => v === 'NZD', { error: SETTINGS_MESSAGES.currencyNzdOnly })
    .nullable()
    .optional()
    .transform((v) => (v === null ? undefined : v)),
  enable_multi_currency: z
    .literal(false, { error: SETTINGS_MESSAGES.multiCurrencyComingSoon })
    .nullable()
    .optional()
    .transform((v) => (v === null ? undefined : v)),
  gst_rounding: z
    .enum(GST_ROUNDING_MODES, { error: SETTINGS_MESSAGES.gstRounding })
    .nullable()
    .optional()
    .transform((v) => (v === null ? undefined : v)),
  /** How many months a GST return covers: 1, 2 (default) or 6. A GST-rounding change applies from the next period. */
  gst_filing_months: z
    .union([z.literal(1), z.literal(2), z.literal(6)], { error: SETTINGS_MESSAGES.gstFilingMonths })
    .nullable()
    .optional()
    .transform((v) => (v === null ? undefined : v)),
  /** How the calculator works out a price from costs: markup on cost (default) or margin on price. */
  margin_basis: z
    .enum(MARGIN_BASES, { error: "margin_basis must be 'markup' (on cost) or 'margin' (on price)" })
    .nullable()
    .optional()
    .transform((v) => (v === null ? undefined : v)),
  /**
   * Registered for GST. Off: no GST on anything the business makes, and invoices are titled
   * 'Invoice'. On: quotes and invoices carry GST, and nothing is sent while `gst_number` is blank.
   */
  gst_registered: z
    .boolean({ error: SETTINGS_MESSAGES.gstRegistered })
    .nullable()
    .optional()
    .transform((v) => (v === null ? undefined : v)),
  /** The checked numbers the tradie chose to keep as typed although their check failed. */
  keep_as_entered: z
    .array(z.enum(CHECKED_BUSINESS_FIELDS, { error: `keep_as_entered may name ${CHECKED_BUSINESS_FIELDS.join(', ')}` }))
    .max(CHECKED_BUSINESS_FIELDS.length, { error: `keep_as_entered may name each of ${CHECKED_BUSINESS_FIELDS.join(', ')} once` })
    .optional(),
});
export type BusinessSettingsInput = z.input<typeof businessSettingsInput>;

/** GET (and PUT) /business-settings answer: every field with its default, plus soft warnings. */
export const businessSettingsRecord = z.object({
  business_name: z.string(),
  trading_as: z.string(),
  abn: z.string(),
  nzbn: z.string(),
  gst_number: z.string(),
  phone: z.string(),
  email: z.string(),
  website: z.string(),
  address: z.string(),
  city: z.string(),
  postcode: z.string(),
  /** Relative to the API base (e.g. `/business-settings/logo?v=…&sig=…`), signed so an <img> can load it; '' when there is none. */
  logo_url: z.string(),
  bank_name: z.string(),
  bank_account_name: z.string(),
  bank_account_number: z.string(),
  email_signature: z.string(),
  /** The terms a client ticks before accepting a quote online; '' for none. */
  quote_terms: z.string(),
  default_email_subject: z.string(),
  default_email_message: z.string(),
  cc_email: z.string(),
  bcc_email: z.string(),
  default_currency: z.literal('NZD'),
  enable_multi_currency: z.literal(false),
  /** The GST rounding new documents take today. */
  gst_rounding: z.enum(GST_ROUNDING_MODES),
  /** A rounding change waiting for the start of the next GST period, with the words saying from when; null when none. */
  gst_rounding_next: z.object({ rounding: z.enum(GST_ROUNDING_MODES), from: localDate, applies_from: z.string() }).nullable(),
  /** How many months a GST return covers: 1, 2 or 6. */
  gst_filing_months: z.union([z.literal(1), z.literal(2), z.literal(6)]),
  margin_basis: z.enum(MARGIN_BASES),
  /** Registered for GST: documents carry GST and invoices are tax invoices (which must show gst_number). */
  gst_registered: z.boolean(),
  /**
   * Warnings for gst_number / nzbn / bank_account_number kept although their check fails, a
   * missing GST number while registered, and (on PUT) a GST-rounding change warning.
   */
  warnings: z.array(fieldWarning),
});
export type BusinessSettingsRecord = z.infer<typeof businessSettingsRecord>;

/** A refused PUT /business-settings (422): `detail`, and each number to check by its field. */
export const businessSettingsFieldErrors = z.object({
  detail: z.string(),
  code: z.literal('check_numbers'),
  errors: z.array(z.object({ field: z.enum(CHECKED_BUSINESS_FIELDS), message: z.string(), keepable: z.boolean() })),
});
export type BusinessSettingsFieldErrors = z.infer<typeof businessSettingsFieldErrors>;

/** POST /business-settings/logo answer. */
export const logoUploadResponse = z.object({ logo_url: z.string() });
export type LogoUploadResponse = z.infer<typeof logoUploadResponse>;
