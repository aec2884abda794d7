import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { openPostgres } from '../src/index.ts';
import { eventStoreConformance } from './conformance.ts';

eventStoreConformance('PostgreSQL server', async () => openPostgres({ url: await freshDatabaseUrl('store') }));
