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
