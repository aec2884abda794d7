// Every event the domain writes, with its schema version and a zod schema checked when events
// are read back. An event is never rewritten: a changed shape gets a new version and an upcaster.
import { z } from 'zod';
import type { clientFieldsSchema} from '../clients/client.ts';
import { type ClientEvent } from '../clients/client.ts';
import { isLocalDate } from '../dates/dates.ts';
import { PAYMENT_TERMS } from '../dates/paymentTerms.ts';
import { PAYMENT_METHODS, type DocumentEvent } from '../documents/events.ts';
import { storedLineSchema } from '../documents/lines.ts';
import type { SequenceEvent } from '../numbering/references.ts';

const localDate = z.string().refine(isLocalDate, { error: 'not a YYYY-MM-DD date' });
const amount = z.string().regex(/^-?\d+(\.\d{1,2})?$/, { error: 'not an amount in dollars and cents' });
const id = z.string().min(1);

const clientSnapshot = z.object({
  id: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  is_business: z.enum(['true', 'false']),
  business_name: z.string(),
  company_number: z.string(),
  gst_number: z.string(),
});

const storedClientFields = z.object({
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
}) satisfies z.ZodType<z.output<typeof clientFieldsSchema>>;

const documentBody = {
  client: clientSnapshot.nullable(),
  lines: z.array(storedLineSchema).min(1),
  issueDate: localDate,
  dueDate: localDate,
  paymentTerms: z.enum(PAYMENT_TERMS),
  validUntil: localDate.nullable(),
  notes: z.string(),
};

export const eventSchemas = {
  ClientAdded: { version: 1, schema: storedClientFields.extend({ clientId: id }) },
  ClientUpdated: { version: 1, schema: storedClientFields.extend({ clientId: id }) },
  ClientRemoved: { version: 1, schema: z.object({ clientId: id }) },
  DocumentDrafted: {
    version: 1,
    schema: z.object({
      documentId: id,
      type: z.enum(['quote', 'invoice']),
      number: z.number().int().positive(),
      reference: z.string(),
      gstRounding: z.enum(['total', 'line']),
      convertedFrom: z.string().nullable(),
      ...documentBody,
    }),
  },
  DocumentRevised: { version: 1, schema: z.object({ documentId: id, ...documentBody }) },
  DocumentSent: { version: 1, schema: z.object({ documentId: id, to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()), subject: z.string() }) },
  DocumentIssued: { version: 1, schema: z.object({ documentId: id }) },
  QuoteAccepted: { version: 1, schema: z.object({ documentId: id }) },
  QuoteDeclined: { version: 1, schema: z.object({ documentId: id }) },
  QuoteConverted: { version: 1, schema: z.object({ documentId: id, invoiceId: id }) },
  PaymentRecorded: {
    version: 1,
    schema: z.object({ documentId: id, paymentId: id, amount, date: localDate, method: z.enum(PAYMENT_METHODS), reference: z.string() }),
  },
  PaymentRemoved: { version: 1, schema: z.object({ documentId: id, paymentId: id }) },
  DocumentVoided: { version: 1, schema: z.object({ documentId: id, reason: z.string() }) },
  DocumentDeleted: { version: 1, schema: z.object({ documentId: id }) },
  SyncedToAccounting: { version: 1, schema: z.object({ documentId: id, provider: z.string(), externalId: z.string(), externalNumber: z.string() }) },
  AccountingTotalsReported: { version: 1, schema: z.object({ documentId: id, provider: z.string(), subtotal: amount, gst: amount, total: amount }) },
  PdfGenerated: { version: 1, schema: z.object({ documentId: id, sha256: z.string() }) },
  ReferenceAllocated: { version: 1, schema: z.object({ documentId: id, number: z.number().int().positive(), reference: z.string() }) },
} as const;

export type DomainEvent = ClientEvent | DocumentEvent | SequenceEvent;
export type DomainEventType = DomainEvent['type'];

// Compile-time check: the registry names exactly the domain's event types.
type _RegistryCoversEvents = [DomainEventType] extends [keyof typeof eventSchemas] ? ([keyof typeof eventSchemas] extends [DomainEventType] ? true : never) : never;
export const registryCoversEvents: _RegistryCoversEvents = true;

export const isDomainEventType = (t: string): t is DomainEventType => Object.hasOwn(eventSchemas, t);

/** The schema version written for each event type today. */
export const currentVersion = (type: DomainEventType): number => eventSchemas[type].version;

/** Upcasters turn an older stored shape into the current one: `${type}@${version}` → data. None yet. */
const upcasters: Record<string, (data: unknown) => unknown> = {};

export class EventShapeError extends Error {
  constructor(type: string, version: number, issues: string) {
    super(`Stored event ${type} v${version} does not match its schema: ${issues}`);
    this.name = 'EventShapeError';
  }
}

/** Validates an event read from the log (or a fixture) and returns it typed. Throws EventShapeError. */
export function parseDomainEvent(raw: { type: string; version?: number; data: unknown }): DomainEvent {
  if (!isDomainEventType(raw.type)) throw new EventShapeError(raw.type, raw.version ?? 0, 'unknown event type');
  const entry = eventSchemas[raw.type];
  const version = raw.version ?? entry.version;
  let data = raw.data;
  for (let v = version; v < entry.version; v++) {
    const up = upcasters[`${raw.type}@${v}`];
    if (!up) throw new EventShapeError(raw.type, version, `no upcaster from v${v}`);
    data = up(data);
  }
  const parsed = entry.schema.safeParse(data);
  if (!parsed.success) throw new EventShapeError(raw.type, version, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return { type: raw.type, data: parsed.data } as DomainEvent;
}
