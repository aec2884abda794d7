// What an expired trial blocks (docs/decisions/0004-expired-trial.md): new work only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingProvider } from '../../src/integrations/stripe/index.ts';
import { TestClock, createTestApp, signUp, type TestApp } from '../support/testApp.ts';

const configured = { configured: true } as unknown as BillingProvider;
const line = { description: 'Labour', qty: 2, unit_price: 85 };

describe('an expired trial', () => {
  let t: TestApp;
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({ clock, overrides: { billing: configured } });
  });
  afterAll(() => t.close());

  it('blocks creating, revising, converting and sending with 402 and a clear detail, and keeps everything else open', async () => {
    const u = await signUp(t);
    const quote = await t.post('/invoices', { type: 'quote', line_items: [line] }, u.token);
    const draft = await t.post('/invoices', { type: 'invoice', line_items: [line] }, u.token);
    const sent = await t.post('/invoices', { type: 'invoice', line_items: [line] }, u.token);
    expect([quote.status, draft.status, sent.status]).toEqual([201, 201, 201]);

    clock.advance(15 * 86_400_000);
    u.token = (await t.post('/auth/login', { email: u.email, password: u.password })).json.access_token;
    const blocked = [
      await t.post('/invoices', { type: 'invoice', line_items: [line] }, u.token),
      await t.put(`/invoices/${draft.json.id}`, { type: 'invoice', line_items: [line, line] }, u.token),
      await t.post(`/invoices/${quote.json.id}/convert`, {}, u.token),
      await t.post(`/invoices/${draft.json.id}/send`, {}, u.token),
    ];
    for (const r of blocked) {
      expect(r.status).toBe(402);
      expect(r.json.detail).toMatch(/free trial has ended.*still view, download and export/);
    }
    // Reading, PDFs, payments and voids stay open: the data is the tradie's.
    expect((await t.get('/invoices', u.token)).status).toBe(200);
    expect((await t.get(`/invoices/${draft.json.id}`, u.token)).status).toBe(200);
    expect((await t.post(`/invoices/${sent.json.id}/payments`, { amount: 10 }, u.token)).status).toBe(201);
    expect((await t.post(`/invoices/${draft.json.id}/void`, {}, u.token)).status).toBe(200);
    expect((await t.get('/invoices', u.token)).json).toHaveLength(3);
  });
});
