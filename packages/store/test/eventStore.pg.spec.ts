import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from '@tradie/testkit/postgres-server';
import { openPostgres } from '../src/index.ts';
import { eventStoreConformance } from './conformance.ts';

eventStoreConformance('PostgreSQL server', async () => openPostgres({ url: await createDatabase(inject('pgUrl'), `store_${randomUUID().replace(/-/g, '')}`) }));
