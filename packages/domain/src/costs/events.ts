// Events of a cost stream (cost-{id}: a receipt, a supplier's bill or an expense) and of an hours
// stream (hours-{id}: time worked), and the schemas of their data. Kept apart from ledger.ts so the
// screens that use the cost rules do not bring these module-level schemas in.
import { z } from 'zod';
import { type EventUnion, amountField, idField, localDateField } from '../events/fields.ts';

/** A cost as stored in events: all of its fields, already validated. */
export const storedCostFields = z.object({
  kind: z.enum(['receipt', 'bill', 'expense']),
  supplier: z.string(),
  date: localDateField.describe("the date on the supplier's invoice or receipt (the invoice basis counts it then)"),
  paidDate: localDateField.nullable().describe('when it was paid (the payments basis counts it then); null while unpaid'),
  amount: amountField.describe('including GST, more than 0'),
  gst: z.enum(['standard', 'none']).describe('standard: 15 % GST included; none: no GST'),
  supplyInformationHeld: z.boolean().describe("the supplier's taxable supply information is held"),
  credit: z.boolean().describe('a credit from a supplier: subtracts'),
  category: z.string(),
  jobId: idField.nullable().describe('the accepted quote it was for; null: the business’s own expense'),
  note: z.string(),
});

/** Hours as stored in events. */
export const storedHoursFields = z.object({
  who: z.string().describe("'owner' or a worker's name"),
  date: localDateField,
  hours: z.string().regex(/^\d{1,3}(\.\d{1,2})?$/).describe('decimal hours ("3", "1.25")'),
  rate: amountField.describe('the cost of an hour of this person’s time, excluding GST'),
  jobId: idField.nullable(),
  note: z.string(),
});

/** Every event of a cost stream and an hours stream, and the schema of its data. */
export const costEventSchemas = {
  CostRecorded: storedCostFields.extend({ costId: idField }).describe('A receipt, bill or expense recorded.'),
  CostChanged: storedCostFields.extend({ costId: idField }).describe('A cost changed: every field (a full replacement).'),
  CostRemoved: z.object({ costId: idField }).describe('A cost deleted.'),
} as const;

export const hoursEventSchemas = {
  HoursRecorded: storedHoursFields.extend({ hoursId: idField }).describe('Time worked recorded.'),
  HoursChanged: storedHoursFields.extend({ hoursId: idField }).describe('Time worked changed: every field (a full replacement).'),
  HoursRemoved: z.object({ hoursId: idField }).describe('Time worked deleted.'),
} as const;

export type CostEvent = EventUnion<typeof costEventSchemas>;
export type HoursEvent = EventUnion<typeof hoursEventSchemas>;
export type StoredCostFields = z.infer<typeof storedCostFields>;
export type StoredHoursFields = z.infer<typeof storedHoursFields>;

// ---- a repeating expense (recurring-{id}) ---------------------------------------------------------

export const REPEAT_FREQUENCIES = ['weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly'] as const;

/** A repeating expense as stored in events: what each cost it makes is, and when they fall. */
export const storedRecurringFields = z.object({
  supplier: z.string(),
  amount: amountField.describe('each time, including GST, more than 0'),
  gst: z.enum(['standard', 'none']),
  supplyInformationHeld: z.boolean().describe("the supplier's taxable supply information is held for each (a monthly statement or tax invoice)"),
  category: z.string(),
  note: z.string(),
  frequency: z.enum(REPEAT_FREQUENCIES),
  start: localDateField.describe('the first one’s date; a monthly, quarterly or yearly one keeps its day of the month (the month’s last day when shorter)'),
  end: localDateField.nullable().describe('the last day one may fall on; null: until stopped'),
  paidOnDate: z.boolean().describe('each is paid on its date (a direct debit or automatic payment): the payments basis counts it then'),
});

export const recurringEventSchemas = {
  RecurringCostSetUp: storedRecurringFields.extend({ recurringId: idField }).describe('A repeating expense set up.'),
  RecurringCostMade: z
    .object({ recurringId: idField, index: z.number().int().min(0).describe('0 for the first'), date: localDateField, costId: idField.describe('the cost recorded in cost-{costId}, in the same commit') })
    .describe('One of a repeating expense’s costs recorded, on its date.'),
  RecurringCostStopped: z.object({ recurringId: idField, on: localDateField.describe('the New Zealand day it was stopped') }).describe('A repeating expense stopped: no more are made; those made stay.'),
} as const;

export type RecurringEvent = EventUnion<typeof recurringEventSchemas>;
export type StoredRecurringFields = z.infer<typeof storedRecurringFields>;
