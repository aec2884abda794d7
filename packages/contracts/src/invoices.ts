import { z } from 'zod';
import { linesSchema, PAYMENT_METHODS, PAYMENT_TERMS } from '@tradie/domain';
import { localDate } from './common.ts';

export const documentType = z.enum(['quote', 'invoice'], { error: "type must be 'quote' or 'invoice'" });

/** POST /invoices — the spec's {type, line_items, client_id}, plus optional dates and notes. */
export const createDocumentInput = z.object({
  type: documentType.optional().transform((t) => t ?? 'quote'),
  line_items: linesSchema,
  client_id: z.string().max(100).nullable().optional().transform((v) => v || null),
  issue_date: localDate.optional(),
  due_date: localDate.optional(),
  valid_until: localDate.optional(),
  payment_terms: z.enum(PAYMENT_TERMS).optional(),
  notes: z.string().max(5000, { error: 'Notes can be at most 5,000 characters' }).optional(),
});
export type CreateDocumentInput = z.input<typeof createDocumentInput>;

export const paymentInput = z.object({
  amount: z.union([z.number(), z.string()], { error: 'Amount must be a number' }),
  date: localDate.optional(),
  method: z.enum(PAYMENT_METHODS, { error: `Method must be one of: ${PAYMENT_METHODS.join(', ')}` }).optional().transform((m) => m ?? 'bank_transfer'),
  reference: z.string().max(200, { error: 'Reference can be at most 200 characters' }).optional().transform((r) => r ?? ''),
});
export type PaymentInput = z.input<typeof paymentInput>;

export const paymentStatus = z.enum(['paid', 'partial', 'unpaid']);

export const documentStatus = z.enum(['draft', 'sent', 'accepted', 'declined', 'converted', 'expired', 'partial', 'paid', 'overdue', 'void']);

/** A record in GET /invoices: exactly the spec's §3 fields plus issue_date, due_date, balance. */
export const documentListRecord = z.object({
  id: z.string(),
  type: documentType,
  reference: z.string(),
  status: documentStatus,
  client_name: z.string(),
  total: z.number(),
  payment_status: paymentStatus,
  paid_date: z.string().nullable(),
  extra_data: z.record(z.string(), z.string()),
  issue_date: z.string(),
  due_date: z.string(),
  balance: z.number(),
});
export type DocumentListRecord = z.infer<typeof documentListRecord>;
