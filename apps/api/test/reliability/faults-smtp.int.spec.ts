// Fault: the mail server is down while the app is busy. The single-request case (503, nothing
// marked sent, the same Idempotency-Key may try again) is in documents/send.int.spec.ts; this is
// the same through the real server (HTTP on loopback, the SMTP mailer, PGlite in a data
// directory) while 4 other users work: every send answers 503 with a clear detail and Retry-After,
// the invoice stays a draft with no send recorded, the others' work is untouched (no 5xx, their
// accounts equal their ledgers). Then the mail server comes back on the same address and the
// same Idempotency-Key sends the invoice — once.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSmtpSink, type SmtpSink } from '@tradie/testkit/smtp-sink';
import { freePort } from '@tradie/testkit/postgres-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad, type LoadResult } from '../../../cli/src/load/driver.ts';
import { type Answer, type HttpClient, httpClient } from '../../../cli/src/load/http.ts';
import { verifyLedgers } from '../../../cli/src/load/ledger.ts';
import { LoadStats } from '../../../cli/src/load/stats.ts';
import { loadConfig } from '../../src/config.ts';
import { type RunningServer, startServer } from '../../src/main.ts';
import { TEST_GST_NUMBER } from '../support/testApp.ts';

/** The mail server's address: a relay to the sink that can be switched off (nothing listening) and on again. */
async function switchableRelay(target: number): Promise<{ port: number; up(): Promise<void>; down(): Promise<void> }> {
  const port = await freePort();
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    port,
    up: () => new Promise((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    }),
    down: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      if (server) server.close(() => resolve());
      else resolve();
      server = undefined;
    }),
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'tradie-smtp-fault-'));
let sink: SmtpSink;
let relay: Awaited<ReturnType<typeof switchableRelay>>;
let server: RunningServer;
let api: HttpClient;

beforeAll(async () => {
  sink = await startSmtpSink();
  relay = await switchableRelay(sink.port);
  mkdirSync(join(dataDir, 'web'));
  server = await startServer(loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: join(dataDir, 'web'), LOG_LEVEL: 'error', PASSWORD_COST: '10', IP_LIMIT_MULTIPLIER: '1000',
    SMTP_URL: `smtp://127.0.0.1:${relay.port}`, MAIL_FROM: 'quotes@tradiequotes.test',
  }));
  api = httpClient(`http://127.0.0.1:${new URL(server.url).port}`, new LoadStats());
}, 120_000);

afterAll(async () => {
  await server?.close();
  await relay?.down();
  await sink?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, path: string, init: { token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const a = await api.call(`${method} ${path}`, method, path, init);
  if (!a) throw new Error(`${method} ${path}: no answer`);
  return a;
}

describe('the mail server down while the app is busy', () => {
  it('every send answers 503 and records nothing; the others work on; back up, the same key sends it once', async () => {
    const email = `sender-${Date.now().toString(36)}@example.nz`;
    expect((await call('POST', '/auth/register', { json: { email, password: 'correct horse battery', full_name: 'Hine Sender' } })).status).toBe(201);
    // The mail server is down, so the confirmation email can't arrive: confirmed as its link would.
    await server.deps.store.db.query('UPDATE users SET email_confirmed_at = created_at WHERE email = $1', [email]);
    const token = (await call('POST', '/auth/login', { json: { email, password: 'correct horse battery' } })).json.access_token as string;
    // Registered for GST with its number, so the invoice may be sent.
    expect((await call('PUT', '/business-settings', { token, json: { gst_number: TEST_GST_NUMBER } })).status).toBe(200);
    const client = await call('POST', '/clients', { token, json: { name: 'Rawiri Client', email: 'rawiri@example.nz' } });
    const invoice = await call('POST', '/invoices', { token, json: { type: 'invoice', client_id: client.json.id, line_items: [{ description: 'Heat pump service', qty: 1, unit_price: 185 }] } });
    expect(invoice.status).toBe(201);
    const id = invoice.json.id as string;
    const headers = { 'Idempotency-Key': `send-${id}` };

    // The relay is down (nothing listens on the mail server's port) for the whole run.
    let load!: LoadResult;
    const sends: Answer[] = [];
    const running = runLoad({ baseUrl: api.baseUrl, users: 4, seconds: 5, seed: 3 }).then((r) => (load = r));
    let done = false;
    void running.finally(() => (done = true));
    while (!done || sends.length < 3) sends.push(await call('POST', `/invoices/${id}/send`, { token, headers }));
    await running;

    for (const s of sends) {
      expect(s.status).toBe(503);
      expect(s.json.detail).toBe("We couldn't send the email right now. Please try again in a few minutes.");
      expect(s.headers.get('Retry-After')).toBe('60');
    }
    expect((await call('GET', `/invoices/${id}`, { token })).json).toMatchObject({ status: 'draft', sends: [] });
    expect(sink.messages).toHaveLength(0);
    expect(load.summary.serverErrors).toBe(0);
    expect(load.summary.unexpected).toBe(0);
    expect(await verifyLedgers(api, load.ledgers)).toEqual([]);

    await relay.up();
    const sent = await call('POST', `/invoices/${id}/send`, { token, headers });
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ id, status: 'sent', to: ['rawiri@example.nz'] });
    const replay = await call('POST', `/invoices/${id}/send`, { token, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(sink.messages).toHaveLength(1);
    expect((await call('GET', `/invoices/${id}`, { token })).json.sends).toHaveLength(1);
  }, 180_000);
});
