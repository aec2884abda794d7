// npm run bench -- auth: what a password guess costs the server. A real API process on loopback with
// PGlite and the production scrypt cost (N = 2^17). Figures: a reset-password with a made-up token
// (refused after one lookup, before any hashing), against a sign-in with the right password (what
// a live reset link pays, one scrypt hash); and 40 wrong sign-ins sent at once for one account,
// of which only the limit reach the password.
import { rmSync } from 'node:fs';
import { startApiProcess } from '../load/server.ts';
import { type Figure, percentile, round } from './figures.ts';

const post = (url: string, body: unknown): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function timed(n: number, fn: (i: number) => Promise<Response>, expect: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fn(i);
    await res.arrayBuffer();
    if (res.status !== expect) throw new Error(`expected HTTP ${expect}, got ${res.status}`);
    times.push(performance.now() - t0);
  }
  return times;
}

export async function authFigures(): Promise<Figure[]> {
  const server = await startApiProcess({ env: { PASSWORD_COST: '17', IP_LIMIT_MULTIPLIER: '100000' } });
  const base = `${server.url}/api/v1`;
  try {
    const email = `authbench-${Date.now()}@example.nz`;
    const password = 'correct horse battery';
    const reg = await post(`${base}/auth/register`, { email, password, full_name: 'Bench Tradie' });
    if (reg.status !== 201) throw new Error(`register: HTTP ${reg.status}`);
    // Warm-up: the first of each path pays for module loading.
    await timed(2, () => post(`${base}/auth/reset-password`, { token: 'warm-up', new_password: 'a new long password' }), 400);
    const bogus = await timed(50, (i) => post(`${base}/auth/reset-password`, { token: `made-up-token-${i}`, new_password: 'a new long password' }), 400);
    const login = await timed(5, () => post(`${base}/auth/login`, { email, password }), 200);

    const victim = `authbench-burst-${Date.now()}@example.nz`;
    const r2 = await post(`${base}/auth/register`, { email: victim, password, full_name: 'Burst Victim' });
    if (r2.status !== 201) throw new Error(`register: HTTP ${r2.status}`);
    const t0 = performance.now();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => post(`${base}/auth/login`, { email: victim, password: `guess ${i}` })));
    const burstMs = performance.now() - t0;
    const checked = burst.filter((r) => r.status === 401).length;
    return [
      { name: 'auth.reset_bogus_token_p50', value: round(percentile(bogus, 50)), unit: 'ms' },
      { name: 'auth.reset_bogus_token_p95', value: round(percentile(bogus, 95)), unit: 'ms' },
      { name: 'auth.login_scrypt_p50', value: round(percentile(login, 50)), unit: 'ms' },
      { name: 'auth.login_burst_40_checked', value: checked, unit: 'count' },
      { name: 'auth.login_burst_40_total', value: round(burstMs), unit: 'ms' },
    ];
  } finally {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}
