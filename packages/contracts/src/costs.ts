// /api/v1/costs and /api/v1/hours: what the business spent — receipts, supplier bills and expenses
// — and the hours worked, each optionally against a job (an accepted quote). Amounts are typed as
// dollars and cents and travel back as decimal strings (docs/api/costs.md).
import { z } from 'zod';
import { isLocalDate, REPEAT_FREQUENCIES, storedCostFields, storedHoursFields } from '@tradie/domain';
import { isStorableText } from './clients.ts';

export const COST_LIMITS = { supplier: 200, category: 40, note: 2000, who: 100 } as const;
export const COST_LIST_MAX = 5000;

export const COST_MESSAGES = {
  costNotFound: 'Cost not found',
  recurringNotFound: 'Repeating expense not found',
  hoursNotFound: 'Hours not found',
  jobNotFound: 'That job was not found: choose one of your accepted quotes.',
  notRegistered: 'Your business is not registered for GST, so a cost cannot carry GST. Choose no GST, or register for GST in Settings first.',
  stale: 'This entry was changed somewhere else since you opened it. Reload it and try again.',
} as const;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label} can be at most ${max.toLocaleString('en-NZ')} characters` })
    .refine(isStorableText, { error: `${label} contains a character that can't be saved` });

const requiredText = (label: string, max: number) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${label} is required` : `${label} must be text`) })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} can be at most ${max.toLocaleString('en-NZ')} characters` })
    .refine(isStorableText, { error: `${label} contains a character that can't be saved` });

const date = (label: string) =>
  z.string({ error: `${label} is required` }).refine(isLocalDate, { error: `${label} must be a real calendar day written as YYYY-MM-DD` });

/** Dollars and cents as typed: a string or a number; the rules (more than 0, bounded) are the domain's. */
const amountText = (label: string) =>
  z.union([z.string(), z.number()], { error: `${label} must be an amount in dollars and cents` }).transform((v) => String(v).trim());

const version = z.number({ error: 'version must be a whole number' }).int({ error: 'version must be a whole number' }).min(1, { error: 'version must be 1 or more' }).optional();

const jobId = z
  .string({ error: 'job_id must be the id of an accepted quote' })
  .max(100, { error: 'job_id must be the id of an accepted quote' })
  .nullable()
  .optional()
  .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v.trim()));

/** POST /costs body (PUT takes the same, every field, plus version). */
export const costInput = z.object({
  kind: z.enum(['receipt', 'bill', 'expense'], { error: "kind must be 'receipt', 'bill' or 'expense'" }).optional().transform((v) => v ?? 'receipt'),
  supplier: requiredText('Supplier', COST_LIMITS.supplier),
  date: date('The date'),
  paid_date: date('The date paid').nullable().optional().transform((v) => v ?? null),
  amount: amountText('The amount'),
  gst: z.enum(['standard', 'none'], { error: "gst must be 'standard' (15 % included) or 'none'" }).optional().transform((v) => v ?? 'standard'),
  supply_information_held: z.boolean({ error: 'supply_information_held must be true or false' }).optional().transform((v) => v ?? false),
  credit: z.boolean({ error: 'credit must be true or false' }).optional().transform((v) => v ?? false),
  category: text('Category', COST_LIMITS.category).optional().transform((v) => (v === undefined || v === '' ? 'materials' : v.toLowerCase())),
  job_id: jobId,
  note: text('Note', COST_LIMITS.note).optional().transform((v) => v ?? ''),
});
export type CostInput = z.input<typeof costInput>;
export type CostFieldsInput = z.output<typeof costInput>;
export const costUpdateInput = costInput.extend({ version });

/** What is kept of a cost's receipt: a JPEG (a photo, re-encoded) or a PDF. */
export const receiptInfo = z.object({
  content_type: z.enum(['image/jpeg', 'application/pdf']),
  bytes: z.number().int(),
  uploaded_at: z.string(),
});
export type ReceiptInfo = z.infer<typeof receiptInfo>;

export const costRecord = z.object({
  id: z.string(),
  kind: storedCostFields.shape.kind,
  supplier: z.string(),
  date: z.string(),
  paid_date: z.string().nullable(),
  /** Including GST, dollars and cents ("123.45"). */
  amount: z.string(),
  gst: storedCostFields.shape.gst,
  /** The GST in it that is claimed back ("0.00" when it is not). */
  gst_claimed: z.string(),
  /** Why the GST is not claimed, in words for the screen; null when it is. */
  not_claimed_reason: z.string().nullable(),
  supply_information_held: z.boolean(),
  credit: z.boolean(),
  category: z.string(),
  job_id: z.string().nullable(),
  note: z.string(),
  version: z.number().int(),
  /**
   * When the cost is dated in a GST period already exported for the accountant: on the answer to a
   * change, where that change is counted instead; on a cost read, where a change would be. Else null.
   */
  gst_notice: z.string().nullable(),
  /** The receipt kept with it (PUT /costs/{id}/receipt), or null. */
  receipt: receiptInfo.nullable(),
  /** Its bill in Xero once sent (POST /integrations/xero/bills/{id}): 'sent', 'paid' or 'voided' there, and what last went wrong (null when nothing did). */
  xero_bill: z.object({ status: z.enum(['sent', 'paid', 'voided']), xero_bill_id: z.string(), detail: z.string().nullable() }).nullable().optional(),
});
export type CostRecord = z.infer<typeof costRecord>;

const optionalDate = (label: string) =>
  z.string().optional().refine((v) => v === undefined || v === '' || isLocalDate(v), { error: `${label} must be a real calendar day written as YYYY-MM-DD` }).transform((v) => (v ? v : undefined));

/** GET /costs and GET /hours query: by job ('none': not for a job), and by date from/to inclusive. */
export const costListQuery = z.object({
  job_id: z.string().max(100, { error: 'job_id must be an id or none' }).optional().transform((v) => (v ? v : undefined)),
  from: optionalDate('from'),
  to: optionalDate('to'),
  kind: z.enum(['receipt', 'bill', 'expense'], { error: "kind must be 'receipt', 'bill' or 'expense'" }).optional(),
});
export type CostListQuery = z.input<typeof costListQuery>;

export const costList = z.object({ costs: z.array(costRecord) });
export type CostList = z.infer<typeof costList>;

/** POST /hours body (PUT takes the same plus version). */
export const hoursInput = z.object({
  who: text('Who', COST_LIMITS.who).optional().transform((v) => (v === undefined || v === '' ? 'owner' : v)),
  date: date('The date'),
  hours: amountText('Hours'),
  rate: amountText('The hourly cost').optional().transform((v) => (v === undefined || v === '' ? '0' : v)),
  job_id: jobId,
  note: text('Note', COST_LIMITS.note).optional().transform((v) => v ?? ''),
});
export type HoursInput = z.input<typeof hoursInput>;
export type HoursFieldsInput = z.output<typeof hoursInput>;
export const hoursUpdateInput = hoursInput.extend({ version });

export const hoursRecord = z.object({
  id: z.string(),
  who: z.string(),
  date: z.string(),
  hours: storedHoursFields.shape.hours,
  rate: z.string(),
  /** hours × rate, to the cent. */
  cost: z.string(),
  job_id: z.string().nullable(),
  note: z.string(),
  version: z.number().int(),
});
export type HoursRecord = z.infer<typeof hoursRecord>;
export const hoursList = z.object({ hours: z.array(hoursRecord) });
export type HoursList = z.infer<typeof hoursList>;

// ---- repeating expenses ---------------------------------------------------------------------------

/** At most this many repeating expenses an account keeps going at once. */
export const RECURRING_MAX_ACTIVE = 50;

/** POST /recurring-costs body: an expense (not for a job) recorded by itself on each of its dates. */
export const recurringInput = z.object({
  supplier: requiredText('Supplier', COST_LIMITS.supplier),
  amount: amountText('The amount'),
  gst: z.enum(['standard', 'none'], { error: "gst must be 'standard' (15 % included) or 'none'" }).optional().transform((v) => v ?? 'standard'),
  supply_information_held: z.boolean({ error: 'supply_information_held must be true or false' }).optional().transform((v) => v ?? false),
  category: text('Category', COST_LIMITS.category).optional().transform((v) => (v === undefined || v === '' ? 'other' : v.toLowerCase())),
  note: text('Note', COST_LIMITS.note).optional().transform((v) => v ?? ''),
  frequency: z.enum(REPEAT_FREQUENCIES, { error: "frequency must be 'weekly', 'fortnightly', 'monthly', 'quarterly' or 'yearly'" }),
  start_date: date('The first date'),
  end_date: date('The last date').nullable().optional().transform((v) => v ?? null),
  paid_on_date: z.boolean({ error: 'paid_on_date must be true or false' }).optional().transform((v) => v ?? true),
});
export type RecurringInput = z.input<typeof recurringInput>;
export type RecurringFieldsInput = z.output<typeof recurringInput>;

export const recurringRecord = z.object({
  id: z.string(),
  supplier: z.string(),
  /** Each time, including GST ("65.00"). */
  amount: z.string(),
  gst: storedCostFields.shape.gst,
  supply_information_held: z.boolean(),
  category: z.string(),
  note: z.string(),
  frequency: z.enum(REPEAT_FREQUENCIES),
  start_date: z.string(),
  end_date: z.string().nullable(),
  paid_on_date: z.boolean(),
  /** How many costs it has recorded so far. */
  made: z.number().int(),
  last_made_on: z.string().nullable(),
  /** The next one's date; null once stopped or past its last date. */
  next_date: z.string().nullable(),
  stopped_on: z.string().nullable(),
  version: z.number().int(),
});
export type RecurringRecord = z.infer<typeof recurringRecord>;
export const recurringList = z.object({ recurring: z.array(recurringRecord) });
export type RecurringList = z.infer<typeof recurringList>;

/** GET /jobs/{quoteId}/profit: the job's real profit so far. Money as decimal strings. */
export const jobProfitRecord = z.object({
  quote_id: z.string(),
  quote_number: z.string(),
  client_name: z.string(),
  quoted_sell: z.string(),
  quoted_cost: z.string(),
  quoted_by_category: z.array(z.object({ category: z.string(), cost: z.string() })),
  actual_by_category: z.array(z.object({ category: z.string(), cost: z.string() })),
  actual_cost: z.string(),
  invoiced_net: z.string(),
  profit_so_far: z.string(),
  /** Categories whose actual cost passed the quoted cost by more than the threshold, in words. */
  warnings: z.array(z.string()),
});
export type JobProfitRecord = z.infer<typeof jobProfitRecord>;

/** GET /jobs/{quoteId}/profit query: warn when a category's actual cost is over its quoted cost by more than `over` % (default 10). */
export const jobProfitQuery = z.object({
  over: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return 10;
      if (!/^\d{1,3}$/.test(v) || Number(v) > 500) {
        ctx.addIssue({ code: 'custom', message: 'over must be a whole percentage from 0 to 500' });
        return z.NEVER;
      }
      return Number(v);
    }),
});

/** At most this many jobs in GET /jobs: the newest accepted quotes. */
export const JOB_LIST_MAX = 200;

/** GET /jobs query: the order ('recent' first, most 'profit' first, most 'overrun' first) and the warning threshold. */
export const jobListQuery = z.object({
  sort: z.enum(['recent', 'profit', 'overrun'], { error: "sort must be 'recent', 'profit' or 'overrun'" }).optional().transform((v) => v ?? 'recent'),
  over: jobProfitQuery.shape.over,
});
export type JobSort = z.output<typeof jobListQuery>['sort'];

/** A job in GET /jobs: its profit so far, and how far its costs so far are over its quoted cost (whole %; null when nothing was quoted at a cost). */
export const jobSummary = jobProfitRecord.extend({ overrun_percent: z.number().int().nullable() });
export type JobSummary = z.infer<typeof jobSummary>;
export const jobList = z.object({ jobs: z.array(jobSummary), has_more: z.boolean() });
export type JobList = z.infer<typeof jobList>;
