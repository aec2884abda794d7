// /api/v1/templates: the account's saved quote and invoice templates (docs/api/templates.md). A
// template is what the calculator's "Save Template" keeps: a name, quote or invoice, the lines as
// typed, the margin, whether GST is added, and optionally a client to fill in. Bounded, so one
// account cannot store without limit.
import { z } from 'zod';
import { CATEGORY_ID_PATTERN, DEFAULT_CATEGORY } from '@tradie/domain';
import { documentType } from './invoices.ts';

export const TEMPLATE_LIMITS = {
  /** Characters in a template's name. */
  name: 100,
  /** Lines in one template. */
  lines: 200,
  /** Templates per account. */
  perAccount: 100,
  /** Characters in a line's description. */
  description: 500,
  /** Characters in the notes. */
  notes: 5000,
  /** Characters in each of the client's name, email and phone. */
  clientField: 200,
} as const;

export const TEMPLATE_MESSAGES = {
  notFound: 'Template not found',
  tooMany: `You can keep at most ${TEMPLATE_LIMITS.perAccount} templates. Delete one you no longer use, then save again.`,
} as const;

const text = (label: string, max: number) =>
  z.string({ error: `${label} must be text` }).max(max, { error: `${label} can be at most ${max.toLocaleString('en-NZ')} characters` });

const finite = (label: string) => z.number({ error: `${label} must be a number` }).refine(Number.isFinite, { error: `${label} must be a number` });

/** A line as the calculator keeps it: numbers as typed (nothing is priced until a document is made from it). */
export const templateLine = z.object({
  description: text('A line description', TEMPLATE_LIMITS.description),
  qty: finite('Quantity').refine((n) => Math.abs(n) <= 1_000_000, { error: 'Quantity can be at most 1,000,000' }),
  unit_price: finite('Unit price').refine((n) => Math.abs(n) <= 100_000_000, { error: 'Unit price can be at most 100,000,000' }),
  tax_included: z.boolean({ error: 'tax_included must be true or false' }),
  tax_rate: finite('Tax rate').refine((n) => n >= 0 && n <= 1, { error: 'Tax rate must be between 0 and 1' }),
  /** What one unit costs the business, excl. GST; null or absent: cost not recorded (never zero). Kept as typed: a template keeps costs, not marked-up prices alone. */
  cost: finite('Cost')
    .refine((n) => n >= 0 && n <= 100_000_000, { error: 'Cost must be between 0 and 100,000,000' })
    .nullable()
    .optional()
    .transform((n) => n ?? null),
  category: z
    .string({ error: 'category must be text' })
    .regex(CATEGORY_ID_PATTERN, { error: 'category must be a category name of lower-case letters, digits and dashes' })
    .optional()
    .transform((c) => c ?? DEFAULT_CATEGORY),
  /** The line's own markup or margin, percent; null or absent: its category's. */
  markup: finite('Markup')
    .refine((n) => n >= 0 && n <= 100, { error: 'Markup must be between 0 and 100 percent' })
    .nullable()
    .optional()
    .transform((n) => n ?? null),
});
export type TemplateLine = z.infer<typeof templateLine>;

/** The client a template fills in (a new client's details), or null. */
export const templateClient = z.object({
  name: text("The client's name", TEMPLATE_LIMITS.clientField),
  email: text("The client's email", TEMPLATE_LIMITS.clientField),
  phone: text("The client's phone", TEMPLATE_LIMITS.clientField),
});
export type TemplateClient = z.infer<typeof templateClient>;

/** What a template holds (the body of POST, and of PUT with its version). */
export const templateFields = z.object({
  name: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'Name is required' : 'Name must be text') })
    .trim()
    .min(1, { error: 'Name is required' })
    .max(TEMPLATE_LIMITS.name, { error: `Name can be at most ${TEMPLATE_LIMITS.name} characters` }),
  type: documentType.optional().transform((t) => t ?? 'quote'),
  line_items: z
    .array(templateLine, { error: 'line_items must be a list of lines' })
    .max(TEMPLATE_LIMITS.lines, { error: `A template can have at most ${TEMPLATE_LIMITS.lines} lines` }),
  profit_margin_percent: finite('The margin')
    .refine((n) => n > -1000 && n < 1000, { error: 'The margin must be between -1000 and 1000 percent' })
    .optional()
    .transform((n) => n ?? 0),
  include_gst: z.boolean({ error: 'include_gst must be true or false' }).optional().transform((b) => b ?? true),
  client: templateClient.nullable().optional().transform((c) => c ?? null),
  notes: text('Notes', TEMPLATE_LIMITS.notes).optional().transform((n) => n ?? ''),
});

/** POST /templates body. */
export const templateInput = templateFields;
export type TemplateInput = z.input<typeof templateInput>;
export type TemplateFields = z.output<typeof templateFields>;

/** PUT /templates/{id} body: every field (a full replacement), plus the `version` it was loaded at (409 when it changed since). */
export const templateUpdateInput = templateFields.extend({
  version: z.number({ error: 'version must be a whole number' }).int({ error: 'version must be a whole number' }).min(1, { error: 'version must be 1 or more' }).optional(),
});
export type TemplateUpdateInput = z.input<typeof templateUpdateInput>;

export const templateRecord = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['quote', 'invoice']),
  line_items: z.array(templateLine),
  profit_margin_percent: z.number(),
  include_gst: z.boolean(),
  client: templateClient.nullable(),
  notes: z.string(),
  /** Send it back with PUT to be told (409) when it was changed elsewhere meanwhile. */
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TemplateRecord = z.infer<typeof templateRecord>;

/** GET /templates: every template of the account, oldest first. */
export const templateList = z.object({ items: z.array(templateRecord) });
export type TemplateList = z.infer<typeof templateList>;
