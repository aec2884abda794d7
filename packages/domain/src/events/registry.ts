// Every event the domain writes, with its schema version and a zod schema checked when events
// are read back. An event is never rewritten: a changed shape gets a new version and an upcaster.
import type { z } from 'zod';
import { type ClientEvent, clientEventSchemas } from '../clients/events.ts';
import { type CostEvent, type HoursEvent, type RecurringEvent, costEventSchemas, hoursEventSchemas, recurringEventSchemas } from '../costs/events.ts';
import { type DocumentEvent, documentEventSchemas } from '../documents/events.ts';
import { type SequenceEvent, sequenceEventSchemas } from '../numbering/events.ts';

/** The kinds of stream: client-{id}, document-{id}, sequence-{accountId}-{type}, cost-{id}, hours-{id}, recurring-{id}. */
export type EventStreamKind = 'client' | 'document' | 'sequence' | 'cost' | 'hours' | 'recurring';

type AllEventSchemas = typeof clientEventSchemas & typeof documentEventSchemas & typeof sequenceEventSchemas & typeof costEventSchemas & typeof hoursEventSchemas & typeof recurringEventSchemas;

export interface EventRegistryEntry {
  stream: EventStreamKind;
  /** The schema version written today. */
  version: number;
  schema: z.ZodType;
}

const entry = <S extends z.ZodType>(stream: EventStreamKind, version: number, schema: S) => ({ stream, version, schema });

export const eventSchemas = {
  ClientAdded: entry('client', 1, clientEventSchemas.ClientAdded),
  ClientUpdated: entry('client', 1, clientEventSchemas.ClientUpdated),
  ClientRemoved: entry('client', 1, clientEventSchemas.ClientRemoved),
  DocumentDrafted: entry('document', 4, documentEventSchemas.DocumentDrafted),
  DocumentRevised: entry('document', 4, documentEventSchemas.DocumentRevised),
  DocumentSent: entry('document', 1, documentEventSchemas.DocumentSent),
  DocumentSendNotDelivered: entry('document', 1, documentEventSchemas.DocumentSendNotDelivered),
  DocumentIssued: entry('document', 1, documentEventSchemas.DocumentIssued),
  QuoteAccepted: entry('document', 1, documentEventSchemas.QuoteAccepted),
  QuoteDeclined: entry('document', 1, documentEventSchemas.QuoteDeclined),
  QuoteConverted: entry('document', 1, documentEventSchemas.QuoteConverted),
  PaymentRecorded: entry('document', 1, documentEventSchemas.PaymentRecorded),
  PaymentRemoved: entry('document', 1, documentEventSchemas.PaymentRemoved),
  PaymentRefunded: entry('document', 1, documentEventSchemas.PaymentRefunded),
  DocumentVoided: entry('document', 1, documentEventSchemas.DocumentVoided),
  DocumentDeleted: entry('document', 1, documentEventSchemas.DocumentDeleted),
  SyncedToAccounting: entry('document', 1, documentEventSchemas.SyncedToAccounting),
  AccountingTotalsReported: entry('document', 1, documentEventSchemas.AccountingTotalsReported),
  AccountingVoidReported: entry('document', 1, documentEventSchemas.AccountingVoidReported),
  PdfGenerated: entry('document', 1, documentEventSchemas.PdfGenerated),
  ClientLinkIssued: entry('document', 1, documentEventSchemas.ClientLinkIssued),
  ClientLinkWithdrawn: entry('document', 1, documentEventSchemas.ClientLinkWithdrawn),
  QuoteAcceptedByClient: entry('document', 1, documentEventSchemas.QuoteAcceptedByClient),
  QuoteDeclinedByClient: entry('document', 1, documentEventSchemas.QuoteDeclinedByClient),
  QuoteChangesRequested: entry('document', 1, documentEventSchemas.QuoteChangesRequested),
  ReminderSent: entry('document', 1, documentEventSchemas.ReminderSent),
  ReminderNotDelivered: entry('document', 1, documentEventSchemas.ReminderNotDelivered),
  RemindersPaused: entry('document', 1, documentEventSchemas.RemindersPaused),
  RemindersResumed: entry('document', 1, documentEventSchemas.RemindersResumed),
  StageInvoiced: entry('document', 1, documentEventSchemas.StageInvoiced),
  QuoteVaried: entry('document', 2, documentEventSchemas.QuoteVaried),
  VariationProposed: entry('document', 2, documentEventSchemas.VariationProposed),
  VariationSent: entry('document', 1, documentEventSchemas.VariationSent),
  VariationSendNotDelivered: entry('document', 1, documentEventSchemas.VariationSendNotDelivered),
  VariationAcceptedByClient: entry('document', 1, documentEventSchemas.VariationAcceptedByClient),
  VariationDeclinedByClient: entry('document', 1, documentEventSchemas.VariationDeclinedByClient),
  VariationApproved: entry('document', 1, documentEventSchemas.VariationApproved),
  VariationDeclined: entry('document', 1, documentEventSchemas.VariationDeclined),
  VariationWithdrawn: entry('document', 1, documentEventSchemas.VariationWithdrawn),
  StageWithdrawn: entry('document', 1, documentEventSchemas.StageWithdrawn),
  StageCredited: entry('document', 1, documentEventSchemas.StageCredited),
  CreditNoteIssued: entry('document', 2, documentEventSchemas.CreditNoteIssued),
  CreditNoteRefunded: entry('document', 1, documentEventSchemas.CreditNoteRefunded),
  CreditNoteEmailed: entry('document', 1, documentEventSchemas.CreditNoteEmailed),
  PaymentClaimSet: entry('document', 1, documentEventSchemas.PaymentClaimSet),
  PaymentClaimCleared: entry('document', 1, documentEventSchemas.PaymentClaimCleared),
  PaymentScheduleReceived: entry('document', 1, documentEventSchemas.PaymentScheduleReceived),
  RetentionReleased: entry('document', 1, documentEventSchemas.RetentionReleased),
  ReferenceAllocated: entry('sequence', 1, sequenceEventSchemas.ReferenceAllocated),
  CostRecorded: entry('cost', 1, costEventSchemas.CostRecorded),
  CostChanged: entry('cost', 1, costEventSchemas.CostChanged),
  CostRemoved: entry('cost', 1, costEventSchemas.CostRemoved),
  HoursRecorded: entry('hours', 1, hoursEventSchemas.HoursRecorded),
  HoursChanged: entry('hours', 1, hoursEventSchemas.HoursChanged),
  HoursRemoved: entry('hours', 1, hoursEventSchemas.HoursRemoved),
  RecurringCostSetUp: entry('recurring', 1, recurringEventSchemas.RecurringCostSetUp),
  RecurringCostMade: entry('recurring', 1, recurringEventSchemas.RecurringCostMade),
  RecurringCostStopped: entry('recurring', 1, recurringEventSchemas.RecurringCostStopped),
} as const satisfies { [K in keyof AllEventSchemas]: EventRegistryEntry & { schema: AllEventSchemas[K] } };

export type DomainEvent = ClientEvent | DocumentEvent | SequenceEvent | CostEvent | HoursEvent | RecurringEvent;
export type DomainEventType = DomainEvent['type'];

// Compile-time check: the registry names exactly the domain's event types.
type _RegistryCoversEvents = [DomainEventType] extends [keyof typeof eventSchemas] ? ([keyof typeof eventSchemas] extends [DomainEventType] ? true : never) : never;
export const registryCoversEvents: _RegistryCoversEvents = true;

export const isDomainEventType = (t: string): t is DomainEventType => Object.hasOwn(eventSchemas, t);

/** The schema version written for each event type today. */
export const currentVersion = (type: DomainEventType): number => eventSchemas[type].version;

/** Turns the data of an event stored at version `from` into the shape of version `from + 1`. */
export interface Upcaster {
  from: number;
  /** What changed, for docs/events.md. */
  description: string;
  up: (data: unknown) => unknown;
}

// v1 → v2 of every event that carries lines: each line gains its cost, category and own markup.
// A line written before costs were kept has no cost recorded (null, never zero: a profit worked
// out over it would be its whole price), files under 'other' and takes its category's markup.
const LINE_COST_DESCRIPTION = "each line gains `cost` (null: cost not recorded, never zero), `category` ('other') and `markup` (null)";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v1 line with its cost unknown; a line that already has the fields keeps them. */
export function upcastLine(line: unknown): unknown {
  if (!isRecord(line)) return line;
  return { ...line, cost: line['cost'] ?? null, category: line['category'] ?? 'other', markup: line['markup'] ?? null };
}

const upcastLines = (key: string, each: (l: unknown) => unknown = upcastLine) => (data: unknown): unknown =>
  isRecord(data) && Array.isArray(data[key]) ? { ...data, [key]: (data[key] as unknown[]).map(each) } : data;

const linesCostUnknown: readonly Upcaster[] = [{ from: 1, description: LINE_COST_DESCRIPTION, up: upcastLines('lines') }];

// v2 → v3 of a quote's or invoice's drafted and revised data: the job title and the site address,
// none on what was saved before they were kept.
const noJobOrSite: Upcaster = {
  from: 2,
  description: "gains `jobTitle` and `siteAddress` ('': none)",
  up: (data) => (isRecord(data) ? { ...data, jobTitle: data['jobTitle'] ?? '', siteAddress: data['siteAddress'] ?? '' } : data),
};

// v3 → v4 of a quote's or invoice's drafted and revised data: the deposit asked for on acceptance,
// none on what was saved before one could be asked for.
const noDeposit: Upcaster = {
  from: 3,
  description: 'gains `deposit` (null: none asked for)',
  up: (data) => (isRecord(data) ? { ...data, deposit: data['deposit'] ?? null } : data),
};

/** Upcasters per event type, oldest first. */
export const upcasters: { readonly [K in DomainEventType]?: readonly Upcaster[] } = {
  DocumentDrafted: [...linesCostUnknown, noJobOrSite, noDeposit],
  DocumentRevised: [...linesCostUnknown, noJobOrSite, noDeposit],
  VariationProposed: linesCostUnknown,
  QuoteVaried: [{ from: 1, description: LINE_COST_DESCRIPTION, up: (data) => (isRecord(data) ? { ...data, line: upcastLine(data['line']) } : data) }],
  CreditNoteIssued: [
    { from: 1, description: `${LINE_COST_DESCRIPTION}, in each credited line's \`line\``, up: upcastLines('lines', (l) => (isRecord(l) ? { ...l, line: upcastLine(l['line']) } : l)) },
  ],
};

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
    const up = upcasters[raw.type]?.find((u) => u.from === v);
    if (!up) throw new EventShapeError(raw.type, version, `no upcaster from v${v}`);
    data = up.up(data);
  }
  const parsed = entry.schema.safeParse(data);
  if (!parsed.success) throw new EventShapeError(raw.type, version, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return { type: raw.type, data: parsed.data } as DomainEvent;
}
