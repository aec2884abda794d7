// Field schemas shared by the event schemas, and the helper that turns a kind's map of event
// schemas into its TypeScript event union. The schemas are the single source: event types are
// `z.infer` of them (see registry.ts, and docs/events.md generated from it).
import { z } from 'zod';
import { isLocalDate } from '../dates/dates.ts';

/** A calendar day, YYYY-MM-DD, in Pacific/Auckland. */
export const localDateField = z.string().refine(isLocalDate, { error: 'not a YYYY-MM-DD date' }).meta({ title: 'LocalDate', description: 'a calendar day, YYYY-MM-DD, in Pacific/Auckland' });
/** Dollars and cents as a decimal string ("123.45"). */
export const amountField = z.string().regex(/^-?\d+(\.\d{1,2})?$/, { error: 'not an amount in dollars and cents' }).meta({ title: 'Amount', description: 'dollars and cents as a decimal string ("123.45", at most 2 places)' });
/** An aggregate's or payment's id. */
export const idField = z.string().min(1).meta({ title: 'Id', description: 'a non-empty id (a uuid when the app made it)' });

/** `{ EventType: dataSchema }` → the union `{ type: 'EventType'; data: z.infer<dataSchema> } | …`. */
export type EventUnion<M extends Record<string, z.ZodType>> = { [K in keyof M & string]: { type: K; data: z.infer<M[K]> } }[keyof M & string];
