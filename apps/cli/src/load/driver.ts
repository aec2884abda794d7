// The load driver: N signed-in users, each with its own account, working for T seconds against
// a running API over real HTTP. Bounded in time (no operation starts after T; a request waits at
// most its timeout) and in count (maxOpsPerUser). Sign-ups come first and are measured apart.
import { randomUUID } from 'node:crypto';
import { seeded } from '../bench/figures.ts';
import { httpClient } from './http.ts';
import type { AccountLedger } from './ledger.ts';
import { LoadStats, type LoadSummary } from './stats.ts';
import { runUser } from './user.ts';

export interface LoadOptions {
  /** The server, e.g. http://127.0.0.1:3000 (the API is under /api/v1). */
  baseUrl: string;
  users: number;
  seconds: number;
  /** At most this many operations per user (default: no limit but the time). */
  maxOpsPerUser?: number;
  seed?: number;
  /** Mean pause between a user's operations, ms (default 0: back to back, the hardest case). */
  thinkMs?: number;
  /** Send unanswered requests (and 503s) again with the same key until answered (fault runs). */
  retry?: boolean;
  /** After the run, how long an unanswered request keeps being retried (retry mode), s. Default 90. */
  settleSeconds?: number;
  /** Per request, ms. Default 30,000. */
  timeoutMs?: number;
  /** Called when the timed run starts (after every user has signed up). */
  onStart?: () => void;
  /** No operation starts once this settles (fault runs: some seconds after the fault is over); `seconds` still bounds the run. */
  stopWhen?: Promise<unknown>;
  /** Ends the run at once: no new operation, no more retries (a crashed server). */
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export interface LoadResult {
  /** The timed run. */
  summary: LoadSummary;
  /** Sign-ups and sign-ins before it. */
  setup: LoadSummary;
  ledgers: AccountLedger[];
  /** Operations the users completed. */
  operations: number;
}

async function signUp(options: LoadOptions, stats: LoadStats, runId: string, i: number): Promise<AccountLedger> {
  const http = httpClient(options.baseUrl, stats, { timeoutMs: 60_000 });
  const email = `load-${runId}-${i}@example.nz`;
  const password = `correct horse battery ${i}`;
  for (let attempt = 1; ; attempt++) {
    const reg = await http.call('POST /auth/register', 'POST', '/auth/register', { json: { email, password, full_name: `Load Tradie ${i}` } });
    if (reg?.status === 201 || reg?.status === 409) break;
    if (attempt >= 5) throw new Error(`sign-up ${i}: ${reg ? `${reg.status} ${JSON.stringify(reg.json)}` : 'no answer'}`);
  }
  const login = await http.call('POST /auth/login', 'POST', '/auth/login', { json: { email, password } });
  if (login?.status !== 200) throw new Error(`sign-in ${i}: ${login ? `${login.status} ${JSON.stringify(login.json)}` : 'no answer'}`);
  const me = await http.call('GET /auth/me', 'GET', '/auth/me', { token: login.json.access_token });
  // A GST-registered business with its GST number, as most tradespeople are: its invoices may be issued.
  const gst = await http.call('PUT /business-settings', 'PUT', '/business-settings', { token: login.json.access_token, json: { gst_registered: true, gst_number: '49-091-850' } });
  if (gst?.status !== 200) throw new Error(`settings ${i}: ${gst ? `${gst.status} ${JSON.stringify(gst.json)}` : 'no answer'}`);
  return {
    email, password, userId: String(me?.json?.id), token: String(login.json.access_token),
    clients: new Map(), documents: new Map(), deleted: new Set(),
  };
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const runId = randomUUID().slice(0, 8);
  const log = options.log ?? (() => {});
  const setupStats = new LoadStats();
  const ledgers: AccountLedger[] = new Array(options.users);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(10, options.users) }, async () => {
    while (next < options.users) {
      const i = next++;
      ledgers[i] = await signUp(options, setupStats, runId, i);
    }
  }));
  log(`load: ${options.users} users signed up; running for ${options.seconds} s`);

  const stats = new LoadStats();
  const http = httpClient(options.baseUrl, stats, { timeoutMs: options.timeoutMs ?? 30_000 });
  const endAt = Date.now() + options.seconds * 1000;
  const giveUpAt = endAt + (options.settleSeconds ?? 90) * 1000;
  const stop = { stopped: false, aborted: false };
  void options.stopWhen?.then(() => (stop.stopped = true), () => (stop.stopped = true));
  options.signal?.addEventListener('abort', () => Object.assign(stop, { stopped: true, aborted: true }), { once: true });
  options.onStart?.();
  const progress = setInterval(() => {
    const s = stats.summary();
    log(`load: ${s.requests} requests, ${JSON.stringify(s.statuses)}`);
  }, 10_000);
  progress.unref();
  let counts: number[];
  try {
    counts = await Promise.all(ledgers.map((ledger, index) => runUser({
      http, stats, rng: seeded((options.seed ?? 42) * 1000 + index), runId, index, endAt, giveUpAt, stop,
      maxOps: options.maxOpsPerUser ?? Number.POSITIVE_INFINITY, retry: options.retry ?? false, thinkMs: options.thinkMs ?? 0,
    }, ledger)));
  } finally {
    clearInterval(progress);
  }
  return { summary: stats.summary(), setup: setupStats.summary(), ledgers, operations: counts.reduce((a, b) => a + b, 0) };
}
