// The HTTP app a bench drives in-process (app.request, no port): silent, no mail, a fixed secret,
// its data under `dataDir`; `call` sends JSON with an optional bearer token. `clock` defaults to the
// real one; a bench that asks more than a person would moves its own on past per-minute limits.
import { join } from 'node:path';
import type { EventStore } from '@tradie/store';
import { v7 as uuidv7 } from 'uuid';
import { type AppDeps, createApp, loadConfig, secretsFrom } from '@tradie/api';

export type BenchCall = (method: string, path: string, body?: unknown, token?: string) => Promise<{ status: number; json: Record<string, unknown> }>;

export function benchApp(store: EventStore, dataDir: string, secret: string, clock: AppDeps['clock'] = { now: () => new Date() }): { app: ReturnType<typeof createApp>; call: BenchCall } {
  const deps: AppDeps = {
    config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PASSWORD_COST: '10', WEB_DIST: join(dataDir, 'no-web') }),
    store, clock, ids: { uuid: () => uuidv7() },
    mailer: { kind: 'outbox', send: () => Promise.reject(new Error('no mail in the bench')), close: () => Promise.resolve() },
    secrets: secretsFrom(Buffer.from(secret)), log: () => {},
  };
  const app = createApp(deps);
  const call: BenchCall = async (method, path, body, token) => {
    const res = await app.request(`/api/v1${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  return { app, call };
}
