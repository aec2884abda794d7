// Each signed-in request checks the session once: the routes that hang off /invoices (documents,
// client links, credit notes, payment claims) are parts of one sub-app with one sign-in check,
// not four sub-apps at the same path each checking it again (each check reads the database).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A route's path as Hono matches it: ':id' is one segment, a trailing '/*' the path itself or anything under it. */
const matcher = (routePath: string) => new RegExp(`^${routePath.replace(/\/\*$/, '(/.*)?').replace(/:[^/]+/g, '[^/]+')}$`);

/** The sign-in checks a request to `path` passes through, read off the app's route table. */
function signInChecks(path: string): number {
  return t.app.routes.filter((r) => r.handler.name === 'requireAuth' && matcher(r.path).test(path)).length;
}

it('checks the session once on every route under /invoices and elsewhere', () => {
  for (const path of ['/api/v1/invoices', '/api/v1/invoices/abc', '/api/v1/invoices/abc/link', '/api/v1/invoices/abc/credit-notes', '/api/v1/invoices/abc/payment-claim', '/api/v1/clients', '/api/v1/credit-notes/abc']) {
    expect(signInChecks(path), path).toBe(1);
  }
});

it('still refuses every part of /invoices without a sign-in, and serves them with one', async () => {
  const owner = await signUp(t);
  for (const path of ['/invoices', '/invoices/00000000-0000-7000-8000-000000000000/link', '/invoices/00000000-0000-7000-8000-000000000000/credit-notes', '/invoices/00000000-0000-7000-8000-000000000000/payment-claim']) {
    expect((await t.call('GET', path)).status, path).toBe(401);
    expect((await t.call('GET', path, { token: owner.token })).status, path).not.toBe(401);
  }
});
