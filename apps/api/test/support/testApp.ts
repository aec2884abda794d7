// Builds the real app on an in-memory PGlite (or a PostgreSQL URL) with a settable clock and a
// mailer that keeps what it sends. Requests go through app.request — no port is bound.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppDeps, Clock } from '../../src/deps.ts';
import type { Mailer, OutgoingMail, SentMail } from '../../src/mail/index.ts';
import { allMigrations } from '../../src/migrations.ts';
import { outboxWriter } from '../../src/reactions/outbox.ts';
import { secretsFrom } from '../../src/appKeys.ts';

export class TestClock implements Clock {
  private t: number;
  constructor(start = '2026-05-04T21:30:00.000Z') {
    this.t = Date.parse(start);
  }
  now(): Date {
    return new Date(this.t);
  }
  set(iso: string): void {
    this.t = Date.parse(iso);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export class MemoryMailer implements Mailer {
  /** 'smtp' to act like a server whose mail really leaves (email confirmation, documents/sendGuard.ts). */
  readonly kind: Mailer['kind'];
  constructor(kind: Mailer['kind'] = 'outbox') {
    this.kind = kind;
  }
  readonly sent: OutgoingMail[] = [];
  failWith: Error | undefined;
  async send(mail: OutgoingMail): Promise<SentMail> {
    if (this.failWith) throw this.failWith;
    this.sent.push(mail);
    return { messageId: `<${this.sent.length}@test>`, accepted: mail.to.map(String), rejected: [] };
  }
  async close(): Promise<void> {}
}

/** The secret the test apps sign and encrypt with; at least 32 bytes, like any APP_SECRET (secrets.ts checkAppSecret). */
export const TEST_APP_SECRET = 'test-secret-for-the-api-tests-only-do-not-use';

export interface TestAppOptions {
  databaseUrl?: string;
  env?: Record<string, string>;
  clock?: TestClock;
  overrides?: Partial<AppDeps>;
  /** The MemoryMailer's kind (default 'outbox'). */
  mailKind?: Mailer['kind'];
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export async function createTestApp(options: TestAppOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-api-'));
  const config = loadConfig({ DATA_DIR: dataDir, APP_URL: 'http://app.test', LOG_LEVEL: 'error', PASSWORD_COST: '10', WEB_DIST: join(dataDir, 'no-web'), IP_LIMIT_MULTIPLIER: '1000', ...options.env });
  const store = await openStore({ databaseUrl: options.databaseUrl }, projections, allMigrations, { eventRows: outboxWriter() });
  const clock = options.clock ?? new TestClock();
  const mailer = new MemoryMailer(options.mailKind);
  const deps: AppDeps = {
    config,
    store,
    clock,
    ids: { uuid: () => uuidv7() },
    mailer,
    secrets: secretsFrom(Buffer.from(TEST_APP_SECRET)),
    log: () => {},
    ...options.overrides,
  };
  const app = createApp(deps);

  async function call(method: string, path: string, init: { token?: string | undefined; json?: unknown; body?: string | Uint8Array | FormData; headers?: Record<string, string>; ip?: string } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    let body: string | Uint8Array | FormData | undefined = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await app.request(path.startsWith('/api/') ? path : `/api/v1${path}`, { method, headers, body: body as RequestInit['body'] }, init.ip ? { remoteAddress: init.ip } : {});
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    // Tests read answers loosely (r.json.detail, r.json.items[0].id): the shapes are asserted, not typed.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, headers: res.headers, text, json: json as any };
  }

  return {
    app,
    deps,
    clock,
    mailer,
    call,
    get: (path: string, token?: string) => call('GET', path, { token }),
    post: (path: string, json?: unknown, token?: string, headers?: Record<string, string>) => call('POST', path, { json, token, ...(headers ? { headers } : {}) }),
    put: (path: string, json?: unknown, token?: string) => call('PUT', path, { json, token }),
    del: (path: string, token?: string) => call('DELETE', path, { token }),
    close: () => store.close(),
  };
}

/**
 * Starts a test app before the tests of the enclosing describe (or file) and closes it after them.
 * Answers a handle that stands for that app: use it inside tests and hooks, once the app is up.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await createTestApp(options);
  });
  afterAll(() => started?.close());
  const current = (): TestApp => {
    if (!started) throw new Error('The test app starts in beforeAll: use it inside tests and hooks');
    return started;
  };
  return new Proxy({} as TestApp, {
    get: (_target, key) => Reflect.get(current(), key),
    set: (_target, key, value) => Reflect.set(current(), key, value),
  });
}

let userSeq = 0;

/** The GST number a test account is registered with (valid check digits). */
export const TEST_GST_NUMBER = '49-091-850';

/**
 * Registers a new user (a new account) and signs in. Every test gets its own account. The email
 * address is confirmed, as if the link in the confirmation email had been opened (it matters only
 * where mail really leaves: an 'smtp' mailer); `{ confirmEmail: false }` leaves it unconfirmed.
 * The business is registered for GST with TEST_GST_NUMBER, so its documents can be sent;
 * `{ gst: 'new' }` leaves its settings as a new account's (registered, no number yet).
 */
export async function signUp(
  t: TestApp,
  name = 'Aroha Tamihana',
  options: { confirmEmail?: boolean; gst?: 'registered' | 'new' } = {},
): Promise<{ email: string; password: string; token: string; refresh: string; userId: string }> {
  userSeq += 1;
  const email = `user${userSeq}-${Date.now().toString(36)}@example.nz`;
  const password = 'correct horse battery';
  const reg = await t.post('/auth/register', { email, password, full_name: name });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  if (options.confirmEmail ?? true) await t.deps.store.db.query('UPDATE users SET email_confirmed_at = created_at WHERE id = $1', [reg.json.id]);
  if ((options.gst ?? 'registered') === 'registered') {
    await t.deps.store.db.query('INSERT INTO business_settings (account_id, gst_number, gst_registered) VALUES ($1, $2, true)', [reg.json.id, TEST_GST_NUMBER]);
  }
  const login = await t.post('/auth/login', { email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { email, password, token: login.json.access_token, refresh: login.json.refresh_token, userId: reg.json.id };
}
