import { randomUUID } from 'node:crypto';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore, migrate, openPostgres, storeMigrations, type Db, type EventStore, type NewEvent } from '../src/index.ts';
import { eventStoreConformance } from './conformance.ts';

eventStoreConformance('PostgreSQL server', async () => openPostgres({ url: await freshDatabaseUrl('store') }));

// Two transactions of one account on two connections: positions are handed out when events are
// inserted, so the one that inserted first can commit last. The account's version must still
// name the state after each commit; the account's newest position does not.
describe('the account version when commits finish out of position order (PostgreSQL)', () => {
  let db: Db;
  let store: EventStore;
  beforeAll(async () => {
    db = await openPostgres({ url: await freshDatabaseUrl('accountversion'), max: 4 });
    await migrate(db, storeMigrations);
    store = createEventStore(db, []);
  });
  afterAll(() => store?.close());

  const ev = (type: string, accountId: string): NewEvent => ({ type, version: 1, data: {}, meta: { accountId, at: '2026-04-01T00:00:00.000Z' } });

  it('a commit of an earlier position after a later one moves the version on; the newest position stays where it was', async () => {
    const acct = `acct-${randomUUID()}`;
    const newestPosition = async (): Promise<string> =>
      (await db.query<{ p: string }>('SELECT max(position)::text AS p FROM events WHERE account_id = $1', [acct]))[0]!.p;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inserted!: (position: string) => void;
    const hasInserted = new Promise<string>((r) => (inserted = r));
    const early = store.transaction(async (tx) => {
      const r = await tx.append(`doc-${randomUUID()}`, 0, [ev('PaymentRecorded', acct)]);
      inserted(r.events[0]!.position);
      await gate;
    });
    const earlyPosition = await hasInserted;
    const late = await store.append(`client-${randomUUID()}`, 0, [ev('ClientUpdated', acct)]);
    expect(BigInt(late.events[0]!.position)).toBeGreaterThan(BigInt(earlyPosition));
    const versionBetween = await store.accountVersion(acct);
    const positionBetween = await newestPosition();
    release();
    await early;
    expect(await newestPosition()).toBe(positionBetween);
    expect(BigInt(await store.accountVersion(acct))).toBeGreaterThan(BigInt(versionBetween));
  });
});
