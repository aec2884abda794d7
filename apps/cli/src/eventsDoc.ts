// npm run events:doc: writes the reference part of docs/events.md from the domain's event
// registry (the zod schemas, their versions and upcasters). The hand-written prose above the
// generated markers is kept as it is; a test checks the committed file is up to date.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DomainEventType, type EventStreamKind, amountField, clientSnapshotSchema, eventSchemas, idField, localDateField, storedLineSchema, upcasters,
} from '@tradie/domain';

export const EVENTS_DOC_PATH = join(import.meta.dirname, '../../../docs/events.md');
export const GENERATED_START = '<!-- generated: npm run events:doc -->';
export const GENERATED_END = '<!-- end generated -->';

/** How each kind of stream is titled and named; a new kind in the registry must be added here. */
const STREAMS: Record<EventStreamKind, { title: string; streamId: string }> = {
  client: { title: 'Clients', streamId: 'client-{id}' },
  document: { title: 'Quotes and invoices', streamId: 'document-{id}' },
  sequence: { title: 'Numbering', streamId: 'sequence-{accountId}-{quote|invoice|credit_note}' },
  cost: { title: 'Costs: receipts, bills and expenses', streamId: 'cost-{id}' },
  hours: { title: 'Hours worked', streamId: 'hours-{id}' },
  recurring: { title: 'Repeating expenses', streamId: 'recurring-{id}' },
};

/** The named types fields refer to, listed once at the end. */
const NAMED_TYPES = [localDateField, amountField, idField, clientSnapshotSchema, storedLineSchema] as unknown as Schema[];

/** The little of a zod schema the renderer reads (zod's own `def`, `meta()` and `format`). */
interface Schema {
  def: {
    type: string;
    innerType?: Schema;
    element?: Schema;
    shape?: Record<string, Schema>;
    entries?: Record<string, string | number>;
    values?: unknown[];
    out?: Schema;
  };
  format?: string | null;
  meta(): { title?: string; description?: string } | undefined;
}

const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

const titleOf = (s: Schema): string | undefined => s.meta()?.title;

function typeOf(s: Schema): string {
  const title = titleOf(s);
  if (title) return title;
  const { def } = s;
  switch (def.type) {
    case 'number':
      return s.format === 'safeint' || s.format === 'int32' ? 'integer' : 'number';
    case 'enum':
      return Object.values(def.entries ?? {}).map((v) => `'${v}'`).join(' | ');
    case 'literal':
      return (def.values ?? []).map((v) => JSON.stringify(v)).join(' | ');
    case 'array': {
      const inner = typeOf(def.element!);
      return inner.includes(' ') ? `(${inner})[]` : `${inner}[]`;
    }
    case 'nullable':
      return `${typeOf(def.innerType!)} | null`;
    case 'optional':
    case 'default':
    case 'readonly':
      return typeOf(def.innerType!);
    case 'pipe':
      return typeOf(def.out!);
    default:
      return def.type;
  }
}

const isOptional = (s: Schema): boolean => s.def.type === 'optional' || s.def.type === 'default';

/** A field's own description; a named type's general description is shown once, with the type. */
function descriptionOf(s: Schema): string {
  const d = s.meta()?.description ?? '';
  const title = titleOf(s);
  const named = title ? NAMED_TYPES.find((t) => titleOf(t) === title) : undefined;
  return named && named.meta()?.description === d ? '' : d;
}

function fieldsTable(schema: Schema): string[] {
  const shape = schema.def.shape ?? {};
  return [
    '| field | type | optional | description |',
    '|---|---|---|---|',
    ...Object.entries(shape).map(([name, f]) => `| \`${name}\` | ${cell(typeOf(f))} | ${isOptional(f) ? 'yes' : 'no'} | ${cell(descriptionOf(f))} |`),
  ];
}

function upcastersOf(type: DomainEventType): string {
  const list = upcasters[type] ?? [];
  if (list.length === 0) return 'Upcasters: none.';
  return ['Upcasters:', '', ...list.map((u) => `- v${u.from} → v${u.from + 1}: ${u.description}`)].join('\n');
}

/** The generated reference: per stream kind, each event with its version, fields and upcasters. */
export function renderEventsReference(): string {
  const out: string[] = [];
  const types = Object.keys(eventSchemas) as DomainEventType[];
  for (const [kind, stream] of Object.entries(STREAMS) as [EventStreamKind, (typeof STREAMS)[EventStreamKind]][]) {
    const ofKind = types.filter((t) => eventSchemas[t].stream === kind);
    out.push(`## ${stream.title} — stream \`${stream.streamId}\``, '');
    out.push('| event | v | what it records |', '|---|---|---|');
    for (const t of ofKind) out.push(`| [\`${t}\`](#${t.toLowerCase()}) | ${eventSchemas[t].version} | ${cell((eventSchemas[t].schema as unknown as Schema).meta()?.description ?? '')} |`);
    out.push('');
    for (const t of ofKind) {
      const { version, schema } = eventSchemas[t];
      out.push(`### ${t}`, '', `Schema version ${version}.`, '');
      const description = (schema as unknown as Schema).meta()?.description;
      if (description) out.push(description, '');
      out.push(...fieldsTable(schema as unknown as Schema), '', upcastersOf(t), '');
    }
  }
  out.push('## Field types', '');
  out.push('| type | is | description |', '|---|---|---|');
  for (const t of NAMED_TYPES) out.push(`| ${titleOf(t)} | ${t.def.type} | ${cell(t.meta()?.description ?? '')} |`);
  out.push('');
  for (const t of NAMED_TYPES.filter((n) => n.def.type === 'object')) out.push(`### ${titleOf(t)}`, '', ...fieldsTable(t), '');
  return out.join('\n').trimEnd();
}

/** The file with its generated section replaced (the hand-written text around it is kept). */
export function withGeneratedSection(current: string, reference: string = renderEventsReference()): string {
  const start = current.indexOf(GENERATED_START);
  const end = current.indexOf(GENERATED_END);
  const header = start === -1 ? `${current.trimEnd()}\n\n` : current.slice(0, start);
  const footer = start === -1 || end === -1 ? '\n' : current.slice(end + GENERATED_END.length);
  return `${header}${GENERATED_START}\n<!-- Do not edit by hand: the event schemas in packages/domain/src are the source. -->\n\n${reference}\n\n${GENERATED_END}${footer}`;
}

if (import.meta.main) {
  writeFileSync(EVENTS_DOC_PATH, withGeneratedSection(readFileSync(EVENTS_DOC_PATH, 'utf8')));
  console.log(`wrote ${EVENTS_DOC_PATH}`);
}
