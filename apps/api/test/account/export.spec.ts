// The streamed export, section by section, is byte for byte JSON.stringify(document, null, 2) + '\n'
// whatever the tables and events hold: no tables, empty tables, text with newlines and quotes,
// nested data, binary and timestamps. Its signature is the one over the rest of the document, and
// any change to the file — a value, a member added or taken away — no longer matches it.
import type { EventStore, RecordedEvent } from '@tradie/store';
import { describe, expect, it } from 'vitest';
import { buildAccountExport, checkExportSignature, exportFileName, streamAccountExport } from '../../src/account/export.ts';
import { secretsFrom } from '../../src/appKeys.ts';

const KEY = secretsFrom(Buffer.from('a-secret-for-the-export-signature-tests')).exportKey;
const OTHER = secretsFrom(Buffer.from('another-servers-secret-for-these-tests')).exportKey;

type Tables = Record<string, { types: [string, string][]; rows: Record<string, unknown>[] }>;

function fakeStore(tables: Tables, events: RecordedEvent[]): EventStore {
  const db = {
    async query(text: string, params: unknown[] = []) {
      if (text.includes('FROM users')) {
        return [{ id: 'acc-1', email: 'mere@example.nz', full_name: 'Mere "Sparky" Parata\nLtd', created_at: new Date('2026-01-02T03:04:05Z'), trial_started_at: new Date('2026-01-02T03:04:05Z'), email_confirmed_at: null }];
      }
      if (text.includes('information_schema.columns')) return (tables[String(params[0])]?.types ?? []).map(([column_name, udt_name]) => ({ column_name, udt_name }));
      const table = /FROM (\w+) WHERE/.exec(text)?.[1] ?? '';
      return tables[table]?.rows ?? [];
    },
  };
  return { db, readAccount: async () => events.map((e) => ({ ...e })) } as unknown as EventStore;
}

const event = (n: number, data: Record<string, unknown>): RecordedEvent =>
  ({ position: String(n), streamId: `client-${n}`, streamVersion: 1, eventId: `e-${n}`, type: 'ClientCreated', version: 1, data, meta: { by: 'acc-1' }, recordedAt: '2026-01-02T03:04:05.000Z', accountId: 'acc-1' }) as unknown as RecordedEvent;

async function streamed(store: EventStore, now: Date): Promise<string> {
  let out = '';
  for await (const chunk of (await streamAccountExport(store, 'acc-1', now, KEY))!) out += chunk;
  return out;
}

describe('streamAccountExport', () => {
  const now = new Date('2026-05-04T21:30:00.000Z');
  const cases: [string, Tables, RecordedEvent[]][] = [
    ['no tables in the store, no events', {}, []],
    ['empty tables, one event', { business_settings: { types: [['account_id', 'text'], ['business_name', 'text']], rows: [] } }, [event(1, { name: 'A' })]],
    [
      'rows with binary, jsonb, timestamps and awkward text; several events with nested data',
      {
        business_settings: { types: [['account_id', 'text'], ['business_name', 'text'], ['extra', 'jsonb']], rows: [{ account_id: 'acc-1', business_name: 'Kōwhai\n"Builders"\t\\', extra: { a: [1, { b: null }], c: [] } }] },
        business_logos: { types: [['account_id', 'text'], ['bytes', 'bytea'], ['updated_at', 'timestamptz']], rows: [{ account_id: 'acc-1', bytes: Buffer.from([0, 1, 2, 255]), updated_at: new Date('2026-02-03T04:05:06Z') }] },
        xero_sync: { types: [['account_id', 'text'], ['document_id', 'text'], ['claimed_by', 'text']], rows: [{ account_id: 'acc-1', document_id: 'd1', claimed_by: 'x' }, { account_id: 'acc-1', document_id: 'd2', claimed_by: null }] },
      },
      [event(1, { name: 'Ā "quoted"\nline', lines: [{ qty: 1, price: '10.00' }], empty: {} }), event(2, { list: [] }), event(3, {})],
    ],
  ];
  for (const [name, tables, events] of cases) {
    it(name, async () => {
      const store = fakeStore(tables, events);
      const doc = await buildAccountExport(store, 'acc-1', now, KEY);
      const text = await streamed(store, now);
      expect(text).toBe(`${JSON.stringify(doc, null, 2)}\n`);
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(parsed).at(-1)).toBe('signature');
      expect(checkExportSignature(parsed, KEY)).toBe('signed');
      // Verified with the previous key during a rotation too; another server's key does not match.
      expect(checkExportSignature(parsed, [OTHER, KEY])).toBe('signed');
      expect(checkExportSignature(parsed, OTHER)).toBe('altered');
    });
  }

  it('any change to a signed file no longer matches; a file without a signature is unsigned', async () => {
    const store = fakeStore(cases[2]![1], cases[2]![2]);
    const doc = JSON.parse(await streamed(store, now)) as Record<string, unknown> & { account: Record<string, unknown>; tables: Record<string, unknown>; events: Record<string, unknown>[] };
    const changed = (f: (d: typeof doc) => void) => {
      const copy = structuredClone(doc);
      f(copy);
      return checkExportSignature(copy, KEY);
    };
    expect(changed(() => {})).toBe('signed');
    expect(changed((d) => { d.account.trial_started_at = '2099-01-01T00:00:00.000Z'; })).toBe('altered');
    expect(changed((d) => { d.account.email_confirmed_at = '2026-01-02T03:04:05.000Z'; })).toBe('altered');
    expect(changed((d) => { d.tables.billing_accounts = [{ account_id: 'acc-1', status: 'active' }]; })).toBe('altered');
    expect(changed((d) => { d.events.pop(); })).toBe('altered');
    expect(changed((d) => { d.extra = true; })).toBe('altered');
    expect(changed((d) => { (d.signature as { value: string }).value = '0'.repeat(64); })).toBe('altered');
    expect(changed((d) => { (d.signature as { value: string }).value = 'not hex'; })).toBe('altered');
    expect(changed((d) => { delete d.signature; })).toBe('unsigned');
  });

  it("says what the file is in the tradie's words: no command to type", async () => {
    const doc = await buildAccountExport(fakeStore({}, []), 'acc-1', now, KEY);
    expect(doc?.about).toMatch(/^Everything this Tradie Quotes account holds/);
    expect(doc?.about).not.toMatch(/npm|import|`/);
  });

  it('names the file by the UTC day', () => {
    expect(exportFileName(new Date('2026-05-04T21:30:00.000Z'))).toBe('tradie-export-2026-05-04.json');
  });
});
