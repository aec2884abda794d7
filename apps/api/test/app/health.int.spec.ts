import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/testApp.ts';

describe('the walking skeleton', () => {
  const t = useTestApp();

  it('GET /api/v1/health answers {"status":"ok"} and is never cached', async () => {
    const r = await t.get('/health');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'ok' });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('an unknown API route is a JSON 404 with a detail', async () => {
    const r = await t.get('/nope');
    expect(r.status).toBe(404);
    expect(r.json.detail).toMatch(/No such API route/);
  });

  it('security headers are set: CSP with frame-ancestors none, nosniff, referrer policy, no wildcard CORS', async () => {
    const r = await t.get('/health');
    expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('without a web build, a page route says how to build it', async () => {
    const res = await t.app.request('/features');
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/npm run build/);
  });
});
