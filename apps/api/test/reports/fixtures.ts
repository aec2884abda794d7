// Loading the fixture event logs (fixtures/*.ndjson) into a test account through the store:
// meta.accountId becomes the account, document and cost ids get the account's prefix (so several accounts
// can hold the same fixture in one database), and each event is appended to its stream at the
// stream's next version, in log order, in one transaction.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentVersion, sequenceStreamId, type DomainEventType, type LoggedEvent } from '@tradie/domain';
import type { EventStore } from '@tradie/store';

export const FIXTURES_DIR = join(import.meta.dirname, '../../../../fixtures');

export const fixtureNames = (): string[] => readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.ndjson')).sort();

export interface FixtureExpectation {
  gst?: { from: string; to: string; basis?: 'invoice' | 'payments'; report: unknown }[];
  annual?: { year: number; report: unknown }[];
}

export function readFixture(name: string): { events: LoggedEvent[]; expected: FixtureExpectation } {
  const events = readFileSync(join(FIXTURES_DIR, name), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('//'))
    .map((l) => JSON.parse(l) as LoggedEvent);
  const expected = JSON.parse(readFileSync(join(FIXTURES_DIR, name.replace(/\.ndjson$/, '.expected.json')), 'utf8')) as FixtureExpectation;
  return { events, expected };
}

const ID_FIELDS = ['documentId', 'invoiceId', 'convertedFrom', 'creditNoteId', 'costId'] as const;

/** The fixture's events as they would be for `accountId`: its account, its own document ids. */
export function rewriteForAccount(events: readonly LoggedEvent[], accountId: string): LoggedEvent[] {
  const prefix = `${accountId}-`;
  return events.map((e) => {
    const data = { ...(e.data as Record<string, unknown>) };
    for (const f of ID_FIELDS) if (typeof data[f] === 'string') data[f] = prefix + (data[f] as string);
    let stream = e.stream;
    if (stream.startsWith('document-')) stream = `document-${prefix}${stream.slice('document-'.length)}`;
    else if (stream.startsWith('cost-')) stream = `cost-${prefix}${stream.slice('cost-'.length)}`;
    else if (stream.startsWith('sequence-')) stream = sequenceStreamId(accountId, stream.endsWith('-quote') ? 'quote' : stream.endsWith('-credit_note') ? 'credit_note' : 'invoice');
    else throw new Error(`Unexpected stream in a fixture: ${stream}`);
    return { ...e, stream, data, meta: { ...e.meta, accountId } };
  });
}

/** Appends the (already rewritten) events through the store, each stream at its next version. */
export async function appendLog(store: EventStore, events: readonly LoggedEvent[]): Promise<void> {
  await store.transaction(async (tx) => {
    const versions = new Map<string, number>();
    for (const e of events) {
      const v = versions.get(e.stream) ?? (await tx.readStream(e.stream)).version;
      const meta = e.meta ?? {};
      await tx.append(e.stream, v, [
        {
          type: e.type,
          version: e.version ?? currentVersion(e.type as DomainEventType),
          data: e.data as Record<string, unknown>,
          meta: { at: meta.at ?? new Date(0).toISOString(), accountId: meta.accountId ?? '' },
        },
      ]);
      versions.set(e.stream, v + 1);
    }
  });
}

export async function loadFixture(store: EventStore, name: string, accountId: string): Promise<{ events: LoggedEvent[]; expected: FixtureExpectation }> {
  const { events, expected } = readFixture(name);
  const mine = rewriteForAccount(events, accountId);
  await appendLog(store, mine);
  return { events: mine, expected };
}
