// For *.pg.spec.ts files: a fresh, empty database on the run's PostgreSQL server (started once
// by the `postgres` Vitest project's global setup).
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import './postgres-global-setup.ts';
import { createDatabase } from './postgres-server.ts';

export const freshDatabaseUrl = (prefix = 'test'): Promise<string> =>
  createDatabase(inject('pgUrl'), `${prefix}_${randomUUID().replace(/-/g, '')}`);
