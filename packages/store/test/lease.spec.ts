// The lease helpers on PGlite, with tables shaped like the leased work tables: a batch claim never
// hands one row to two holders, a lapsed lease is taken over, and only the holder gives a row back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDue, claimKey, leaseOf, openPglite, releaseClaim, updateHeld, type Db } from '../src/index.ts';

const T0 = new Date('2026-11-28T00:00:00.000Z');
const at = (minutes: number): Date => new Date(T0.getTime() + minutes * 60_000);
const LEASE_MS = 10 * 60_000;

describe('leases', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite();
    await db.exec(`
      CREATE TABLE reminder_queue (document_id text PRIMARY KEY, due_at timestamptz NOT NULL, attempts int NOT NULL DEFAULT 0, claimed_by text, claimed_until timestamptz);
      CREATE TABLE xero_sync (account_id text, document_id text, created_at timestamptz NOT NULL, note text, claimed_by text, claimed_until timestamptz, PRIMARY KEY (account_id, document_id));
    `);
    for (let i = 0; i < 5; i++) await db.query('INSERT INTO reminder_queue (document_id, due_at) VALUES ($1, $2::timestamptz)', [`d${i}`, at(i).toISOString()]);
  });
  afterAll(() => db?.close());

  const due = { table: 'reminder_queue', key: 'document_id', due: 'due_at <= $3::timestamptz', orderBy: 'due_at, document_id', returning: 'document_id' } as const;
  // RETURNING names the rows in no particular order.
  const ids = (rows: { document_id: string }[]): string[] => rows.map((r) => r.document_id).sort();

  it('claims only due, unheld rows, in order and up to the limit; a second claimer gets the rest', async () => {
    const now = at(3);
    const first = await claimDue<{ document_id: string }>(db, due, leaseOf('a', now, LEASE_MS), now, 2);
    const second = await claimDue<{ document_id: string }>(db, due, leaseOf('b', now, LEASE_MS), now, 10);
    const third = await claimDue<{ document_id: string }>(db, due, leaseOf('c', now, LEASE_MS), now, 10);
    expect(ids(first)).toEqual(['d0', 'd1']);
    expect(ids(second)).toEqual(['d2', 'd3']);
    expect(third).toEqual([]);
  });

  it('only the holder changes or gives back its row; a lapsed lease is taken over and the old holder then changes nothing', async () => {
    expect(await updateHeld(db, 'b', { table: 'reminder_queue', where: 'document_id = $2', set: 'attempts = attempts + 1', params: ['d0'] })).toBe(false);
    expect(await updateHeld(db, 'a', { table: 'reminder_queue', where: 'document_id = $2', set: 'attempts = attempts + 1', params: ['d0'] })).toBe(true);
    expect(await releaseClaim(db, 'a', { table: 'reminder_queue', where: 'document_id = $2', set: 'attempts = $3::int', params: ['d1', 7] })).toBe(true);
    const [d1] = await db.query<{ attempts: number; claimed_by: string | null; claimed_until: unknown }>('SELECT attempts, claimed_by, claimed_until FROM reminder_queue WHERE document_id = $1', ['d1']);
    expect(d1).toEqual({ attempts: 7, claimed_by: null, claimed_until: null });

    // 'a' still holds d0 until minute 13; at minute 14 it is due again to anyone.
    const later = at(14);
    const takeover = await claimDue<{ document_id: string }>(db, due, leaseOf('z', later, LEASE_MS), later, 10);
    expect(ids(takeover)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
    expect(await releaseClaim(db, 'a', { table: 'reminder_queue', where: 'document_id = $2', params: ['d0'] })).toBe(false);
    expect((await db.query<{ claimed_by: string }>('SELECT claimed_by FROM reminder_queue WHERE document_id = $1', ['d0']))[0]!.claimed_by).toBe('z');
  });

  it('claims one row by its key, making it if missing, and refuses it while another holds it', async () => {
    const key = { account_id: 'acct', document_id: 'doc' };
    const now = at(0);
    expect(await claimKey(db, { table: 'xero_sync', key, also: { created_at: now.toISOString() } }, leaseOf('p', now, LEASE_MS), now)).toEqual({ claimed_by: 'p' });
    expect(await claimKey(db, { table: 'xero_sync', key, also: { created_at: now.toISOString() } }, leaseOf('q', at(5), LEASE_MS), at(5))).toBeNull();
    // The row made first keeps what it was made with.
    await db.query("UPDATE xero_sync SET note = 'kept' WHERE account_id = 'acct'");
    expect(await releaseClaim(db, 'p', { table: 'xero_sync', where: 'account_id = $2 AND document_id = $3', params: ['acct', 'doc'] })).toBe(true);
    expect(await claimKey(db, { table: 'xero_sync', key, also: { created_at: at(6).toISOString() }, returning: 'claimed_by, note, created_at' }, leaseOf('q', at(6), LEASE_MS), at(6))).toMatchObject({
      claimed_by: 'q', note: 'kept',
    });
    // Lapsed: taken over.
    expect(await claimKey(db, { table: 'xero_sync', key, also: { created_at: at(17).toISOString() } }, leaseOf('r', at(17), LEASE_MS), at(17))).toEqual({ claimed_by: 'r' });
  });
});
