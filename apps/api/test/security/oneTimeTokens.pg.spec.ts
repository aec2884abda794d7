// The one-time tokens module on a real PostgreSQL server, where consumers really run at once
// (oneTimeTokensSupport.ts; on PGlite: oneTimeTokens.int.spec.ts).
import { projections } from '@tradie/projections';
import { openStore, type EventStore } from '@tradie/store';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { allMigrations } from '../../src/migrations.ts';
import { oneTimeTokenTests, opener } from './oneTimeTokensSupport.ts';

describe('one-time tokens (PostgreSQL)', () => {
  let store: EventStore | undefined;
  beforeAll(async () => {
    store = await openStore({ databaseUrl: await freshDatabaseUrl('tokens') }, projections, allMigrations);
  });
  afterAll(() => store?.close());
  oneTimeTokenTests(() => store!, opener(() => freshDatabaseUrl('tokens_upgrade')));
});
