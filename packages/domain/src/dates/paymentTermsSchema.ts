// The zod schema of payment terms, apart from paymentTerms.ts so the screens that only need the
// terms and their due dates do not bring zod's schema in with them.
import { z } from 'zod';
import { PAYMENT_TERMS_MESSAGE, type PaymentTerms, isPaymentTerms } from './paymentTerms.ts';

/** A string that isPaymentTerms accepts; typed as the terms (refine checks, it does not narrow the type). */
export const paymentTermsSchema = z
  .string({ error: PAYMENT_TERMS_MESSAGE })
  .refine(isPaymentTerms, { error: PAYMENT_TERMS_MESSAGE })
  .meta({ title: 'PaymentTerms', description: "'Due on receipt', 'N days' (1 to 365: '1 day', '14 days') or '20th of the month following'" }) as unknown as z.ZodType<PaymentTerms, PaymentTerms>;
