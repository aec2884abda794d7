// The one-time tokens module on PGlite (oneTimeTokensSupport.ts; on PostgreSQL: oneTimeTokens.pg.spec.ts).
import { projections } from '@tradie/projections';
import { openStore, type EventStore } from '@tradie/store';
import { afterAll, beforeAll, describe } from 'vitest';
import { allMigrations } from '../../src/migrations.ts';
import { oneTimeTokenTests, opener } from './oneTimeTokensSupport.ts';

describe('one-time tokens (PGlite)', () => {
  let store: EventStore | undefined;
  beforeAll(async () => {
    store = await openStore({}, projections, allMigrations);
  });
  afterAll(() => store?.close());
  oneTimeTokenTests(() => store!, opener());
});
