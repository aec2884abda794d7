// Every door to an account's email address or password, as an attacker tries them, on a real
// PostgreSQL server: the same tests as takeover.int.spec.ts, where transactions really run at once.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp.ts';
import { takeoverDoors } from './takeoverSupport.ts';

describe('account takeover through a pending email change (PostgreSQL)', () => {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp({ databaseUrl: await freshDatabaseUrl('takeover') });
  });
  afterAll(() => t?.close());
  takeoverDoors(() => t!);
});
