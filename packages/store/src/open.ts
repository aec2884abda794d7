// Opening the database the configuration names: PostgreSQL when a URL is given, else PGlite in a
// data directory (or in memory). Migrations run and projections are made ready before use.
import { createEventStore } from './eventStore.ts';
import { migrate, storeMigrations, type Migration } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Db, EventStore, Projection, StoreOptions } from './types.ts';

export interface DbConfig {
  /** postgres://… — a PostgreSQL server. */
  databaseUrl?: string | undefined;
  /** PGlite's directory when no URL is given; omitted → in memory. */
  dataDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

export const openDb = (config: DbConfig): Promise<Db> =>
  config.databaseUrl
    ? openPostgres({ url: config.databaseUrl, ...(config.poolSize ? { max: config.poolSize } : {}) })
    : openPglite(config.dataDir ? { dataDir: config.dataDir } : {});

/** Opens the store: runs the store's and the caller's migrations, then readies the projections. `options.eventRows` are written by every append, with its events. */
export async function openStore(config: DbConfig, projections: readonly Projection[], migrations: readonly Migration[] = [], options: StoreOptions = {}): Promise<EventStore> {
  const db = await openDb(config);
  try {
    await migrate(db, [...storeMigrations, ...migrations]);
    const store = createEventStore(db, projections, options);
    await store.ensureProjections();
    // PGlite runs no autovacuum, so its planner would never learn the tables' sizes.
    if (db.kind === 'pglite') await db.exec('ANALYZE');
    return store;
  } catch (e) {
    await db.close();
    throw e;
  }
}
