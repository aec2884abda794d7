// The PGlite adapter: Postgres compiled to WASM, embedded in the process. One session only:
// inside `tx` every statement goes through the transaction handle, and
// a file-backed data directory is guarded by a lock file so a second process can't corrupt it.
// Statements go over PGlite's extended protocol in one call each and stay prepared (see `session`).
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, TransactionAbortedError, protocol } from '@electric-sql/pglite';
import { bindMessage, readReply, type Field, type Reply } from './pgliteWire.ts';
import type { Db, LastStatement, Sql } from './types.ts';

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
  // Statements stay prepared (below); each execution is still planned with its parameters, as
  // pg.query's unnamed statements were. A generic plan made while a table was small would never be
  // revisited as it grows (in the bench a stream read went from an index scan to a slower plan).
  await pg.exec('SET plan_cache_mode = force_custom_plan');
  const s = session(pg);
  let closed = false;
  return {
    kind: 'pglite',
    query: s.query,
    tx: s.tx,
    async exec(text) {
      s.forgetPrepared();
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

/** Statements kept prepared, most recently used last; past this the oldest is closed. */
const MAX_PREPARED = 200;
/** Longer texts (a rebuild's bulk INSERT) run unnamed and are not kept. */
const MAX_PREPARED_TEXT = 16_384;
/** DDL can change a kept statement's result columns ('cached plan must not change result type'). */
const DDL = /^\s*(create|drop|alter|truncate)\b/i;

interface Prepared {
  name: string;
  /** Parameter type oids, to serialize values as pg.query does. */
  types: number[];
  /** Result columns (from Describe when prepared); null when it returns no rows. */
  fields: Field[] | null;
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * PGlite's query() makes six separate calls into the WASM module per statement (parse, describe,
 * bind, describe, execute, sync) and parses and plans every statement afresh; its transaction()
 * adds two calls each for BEGIN and COMMIT. A command (BEGIN, read the stream, insert the events,
 * the projections' statement, COMMIT) spent most of its time there. This runs each statement as
 * one batch of protocol messages in one call, keeps statements prepared by name (as postgres.js
 * does on a server), reuses the row description Describe gave when the statement was prepared,
 * and sends BEGIN in the same batch as a transaction's first statement. Values are serialized and
 * rows parsed with PGlite's own type handlers, exactly as pg.query does; the locks are PGlite's.
 */
function session(pg: PGlite) {
  const S = protocol.serialize;
  const kept = new Map<string, Prepared>();
  let toClose: string[] = [];
  let seq = 0;

  const forgetPrepared = (): void => {
    for (const st of kept.values()) toClose.push(st.name);
    kept.clear();
  };

  /** Sends one batch (ending in Sync, or a simple query) in one call; a database error is thrown after the whole batch ran, as pg.query reports it. */
  async function send(messages: Uint8Array[], text: string, params?: unknown[]): Promise<Reply> {
    const chunks: Buffer[] = [];
    await pg.execProtocolRawStream(messages.length === 1 ? messages[0]! : concat(messages), {
      syncToFs: false,
      // A view into the WASM heap, valid during the call only.
      onRawData: (bytes) => chunks.push(Buffer.from(bytes)),
    });
    const reply = readReply(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    if (reply.error) throw Object.assign(reply.error, { query: text, params, queryOptions: undefined });
    return reply;
  }

  /** Runs one statement; `first` are messages to send before it (BEGIN), in the same call. */
  async function run<T>(text: string, params: unknown[], first: Uint8Array[]): Promise<T[]> {
    if (DDL.test(text)) forgetPrepared();
    const messages = [...first, ...toClose.map((name) => S.close({ type: 'S', name }))];
    toClose = [];
    const keep = text.length <= MAX_PREPARED_TEXT && !DDL.test(text);
    let st = keep ? kept.get(text) : undefined;
    if (st) {
      kept.delete(text);
      kept.set(text, st);
    } else {
      const name = keep ? `tradie_${++seq}` : '';
      messages.push(S.parse({ name, text }), S.describe({ type: 'S', name }), S.sync());
      const described = await send(messages, text, params);
      messages.length = 0;
      st = { name, types: described.paramTypes ?? [], fields: described.fields ?? null };
      if (keep) {
        kept.set(text, st);
        if (kept.size > MAX_PREPARED) {
          const [oldest, old] = kept.entries().next().value!;
          kept.delete(oldest);
          toClose.push(old.name);
        }
      }
    }
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serialize = pg.serializers[st.types[i]!];
      return serialize ? serialize(v) : String(v);
    });
    messages.push(bindMessage(st.name, values), S.execute({}), S.sync());
    let reply: Reply;
    try {
      reply = await send(messages, text, params);
    } catch (e) {
      // The statement's result type changed under it: prepare it afresh next time.
      if ((e as { code?: string }).code === '0A000' && kept.get(text) === st) {
        kept.delete(text);
        toClose.push(st.name);
      }
      throw e;
    }
    const fields = st.fields;
    if (!fields) return [];
    // Rows as pg.query makes them: one property per column, each value through PGlite's parser for its type.
    const parsers = fields.map((f) => pg.parsers[f.typeId]);
    return reply.rows.map((raw) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const v = raw[i] ?? null;
        const parse = parsers[i];
        row[fields[i]!.name] = v === null ? null : parse ? parse(v, fields[i]!.typeId) : v;
      }
      return row as T;
    });
  }

  const simple = async (text: string): Promise<string | undefined> => (await send([S.query(text)], text)).commands.at(-1)?.split(' ')[0];

  /**
   * Outside a transaction: under PGlite's transaction lock (one session), synced after, as pg.query.
   * A kept statement whose result columns changed under DDL the pattern above did not see (a DO
   * block, a function) fails without having run; it is prepared afresh and run once more, so this
   * answers whatever pg.query would. Inside a transaction that error aborts it, as on a server.
   */
  const query = async <T,>(text: string, params?: unknown[]): Promise<T[]> => {
    await pg._checkReady();
    return pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        try {
          return await run<T>(text, params ?? [], []).catch((e: unknown) => {
            if ((e as { code?: string }).code === '0A000' && /cached plan/.test(String((e as Error).message))) return run<T>(text, params ?? [], []);
            throw e;
          });
        } finally {
          await pg.syncToFs();
        }
      }),
    );
  };

  /** As pg.transaction: COMMIT on resolve, ROLLBACK on throw, TransactionAbortedError when COMMIT rolled back. */
  async function tx<T>(fn: (sql: Sql) => Promise<T>, last?: () => LastStatement | null): Promise<T> {
    await pg._checkReady();
    return pg._runExclusiveTransaction(async () => {
      let state = 'idle' as 'idle' | 'open' | 'closed';
      const sql: Sql = {
        query: (text, params) =>
          pg._runExclusiveQuery(async () => {
            if (state === 'closed') throw new Error('Transaction is closed');
            const first = state === 'idle' ? [S.query('BEGIN')] : [];
            state = 'open';
            return run(text, params ?? [], first);
          }),
      };
      try {
        const result = await fn(sql);
        // One session: nothing can take a lock between this statement and the COMMIT anyway.
        const final = last?.();
        const rows = final ? await sql.query<Record<string, unknown>>(final.text, final.params) : [];
        const begun = state === 'open';
        state = 'closed';
        if (begun && (await pg._runExclusiveQuery(() => simple('COMMIT'))) === 'ROLLBACK') {
          throw Object.assign(new TransactionAbortedError(), { query: 'COMMIT', params: undefined, queryOptions: undefined });
        }
        final?.onRows?.(rows);
        return result;
      } catch (e) {
        if (state === 'open') {
          state = 'closed';
          await pg._runExclusiveQuery(() => simple('ROLLBACK'));
        }
        state = 'closed';
        throw e;
      } finally {
        await pg.syncToFs();
      }
    });
  }

  return { query, tx, forgetPrepared };
}
