import { z } from 'zod';
import { CLIENT_LIMITS, clientFieldsSchema, storedClientFields } from '@tradie/domain';
import { fieldWarning } from './common.ts';
import { documentRowFields, paymentStatus } from './invoices.ts';

/** The optional client fields: sent as '' when blank; `null` is read as blank too. */
export const OPTIONAL_CLIENT_FIELDS = [
  'email', 'phone', 'address', 'is_business', 'business_name', 'company_number', 'gst_number', 'notes', 'default_payment_terms',
] as const;

/** The domain's field rules, with a name that says what is wrong when it is not text at all. */
const clientFieldsWithClearName = clientFieldsSchema.extend({
  name: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'Name is required' : 'Name must be text') })
    .trim()
    .min(1, { error: 'Name is required' })
    .max(CLIENT_LIMITS.name, { error: `Name must be at most ${CLIENT_LIMITS.name} characters` }),
});

const blankNulls = (raw: unknown): unknown => {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const k of OPTIONAL_CLIENT_FIELDS) if (out[k] === null) delete out[k];
  return out;
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** NUL and unpaired surrogates are valid JSON but cannot be stored as text: refuse them, never 500. */
export const isStorableText = (s: string): boolean => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

function refuseUnstorable(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const [field, v] of Object.entries(value)) {
    if (typeof v === 'string' && !isStorableText(v)) ctx.addIssue({ code: 'custom', path: [field], message: `${field} contains a character that can't be saved` });
  }
}

/**
 * POST /clients body: the client's fields. Unknown fields are ignored; optional fields default
 * to '' (is_business 'false', default_payment_terms '7 days'); is_business also takes a boolean.
 */
export const clientInput = z.preprocess(blankNulls, clientFieldsWithClearName.superRefine(refuseUnstorable));
export type ClientInput = z.input<typeof clientFieldsSchema>;

/** PUT /clients/{id} body: every field (a full replacement, as the form sends), plus the `version` the form was loaded at. */
export const clientUpdateInput = z.preprocess(
  blankNulls,
  clientFieldsWithClearName
    .extend({
      version: z
        .number({ error: 'version must be a whole number' })
        .int({ error: 'version must be a whole number' })
        .min(1, { error: 'version must be 1 or more' })
        .optional(),
    })
    .superRefine(refuseUnstorable),
);
export type ClientUpdateInput = ClientInput & { version?: number };

export const clientRecord = z.object({
  id: z.string(),
  // Every field of the client, as its events store them.
  ...storedClientFields.shape,
  /** The client's version: send it back with PUT to be told (409) when someone else changed the client meanwhile. */
  version: z.number().int(),
  /** Soft check-digit warnings (never block a save). */
  warnings: z.array(fieldWarning),
});
export type ClientRecord = z.infer<typeof clientRecord>;

export const CLIENT_LIST_MAX_LIMIT = 1000;

/** GET /clients query: `q` matches name, email or business_name (case-insensitive); `limit` caps the answer. */
export const clientListQuery = z.object({
  q: z
    .string()
    .max(200, { error: 'The search can be at most 200 characters' })
    .refine(isStorableText, { error: "The search contains a character that can't be searched for" })
    .optional()
    .transform((s) => (s ?? '').trim()),
  limit: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const n = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > CLIENT_LIST_MAX_LIMIT) {
        ctx.addIssue({ code: 'custom', message: `limit must be a whole number from 1 to ${CLIENT_LIST_MAX_LIMIT}` });
        return z.NEVER;
      }
      return n;
    }),
});
export type ClientListQuery = z.input<typeof clientListQuery>;

/** GET /clients answers an array of these. */
export const clientList = z.array(clientRecord);

/** One quote or invoice in GET /clients/{id}/documents. Money in dollars, rounded to cents. */
export const clientDocument = z.object({
  ...documentRowFields,
  paid: z.number(),
  balance: z.number(),
  payment_status: paymentStatus,
  paid_date: z.string().nullable(),
  issue_date: z.string(),
  due_date: z.string(),
  valid_until: z.string().nullable(),
});
export type ClientDocument = z.infer<typeof clientDocument>;

/**
 * The client's invoice history. Sums are of whole cents. Void invoices are listed and counted but
 * add nothing to the money figures; quotes never do.
 */
export const clientHistorySummary = z.object({
  /** Totals of the client's invoices that are not void. */
  invoiced_total: z.number(),
  /** Payments recorded on those invoices. */
  paid_total: z.number(),
  /** What is still owed on them. */
  outstanding_balance: z.number(),
  /** The part of the outstanding balance that is past its due date. */
  overdue_balance: z.number(),
  quote_count: z.number().int(),
  invoice_count: z.number().int(),
});
export type ClientHistorySummary = z.infer<typeof clientHistorySummary>;

export const clientHistory = z.object({
  client: clientRecord,
  documents: z.array(clientDocument),
  summary: clientHistorySummary,
});
export type ClientHistory = z.infer<typeof clientHistory>;
