// Every /invoices route is scoped to the signed-in account: another account's quote or invoice is
// 404 on every verb (exactly as an id that does not exist), and nothing of it changes. Every
// route needs a sign-in.
import { documentStreamId } from '@tradie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { addClient, line } from './support.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUp>>;
let intruder: Awaited<ReturnType<typeof signUp>>;
let invoiceId: string;
let quoteId: string;
let paymentId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t);
  intruder = await signUp(t);
  const c = await addClient(t, owner.userId, { name: 'Owner client', email: 'client@example.nz' });
  invoiceId = (await t.post('/invoices', { type: 'invoice', client_id: c, line_items: [line('Work', 1, 100)] }, owner.token)).json.id;
  quoteId = (await t.post('/invoices', { type: 'quote', client_id: c, line_items: [line('Work', 1, 100)] }, owner.token)).json.id;
  paymentId = (await t.post(`/invoices/${invoiceId}/payments`, { amount: 10 }, owner.token)).json.id;
});
afterAll(() => t.close());

const routes = (): [string, string, unknown?][] => [
  ['GET', `/invoices/${invoiceId}`],
  ['PUT', `/invoices/${invoiceId}`, { line_items: [line('Hijack', 1, 1)] }],
  ['DELETE', `/invoices/${invoiceId}`],
  ['POST', `/invoices/${invoiceId}/void`],
  ['POST', `/invoices/${quoteId}/accept`],
  ['POST', `/invoices/${quoteId}/decline`],
  ['POST', `/invoices/${quoteId}/convert`],
  ['POST', `/invoices/${invoiceId}/generate-pdf`],
  ['GET', `/invoices/${invoiceId}/pdf`],
  ['POST', `/invoices/${invoiceId}/send`],
  ['POST', `/invoices/${invoiceId}/mark-paid`],
  ['GET', `/invoices/${invoiceId}/payments`],
  ['POST', `/invoices/${invoiceId}/payments`, { amount: 1 }],
  ['DELETE', `/invoices/${invoiceId}/payments/${paymentId}`],
];

describe("another account's documents", () => {
  it('are 404 on every route, with the same detail as an id that does not exist, and nothing changes', async () => {
    const before = [(await t.deps.store.readStream(documentStreamId(invoiceId))).version, (await t.deps.store.readStream(documentStreamId(quoteId))).version];
    for (const [method, path, json] of routes()) {
      const r = await t.call(method, path, { token: intruder.token, ...(json !== undefined ? { json } : {}) });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.detail, `${method} ${path}`).toBe('Invoice or quote not found');
      const missing = await t.call(method, path.replace(/[0-9a-f-]{36}/, '01a20000-0000-7000-8000-000000000000'), { token: owner.token, ...(json !== undefined ? { json } : {}) });
      expect(missing.status, `${method} ${path} (unknown id)`).toBe(404);
    }
    const after = [(await t.deps.store.readStream(documentStreamId(invoiceId))).version, (await t.deps.store.readStream(documentStreamId(quoteId))).version];
    expect(after).toEqual(before);
    expect(t.mailer.sent).toHaveLength(0);
    expect((await t.get('/invoices', intruder.token)).json).toEqual([]);
    expect((await t.get('/invoices/counts', intruder.token)).json).toEqual({ quotes: 0, invoices: 0 });
  });

  it("a client's id, or any other stream's id, is not a document", async () => {
    const c = await addClient(t, owner.userId, { name: 'Just a client' });
    expect((await t.get(`/invoices/${c}`, owner.token)).status).toBe(404);
    expect((await t.get(`/invoices/${'x'.repeat(500)}`, owner.token)).status).toBe(404);
  });

  it('and the owner still reaches them', async () => {
    for (const [method, path] of routes().filter(([m]) => m === 'GET')) expect((await t.call(method, path, { token: owner.token })).status).toBe(200);
  });
});

describe('without a sign-in', () => {
  it('every route answers 401', async () => {
    const all: [string, string][] = [['GET', '/invoices'], ['GET', '/invoices/counts'], ['POST', '/invoices'], ...routes().map(([m, p]): [string, string] => [m, p])];
    for (const [method, path] of all) {
      const r = await t.call(method, path, method === 'GET' ? {} : { json: {} });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
  });
});
