// Payment claims under the Construction Contracts Act 2002 (docs/cca-payment-claims.md): making a
// draft invoice a claim, the claim as it reads (its dates, what is missing, the calculation, the
// payer's payment schedule and the retention held), and recording a schedule or a release.
import { z } from 'zod';
import { localDate, money } from './common.ts';

const text = (name: string, max: number) =>
  z.string({ error: `${name} must be text` }).max(max, { error: `${name} can be at most ${max} characters` }).transform((v) => v.trim());
const optionalDay = (name: string) =>
  z
    .union([localDate, z.literal(''), z.null()], { error: `${name} is written YYYY-MM-DD` })
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v));

/** PUT /invoices/{id}/payment-claim: the claim's details (a draft invoice only). Blank fields are allowed: sending is what needs them. */
export const paymentClaimInput = z.object({
  contract_reference: text('The contract reference', 200).optional().transform((v) => v ?? ''),
  contract_date: optionalDay('The contract date'),
  site: text('The site', 300).optional().transform((v) => v ?? ''),
  work: text('The description of the work', 1000).optional().transform((v) => v ?? ''),
  period_from: optionalDay('The start of the claim period'),
  period_to: optionalDay('The end of the claim period'),
  retention_percent: z
    .union([z.number(), z.string()], { error: 'Retention must be a percentage' })
    .optional()
    .transform((v) => (v === undefined || String(v).trim() === '' ? '0' : String(v).trim())),
  payment_due_date: optionalDay('The due date for payment'),
  /**
   * Which due date for payment applies when the contract sets none: 'invoice' (the invoice's own due
   * date) or 'act' (20 working days after the claim is served). Needed when the two differ and no
   * `payment_due_date` is given: without it the claim is refused (422) with the question.
   */
  due_date_choice: z
    .enum(['invoice', 'act'], { error: "due_date_choice must be 'invoice' or 'act'" })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  schedule_working_days: z
    .union([z.number({ error: 'The working days for a payment schedule must be a whole number' }).int({ error: 'The working days for a payment schedule must be a whole number' }), z.null()])
    .optional()
    .transform((v) => v ?? null),
  /** The invoice's version the details were read at: another is 409 (someone changed it meanwhile). */
  version: z.number().int().nonnegative().optional(),
});
export type PaymentClaimInput = z.input<typeof paymentClaimInput>;

/** POST /invoices/{id}/payment-schedules: the payer's payment schedule, as received. */
export const paymentScheduleInput = z.object({
  received_on: localDate,
  scheduled_amount: z.union([z.number(), z.string()], { error: 'The scheduled amount must be a number' }).transform((v) => String(v).trim()),
  reasons: z.string().max(2000, { error: 'The reasons can be at most 2,000 characters' }).optional().transform((v) => v ?? ''),
});
export type PaymentScheduleInput = z.input<typeof paymentScheduleInput>;

/** POST /invoices/{id}/retention-releases: retention the payer released. */
export const retentionReleaseInput = z.object({
  amount: z.union([z.number(), z.string()], { error: 'The amount must be a number' }).transform((v) => String(v).trim()),
  date: localDate,
});
export type RetentionReleaseInput = z.input<typeof retentionReleaseInput>;


export const claimDetailsRecord = z.object({
  contract_reference: z.string(),
  contract_date: z.string().nullable(),
  site: z.string(),
  work: z.string(),
  period_from: z.string().nullable(),
  period_to: z.string().nullable(),
  retention_percent: z.string(),
  payment_due_date: z.string().nullable(),
  schedule_working_days: z.number().int().nullable(),
});

/** GET /invoices/{id}/payment-claim: the claim as it reads; for an invoice that is not a claim (`active` false), the details suggested to make it one. */
export const paymentClaimRecord = z.object({
  invoice_id: z.string(),
  reference: z.string(),
  active: z.boolean(),
  /** The invoice is a draft: the details can still change. */
  editable: z.boolean(),
  details: claimDetailsRecord,
  served_on: z.string().nullable(),
  /** The due date for payment it states (worked out as if served today until it is served). */
  payment_due: z.string(),
  schedule_due_by: z.string(),
  /** 'Payment schedule due by 20 January 2027', or what was received, or that none was. */
  schedule_status: z.string(),
  /**
   * While the claim can change: the Act's default due date (as if served today) and the invoice's
   * own, when they differ, the question in words and which one the details stand for ('contract':
   * another date the contract sets; null: not chosen yet). Null when they are the same day, or once served.
   */
  due_date_question: z
    .object({ act_due: z.string(), invoice_due: z.string(), text: z.string(), chosen: z.enum(['invoice', 'act', 'contract']).nullable() })
    .nullable(),
  /** What s 20 needs that is not filled in yet: sending is refused until this is empty. */
  missing: z.array(z.object({ field: z.string(), message: z.string() })),
  calculation: z.object({
    contract_sum: money,
    variations: money,
    lines: z.array(z.object({ description: z.string(), value: money, percent_to_date: z.string().nullable(), to_date: money, previous: money, this_claim: money, variation: z.boolean() })),
    to_date: money,
    previously_claimed: money,
    this_claim: money,
    retention_percent: z.string(),
    retention: money,
    /** This claim less retention: the claimed amount. */
    claimed: money,
    earlier: z.array(z.object({ reference: z.string(), total: money })),
  }),
  schedule: z.object({ received_on: z.string(), scheduled_amount: money, reasons: z.string(), difference: money }).nullable(),
  retention_held: money,
  retention_releases: z.array(z.object({ id: z.string(), amount: money, date: z.string() })),
  statement: z.string(),
  form1: z.object({ version: z.string(), source: z.string() }),
  /** The invoice's stream version. */
  version: z.number().int(),
});
export type PaymentClaimRecord = z.infer<typeof paymentClaimRecord>;

/** GET/PUT /clients/{id}/payment-claims: new invoices for this client start as payment claims. */
export const clientPaymentClaimsSetting = z.object({ payment_claims: z.boolean({ error: 'payment_claims must be true or false' }) });
