// The storage port for files people upload (a receipt's photo or PDF): bytes under a key, nothing
// else. The default keeps them on this server's disk under DATA_DIR/files; a deployment with more
// than one API process behind a balancer needs a store they share (an object store behind the same
// four calls). Keys are made by the app, never taken from a request: 'accounts/{accountId}/…', so an
// account's files go with one deletePrefix.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';

export interface FileStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when nothing is kept under the key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the file; removing what is not there is no error. */
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix` (ending in '/'). */
  deletePrefix(prefix: string): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_.-]*)*\/?$/i;

/** A key the app made: path segments of letters, digits, '-', '_' and '.', never '..'. */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((s) => s === '..' || s === '.')) throw new Error(`not a file key: ${key}`);
  return key;
}

/** Files on this server's disk under `root`, each written to a temporary name and renamed into place (never half a file). */
export function diskFileStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string): string => {
    const p = resolve(base, checkKey(key));
    if (p !== base && !p.startsWith(base + sep)) throw new Error(`not a file key: ${key}`);
    return p;
  };
  return {
    async put(key, bytes) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const temp = join(dirname(target), `.${randomUUID()}.part`);
      await writeFile(temp, bytes, { mode: 0o600 });
      await rename(temp, target);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      await rm(pathOf(prefix), { recursive: true, force: true });
    },
  };
}

/** Files in memory (tests). */
export function memoryFileStore(): FileStore & { keys(): string[] } {
  const files = new Map<string, Uint8Array>();
  return {
    async put(key, bytes) {
      files.set(checkKey(key), new Uint8Array(bytes));
    },
    async get(key) {
      return files.get(checkKey(key)) ?? null;
    },
    async delete(key) {
      files.delete(checkKey(key));
    },
    async deletePrefix(prefix) {
      for (const k of [...files.keys()]) if (k.startsWith(checkKey(prefix))) files.delete(k);
    },
    keys: () => [...files.keys()],
  };
}
