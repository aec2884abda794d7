// The Settings form: the values the Business & Logo, Email Settings and Currency tabs edit, what
// 'Save Settings' sends (PUT /business-settings), and the soft check-digit warnings.
import { CHECKED_BUSINESS_FIELDS, identifierWarnings, type CheckedBusinessField } from '@tradie/domain';
import { BUSINESS_TEXT_FIELDS, MAX_LOGO_BYTES, type BusinessSettingsInput, type BusinessSettingsRecord, type BusinessTextField, type FieldWarning } from '@tradie/contracts';

/** The fields PUT /business-settings carries: every business setting except logo_url (its text fields). */
export const SAVED_FIELDS: readonly BusinessTextField[] = BUSINESS_TEXT_FIELDS;

export type SettingsField = BusinessTextField;
export type SettingsFormValues = Record<SettingsField, string>;

export const SETTINGS_TEXT = {
  saved: 'Settings saved successfully!',
  /** Saved with a number kept as typed although its check failed: no 'successfully' beside its warning. */
  savedWithKept: 'Settings saved. The numbers you kept as typed are marked below — please make sure they are right.',
  keepAsTyped: 'Keep this number as I typed it',
  saveFailed: 'Error saving settings. Please try again.',
  logoUploaded: 'Logo uploaded successfully!',
  logoUploadFailed: 'Error uploading logo',
  logoDeleted: 'Logo deleted successfully!',
  logoDeleteFailed: 'Error deleting logo',
  logoTooLarge: 'Logo must be less than 2MB',
  logoDeleteConfirm: 'Delete your business logo?',
} as const;

export function formFromRecord(record: BusinessSettingsRecord): SettingsFormValues {
  const out = {} as SettingsFormValues;
  for (const f of SAVED_FIELDS) out[f] = record[f];
  return out;
}

/**
 * PUT /business-settings: the business, email and currency settings together, and the checked
 * numbers the tradie chose to keep as typed.
 */
export function settingsBody(values: SettingsFormValues, keep: readonly CheckedBusinessField[] = []): BusinessSettingsInput {
  const body: BusinessSettingsInput = { default_currency: 'NZD', enable_multi_currency: false };
  for (const f of SAVED_FIELDS) body[f] = values[f];
  if (keep.length > 0) body.keep_as_entered = [...keep];
  return body;
}

/** A number the last save refused, with the value it refused (the error shows while that value is there). */
export interface NumberProblem {
  field: CheckedBusinessField;
  message: string;
  keepable: boolean;
  value: string;
}

/** The numbers a 422 from PUT /business-settings refused, by field; [] for any other failure. */
export function numberProblems(error: unknown, sent: Partial<Record<CheckedBusinessField, string>>): NumberProblem[] {
  const body = (error as { status?: unknown; body?: unknown } | null)?.body as { code?: unknown; errors?: unknown } | undefined;
  if ((error as { status?: unknown }).status !== 422 || body?.code !== 'check_numbers' || !Array.isArray(body.errors)) return [];
  const out: NumberProblem[] = [];
  for (const e of body.errors as { field?: unknown; message?: unknown; keepable?: unknown }[]) {
    const field = CHECKED_BUSINESS_FIELDS.find((f) => f === e.field);
    if (field && typeof e.message === 'string') out.push({ field, message: e.message, keepable: e.keepable === true, value: sent[field] ?? '' });
  }
  return out;
}

/** True when a saved record warns about a checked number: it was kept as typed. */
export const keptNumbers = (record: BusinessSettingsRecord): boolean => record.warnings.some((w) => (CHECKED_BUSINESS_FIELDS as readonly string[]).includes(w.field));

/**
 * The warnings to show under the fields: the server's (from the last load or save) for values still
 * as saved, and the same domain check on what is typed now. Never block a save.
 */
export function visibleWarnings(values: SettingsFormValues, saved: BusinessSettingsRecord | undefined): FieldWarning[] {
  const out: FieldWarning[] = [];
  const add = (w: FieldWarning) => {
    if (!out.some((x) => x.field === w.field && x.message === w.message)) out.push(w);
  };
  for (const w of saved?.warnings ?? []) {
    const field = w.field as SettingsField;
    if (!SAVED_FIELDS.includes(field) || values[field] === saved?.[field]) add(w);
  }
  for (const w of identifierWarnings({ gst_number: values.gst_number, nzbn: values.nzbn })) add(w);
  return out;
}

/** A logo over 2 MB is refused before it is sent. */
export const logoTooLarge = (file: { size: number }): boolean => file.size > MAX_LOGO_BYTES;
