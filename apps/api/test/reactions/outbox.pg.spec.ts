// The outbox on PostgreSQL: two stores (two processes' pools) on one database, each with two
// processors, sweep the same rows at once — FOR UPDATE SKIP LOCKED and the claim's lease hand every
// row to exactly one of them.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxProcessor } from '../../src/reactions/outbox.ts';
import { TestClock } from '../support/testApp.ts';
import { appendNotes, type Harness, newAccount, openHarness, outboxRows, recorder } from './support.ts';

const noted = recorder('noted', ['NoteTaken']);
let one: Harness;
let two: Harness;
beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl('outbox');
  const clock = new TestClock();
  one = await openHarness([noted.reaction], { databaseUrl, clock });
  two = await openHarness([noted.reaction], { databaseUrl, clock });
});
afterAll(async () => {
  await one?.close();
  await two?.close();
});

describe('the outbox on PostgreSQL', () => {
  it('four processors over two pools never run the same row, and run every row once', async () => {
    const account = newAccount();
    const appended = await Promise.all(Array.from({ length: 60 }, (_, i) => appendNotes(i % 2 ? one : two, account, ['NoteTaken'])));
    const runs = await Promise.all([one, two, one, two].map((h) => outboxProcessor(h.deps, [noted.reaction]).runDue()));
    expect(runs.reduce((n, r) => n + r.done, 0)).toBe(60);
    expect(runs.every((r) => r.failed === 0)).toBe(true);
    const ran = noted.seen.filter((r) => r.accountId === account);
    expect(ran).toHaveLength(60);
    expect(new Set(ran.map((r) => r.eventId))).toEqual(new Set(appended.flatMap((a) => a.eventIds)));
    expect((await outboxRows(one, account)).every((r) => r.done_at !== null)).toBe(true);
  });

  it('a failed append writes no row, on PostgreSQL too', async () => {
    const account = newAccount();
    const meta = { accountId: account, at: one.clock.now().toISOString() };
    await expect(
      one.store.transaction(async (tx) => {
        await tx.append(`note-${account}`, 0, [{ type: 'NoteTaken', version: 1, data: {}, meta }]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await outboxRows(one, account)).toEqual([]);
  });
});
