// For the .pg.spec files: two API processes (two apps, each with its own in-process locks and its
// own adapter) on one fresh PostgreSQL database, and one fake Xero both talk to. Made before the
// file's tests and closed after them.
import { startFakeXero, type FakeXero } from '@tradie/testkit/fake-xero';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll } from 'vitest';
import { TestClock } from '../../support/testApp.ts';
import { REDIRECT_URI, startXeroApp, type XeroTestApp } from './support.ts';

export interface TwoProcesses {
  readonly clock: TestClock;
  readonly fake: FakeXero;
  readonly one: XeroTestApp;
  readonly two: XeroTestApp;
}

export function twoProcesses(database: string, env?: Record<string, string>): TwoProcesses {
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  let fake: FakeXero | undefined;
  let one: XeroTestApp | undefined;
  let two: XeroTestApp | undefined;
  beforeAll(async () => {
    fake = await startFakeXero({ redirectUris: [REDIRECT_URI], now: () => clock.now() });
    const databaseUrl = await freshDatabaseUrl(database);
    one = await startXeroApp({ databaseUrl, clock, sharedFake: fake, ...(env ? { env } : {}) });
    two = await startXeroApp({ databaseUrl, clock, sharedFake: fake, ...(env ? { env } : {}) });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await fake?.stop();
  });
  const started = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error('the two processes are not started yet');
    return x;
  };
  return {
    clock,
    get fake() { return started(fake); },
    get one() { return started(one); },
    get two() { return started(two); },
  };
}
