// The fixtures through the HTTP app on a real PostgreSQL server.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { createTestApp } from '../support/testApp.ts';
import { fixtureEqualitySuite } from './fixtureSuite.ts';

fixtureEqualitySuite('PostgreSQL', async () => createTestApp({ databaseUrl: await freshDatabaseUrl('reports') }));
