// Events of a client stream (client-{id}) and the schemas of their data. Kept apart from
// client.ts: the screens use its fields and warnings, and these module-level schemas would bring
// their zod into every screen that does.
import { z } from 'zod';
import { paymentTermsSchema } from '../dates/paymentTermsSchema.ts';
import { type EventUnion, idField } from '../events/fields.ts';

/** Client fields as stored in events: all of them, already validated and defaulted. */
export const storedClientFields = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  is_business: z.enum(['true', 'false']),
  business_name: z.string(),
  company_number: z.string(),
  gst_number: z.string(),
  notes: z.string(),
  default_payment_terms: paymentTermsSchema,
});

/** Every event of a client stream and the schema of its data. */
export const clientEventSchemas = {
  ClientAdded: storedClientFields.extend({ clientId: idField }).describe('A client added to the book.'),
  ClientUpdated: storedClientFields.extend({ clientId: idField }).describe('A client changed: every field, all of them (a full replacement).'),
  ClientRemoved: z.object({ clientId: idField }).describe('A client removed; documents keep their snapshot.'),
} as const;

export type ClientEvent = EventUnion<typeof clientEventSchemas>;
