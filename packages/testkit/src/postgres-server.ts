// Starts a throw-away PostgreSQL server on a temporary directory and a free loopback port.
// PostgreSQL refuses to run as root, so as root the directory is given to the `postgres`
// user and initdb/postgres run through `runuser -u postgres --`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

export interface PostgresServer {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
  /** Stops the server process but keeps its data (for fault-injection tests). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>;
}

export function postgresBinDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base).filter((v) => existsSync(`${base}/${v}/bin/postgres`)).sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) {
    throw new Error('No PostgreSQL server found under /usr/lib/postgresql. Install it: apt-get install -y postgresql');
  }
  return `${base}/${versions[0]}/bin`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

async function waitReady(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  let lastError: unknown;
  while (Date.now() - start < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}`);
    const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`select 1`;
      await sql.end({ timeout: 1 });
      return;
    } catch (err) {
      lastError = err;
      await sql.end({ timeout: 1 }).catch(() => {});
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`postgres did not become ready: ${String(lastError)}`);
}

export interface StartPostgresOptions {
  /**
   * Keep PostgreSQL's durable defaults (fsync, synchronous_commit, full_page_writes). Off by
   * default for speed, which loses the last acknowledged commits on an immediate stop (SIGQUIT,
   * SIGKILL) — fault tests that stop the server that way need this on.
   */
  durable?: boolean;
}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'tradie-pg-'));
  chmodSync(dir, 0o700);
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const [initCmd, initArgs] = asPostgresUser(join(bin, 'initdb'), ['-D', dir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  execFileSync(initCmd, initArgs, { stdio: 'ignore' });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess;
  const launch = async (): Promise<void> => {
    const [cmd, args] = asPostgresUser(join(bin, 'postgres'), [
      '-D', dir, '-p', String(port), '-k', dir,
      '-c', 'listen_addresses=127.0.0.1',
      ...(options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
      '-c', 'max_connections=200', '-c', 'shared_buffers=128MB',
    ]);
    // Its own process group: runuser passes signals on to its group, which must not include us.
    child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    await waitReady(url, child);
  };
  await launch();
  // Signals go to the postmaster itself (its pid is the first line of postmaster.pid), never
  // through runuser, which would pass them to its whole process group.
  const kill = async (signal: NodeJS.Signals = 'SIGINT'): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const pidFile = join(dir, 'postmaster.pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : NaN;
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, signal);
    else child.kill(signal);
    await exited;
  };
  return {
    url,
    port,
    dir,
    kill,
    restart: launch,
    async stop() {
      await kill('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a fresh, empty database on the server and returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
