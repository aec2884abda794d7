// A request refused before its body is read (413 for an oversized logo, 401 for a large upload
// without a token) must not break the keep-alive connection it came on: the client's next request
// succeeds. Against the real server on loopback, one socket at a time, as a phone's browser reuses it.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { KEEP_ALIVE_MS, startServer, type RunningServer } from '../../src/main.ts';

let server: RunningServer;
let base: URL;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-keepalive-'));
  mkdirSync(join(dataDir, 'web'));
  server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: join(dataDir, 'web'), LOG_LEVEL: 'silent', PASSWORD_COST: '10' }));
  base = new URL(server.url);
});
afterAll(async () => {
  agent.destroy();
  await server?.close();
});

function send(method: string, path: string, body?: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; text: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, method, path, agent, headers: { ...headers, ...(body ? { 'Content-Length': String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), connection: res.headers.connection }));
      res.on('error', reject);
    });
    // The server may answer and close before the whole body is written: that is its right.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    if (body) req.write(body);
    req.end();
  });
}

const multipart = (size: number): { body: Buffer; type: string } => {
  const boundary = 'tradie-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, Buffer.alloc(size, 7), tail]), type: `multipart/form-data; boundary=${boundary}` };
};

describe('keep-alive after a refusal', () => {
  it('a large upload without a token (401), an oversized logo and an oversized JSON body (413): each next request on the connection succeeds', async () => {
    expect((await send('GET', '/api/v1/health')).status).toBe(200);
    const large = multipart(1536 * 1024);
    const unauthorised = await send('POST', '/api/v1/business-settings/logo', large.body, { 'Content-Type': large.type });
    expect(unauthorised.status).toBe(401);
    expect((await send('GET', '/api/v1/health')).status).toBe(200);

    const oversized = multipart(3 * 1024 * 1024);
    const tooLarge = await send('POST', '/api/v1/business-settings/logo', oversized.body, { 'Content-Type': oversized.type });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.text).toContain('Logo must be less than 2MB');
    expect((await send('GET', '/api/v1/health')).status).toBe(200);

    const tooLargeJson = await send('POST', '/api/v1/auth/login', Buffer.alloc(2 * 1024 * 1024, 32), { 'Content-Type': 'application/json' });
    expect(tooLargeJson.status).toBe(413);
    expect((await send('GET', '/api/v1/health')).status).toBe(200);
  });

  it('a refusal whose body was read keeps the connection open', async () => {
    const bad = await send('POST', '/api/v1/auth/login', Buffer.from('{"email":"nobody@example.com"}'), { 'Content-Type': 'application/json' });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.connection).not.toBe('close');
    expect((await send('GET', '/api/v1/health')).status).toBe(200);
  });

  it('keeps an idle connection open longer than a proxy in front keeps its own, so it never closes one as a request goes down it', async () => {
    const res = await send('GET', '/api/v1/health');
    expect(res.status).toBe(200);
    // Node says how long it keeps the connection: the server's setting, at least the 60 s proxies use.
    const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
      const req = request({ host: base.hostname, port: base.port, method: 'GET', path: '/api/v1/health', agent }, (r) => {
        r.resume();
        r.on('end', () => resolve(String(r.headers['keep-alive'])));
      });
      req.on('error', reject);
      req.end();
    });
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    expect(keepAlive).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
  });
});
