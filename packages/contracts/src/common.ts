import { z } from 'zod';

export const API_PREFIX = '/api/v1';

/** Every error body: `detail` is the text the screens show. `warnings` and `errors` add field detail where useful. */
export const errorBody = z.object({
  detail: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const fieldWarning = z.object({ field: z.string(), message: z.string() });
export type FieldWarning = z.infer<typeof fieldWarning>;

/**
 * An amount in the API's answers: dollars as a JSON number rounded to cents. Exact: a quote or
 * invoice comes to at most MAX_DOCUMENT_TOTAL ($999,999,999.99, GST included; more is refused with
 * a 422), so every amount has at most 11 digits of cents, which a JSON number holds exactly.
 */
export const money = z
  .number()
  .describe('dollars rounded to cents, exact as a JSON number: a document comes to at most 999999999.99 including GST (docs/decisions/0002-money-and-rounding.md)');

export const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Dates are written YYYY-MM-DD' });
