import { z } from 'zod';
import { clientFieldsSchema, PAYMENT_TERMS } from '@tradie/domain';
import { fieldWarning } from './common.ts';

/** POST/PUT /clients body. Unknown fields are ignored; optional fields default to ''. */
export const clientInput = clientFieldsSchema;
export type ClientInput = z.input<typeof clientInput>;

export const clientRecord = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  is_business: z.enum(['true', 'false']),
  business_name: z.string(),
  company_number: z.string(),
  gst_number: z.string(),
  notes: z.string(),
  default_payment_terms: z.enum(PAYMENT_TERMS),
  /** Soft check-digit warnings (never block a save). */
  warnings: z.array(fieldWarning),
});
export type ClientRecord = z.infer<typeof clientRecord>;
