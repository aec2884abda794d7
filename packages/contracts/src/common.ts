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

export const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Dates are written YYYY-MM-DD' });
