// A refused body, as an integrator's script meets it: Node's own fetch (undici) against the real
// server on loopback. An oversized logo (2.2 MB) and an oversized JSON body (12 MB, with a length
// and without) are answered 413 with their message — read by the client, every time, rather than a
// network error (EPIPE) — because the server reads and throws away the rest of the body before it
// answers (http/refusedBodies.ts). A body beyond that bound still ends without hanging either side.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_BODY } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { LINGER_BYTES } from '../../src/http/refusedBodies.ts';
import { startServer, type RunningServer } from '../../src/main.ts';

let server: RunningServer;
let base: string;
let token: string;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-refused-'));
  mkdirSync(join(dataDir, 'web'));
  server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: join(dataDir, 'web'), LOG_LEVEL: 'silent', PASSWORD_COST: '10' }));
  base = server.url.replace('localhost', '127.0.0.1');
  const account = { email: 'integrator@example.nz', password: 'correct horse battery', full_name: 'Script Writer' };
  expect((await fetch(`${base}/api/v1/auth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(account) })).status).toBe(201);
  const login = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(account) });
  token = ((await login.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await server?.close();
});

/** What the client got: the status and the message, or the network error's code. */
async function attempt(path: string, init: RequestInit): Promise<{ status: number; detail: string } | { error: string }> {
  try {
    const res = await fetch(`${base}${path}`, init);
    return { status: res.status, detail: ((await res.json()) as { detail: string }).detail };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? String(e) };
  }
}

const logo = (bytes: number): FormData => {
  const fd = new FormData();
  fd.append('file', new File([Buffer.alloc(bytes, 7)], 'logo.png', { type: 'image/png' }));
  return fd;
};

/** A body sent in chunks with no Content-Length (Transfer-Encoding: chunked). */
const chunked = (total: number, chunk = 256 * 1024): ReadableStream<Uint8Array> => {
  let left = total;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(chunk, left);
      left -= n;
      controller.enqueue(new Uint8Array(n).fill(32));
    },
  });
};

describe('Node fetch reads the 413 and its message', () => {
  it('a 2.2 MB logo, twenty times in a row', async () => {
    // Before the fix this failed now and then (a race between the client reading the answer and the reset).
    for (let i = 0; i < 20; i++) {
      const got = await attempt('/api/v1/business-settings/logo', { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: logo(2.2 * 1024 * 1024) });
      expect(got, `attempt ${i + 1}`).toEqual({ status: 413, detail: 'Logo must be less than 2MB' });
    }
  });

  it('a 12 MB JSON body, with its length and sent in chunks without one (before the fix: EPIPE every time)', async () => {
    for (let i = 0; i < 5; i++) {
      const got = await attempt('/api/v1/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: Buffer.alloc(12 * 1024 * 1024, 32) });
      expect(got, `attempt ${i + 1}`).toEqual({ status: 413, detail: 'The request is too large.' });
    }
    for (let i = 0; i < 3; i++) {
      const init = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: chunked(12 * 1024 * 1024), duplex: 'half' } as RequestInit;
      expect(await attempt('/api/v1/auth/login', init), `chunked attempt ${i + 1}`).toEqual({ status: 413, detail: 'The request is too large.' });
    }
  });

  it('the connection the refusal came on is used again, as after any other answer', async () => {
    const over = await attempt('/api/v1/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: Buffer.alloc(MAX_JSON_BODY + 1, 32) });
    expect(over).toEqual({ status: 413, detail: 'The request is too large.' });
    const health = await fetch(`${base}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).not.toBe('close');
  });

  it('a body beyond the bound ends without hanging: answered or cut off, and the server goes on serving', async () => {
    const started = Date.now();
    const got = await attempt('/api/v1/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: chunked(LINGER_BYTES + 16 * 1024 * 1024, 1024 * 1024), duplex: 'half' } as RequestInit);
    // Either the 413 arrived before the connection closed, or the client was cut off mid-body: never a hang.
    if ('status' in got) expect(got).toEqual({ status: 413, detail: 'The request is too large.' });
    else expect(got.error).toMatch(/EPIPE|ECONNRESET|other side closed|SocketError|terminated/i);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await fetch(`${base}/api/v1/health`)).status).toBe(200);
  }, 60_000);
});
