// The PGlite adapter: Postgres compiled to WASM, embedded in the process. One session only
// (integrations.md §5.3): inside `tx` every statement goes through the transaction handle, and
// a file-backed data directory is guarded by a lock file so a second process can't corrupt it.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Sql } from './types.ts';

export interface PgliteOptions {
  /** A directory for the database files; omitted → in memory. */
  dataDir?: string;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes `dir/pglite.lock` (pid inside). A lock left by a dead process is taken over. */
function takeLock(dir: string): () => void {
  const path = join(dir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(`The data directory ${dir} is in use by process ${pid}. Stop it first, or set DATABASE_URL to use PostgreSQL for several processes.`, { cause: e });
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}

export async function openPglite(options: PgliteOptions = {}): Promise<Db> {
  let release = (): void => {};
  let pg: PGlite;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    release = takeLock(options.dataDir);
    try {
      pg = await PGlite.create(join(options.dataDir, 'pg'));
    } catch (e) {
      release();
      throw e;
    }
  } else {
    pg = await PGlite.create();
  }
  const wrap = (q: { query: PGlite['query'] }): Sql => ({
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      return (await q.query<T>(text, params)).rows;
    },
  });
  const base = wrap(pg);
  let closed = false;
  return {
    kind: 'pglite',
    query: base.query,
    tx: (fn) => pg.transaction((t) => fn(wrap(t))),
    async exec(text) {
      await pg.exec(text);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pg.close();
      release();
    },
  };
}
