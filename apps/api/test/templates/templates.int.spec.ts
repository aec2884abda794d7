// /api/v1/templates through the HTTP app: a template belongs to its account (another account's is
// 404 on every route and never listed), its body is bounded (name, lines, templates per account),
// and PUT with a stale version is 409.
import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES, type TemplateInput, type TemplateRecord } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const bathroom: TemplateInput = {
  name: 'Bathroom refit',
  type: 'quote',
  line_items: [
    { description: 'Labour', qty: 8, unit_price: 95.5, tax_included: false, tax_rate: 0.15 },
    { description: 'Tiles', qty: 12.5, unit_price: 42, tax_included: true, tax_rate: 0.15 },
  ],
  profit_margin_percent: 25,
  include_gst: true,
  client: { name: 'Aroha Ngata', email: 'aroha@example.co.nz', phone: '021 555 0101' },
  notes: 'Allow two days',
};

async function save(token: string, body: unknown): Promise<TemplateRecord> {
  const r = await t.post('/templates', body, token);
  if (r.status !== 201) throw new Error(`POST /templates: ${r.status} ${r.text}`);
  return r.json;
}

describe('/templates', () => {
  it('saves, lists, replaces and deletes a template of the account', async () => {
    const u = await signUp(t);
    expect((await t.get('/templates', u.token)).json).toEqual({ items: [] });

    const saved = await save(u.token, bathroom);
    // A line saved without a cost reads back as cost not recorded (null, never $0), in the catch-all category.
    const uncosted = { cost: null, category: 'other', markup: null };
    expect(saved).toEqual({
      id: expect.any(String), ...bathroom, line_items: bathroom.line_items.map((l) => ({ ...l, ...uncosted })),
      version: 1, created_at: '2026-05-04T21:30:00.000Z', updated_at: '2026-05-04T21:30:00.000Z',
    });
    const deck = await save(u.token, { name: '  Deck  ', line_items: [] });
    expect(deck).toMatchObject({ name: 'Deck', type: 'quote', profit_margin_percent: 0, include_gst: true, client: null, notes: '' });
    expect((await t.get('/templates', u.token)).json.items.map((x: TemplateRecord) => x.name)).toEqual(['Bathroom refit', 'Deck']);

    t.clock.advance(60_000);
    const put = await t.put(`/templates/${saved.id}`, { ...bathroom, name: 'Bathroom refit (large)', version: 1 }, u.token);
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id: saved.id, name: 'Bathroom refit (large)', version: 2, created_at: saved.created_at, updated_at: '2026-05-04T21:31:00.000Z' });

    const stale = await t.put(`/templates/${saved.id}`, { ...bathroom, version: 1 }, u.token);
    expect(stale.status).toBe(409);
    expect(stale.json.detail).toBe('This template was changed somewhere else since you opened it. Reload it and try again.');

    expect((await t.del(`/templates/${deck.id}`, u.token)).status).toBe(204);
    expect((await t.del(`/templates/${deck.id}`, u.token)).status).toBe(404);
    expect((await t.get('/templates', u.token)).json.items.map((x: TemplateRecord) => x.name)).toEqual(['Bathroom refit (large)']);
  });

  it("another account's template is not found on every route and never listed", async () => {
    const owner = await signUp(t, 'Owner');
    const other = await signUp(t, 'Other');
    const mine = await save(owner.token, bathroom);

    expect((await t.get('/templates', other.token)).json).toEqual({ items: [] });
    const put = await t.put(`/templates/${mine.id}`, { ...bathroom, name: 'Taken' }, other.token);
    expect(put.status).toBe(404);
    expect(put.json.detail).toBe(TEMPLATE_MESSAGES.notFound);
    const del = await t.del(`/templates/${mine.id}`, other.token);
    expect(del.status).toBe(404);
    expect(del.json.detail).toBe(TEMPLATE_MESSAGES.notFound);
    // The owner's template is untouched.
    expect((await t.get('/templates', owner.token)).json.items).toEqual([mine]);
    // And a made-up id is the same 404.
    expect((await t.put('/templates/not%00an-id', bathroom, owner.token)).status).toBe(404);
  });

  it('needs a signed-in caller', async () => {
    expect((await t.get('/templates')).status).toBe(401);
    expect((await t.post('/templates', bathroom)).status).toBe(401);
  });

  it('refuses a body outside the bounds, with a detail, and stores nothing', async () => {
    const u = await signUp(t);
    const cases: [unknown, string][] = [
      [{ ...bathroom, name: '' }, 'Name is required'],
      [{ ...bathroom, name: 'x'.repeat(TEMPLATE_LIMITS.name + 1) }, `Name can be at most ${TEMPLATE_LIMITS.name} characters`],
      [{ ...bathroom, line_items: Array.from({ length: TEMPLATE_LIMITS.lines + 1 }, () => bathroom.line_items[0]) }, `A template can have at most ${TEMPLATE_LIMITS.lines} lines`],
      [{ ...bathroom, line_items: [{ ...bathroom.line_items[0], qty: 'lots' }] }, 'Quantity must be a number'],
      [{ ...bathroom, type: 'receipt' }, "type must be 'quote' or 'invoice'"],
    ];
    for (const [body, detail] of cases) {
      const r = await t.post('/templates', body, u.token);
      expect(r.status, detail).toBeGreaterThanOrEqual(400);
      expect(r.status, detail).toBeLessThan(500);
      expect(r.json.detail, detail).toContain(detail);
    }
    // Exactly at the bounds is fine.
    const full = await save(u.token, { ...bathroom, name: 'x'.repeat(TEMPLATE_LIMITS.name), line_items: Array.from({ length: TEMPLATE_LIMITS.lines }, () => bathroom.line_items[0]) });
    expect(full.line_items).toHaveLength(TEMPLATE_LIMITS.lines);
    expect((await t.get('/templates', u.token)).json.items).toHaveLength(1);
  });

  it(`keeps at most ${TEMPLATE_LIMITS.perAccount} templates per account`, async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    for (let i = 0; i < TEMPLATE_LIMITS.perAccount; i++) await save(u.token, { name: `T${i}`, line_items: [] });
    const over = await t.post('/templates', { name: 'One too many', line_items: [] }, u.token);
    expect(over.status).toBe(422);
    expect(over.json.detail).toBe(TEMPLATE_MESSAGES.tooMany);
    expect((await t.get('/templates', u.token)).json.items).toHaveLength(TEMPLATE_LIMITS.perAccount);
    // Per account: another account still saves.
    expect((await t.post('/templates', { name: 'Mine', line_items: [] }, other.token)).status).toBe(201);
    // Deleting one makes room again.
    const first = (await t.get('/templates', u.token)).json.items[0] as TemplateRecord;
    expect((await t.del(`/templates/${first.id}`, u.token)).status).toBe(204);
    expect((await t.post('/templates', { name: 'Now it fits', line_items: [] }, u.token)).status).toBe(201);
  });
});
