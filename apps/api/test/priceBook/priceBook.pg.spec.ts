// The price book on a real PostgreSQL server (postgres.js): numeric money read back exactly, the
// same order as PGlite for accented names (sort_name in the C collation), prefix search through the
// GIN index, and an import that updates by code and keeps the price history.
import { readFileSync } from 'node:fs';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

describe('price book on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ databaseUrl: await freshDatabaseUrl('price_book') });
  });
  afterAll(() => t.close());

  const names = async (token: string, q = ''): Promise<string[]> =>
    ((await t.get(`/price-book/items${q ? `?q=${encodeURIComponent(q)}` : ''}`, token)).json.items as { name: string }[]).map((i) => i.name);

  it('keeps money exact, sorts accents with their letters and finds words by their start', async () => {
    const u = await signUp(t);
    for (const [name, cost] of [['Ōtaki tap 15 mm', '27.5'], ['brass elbow 15 mm', '0.0001'], ['Copper pipe 15 mm', '99999999.9999'], ['Ātea valve', '3']]) {
      expect((await t.post('/price-book/items', { name, cost }, u.token)).status).toBe(201);
    }
    expect(await names(u.token)).toEqual(['Ātea valve', 'brass elbow 15 mm', 'Copper pipe 15 mm', 'Ōtaki tap 15 mm']);
    expect(await names(u.token, 'otaki')).toEqual(['Ōtaki tap 15 mm']);
    expect(await names(u.token, '15 mm')).toEqual(['brass elbow 15 mm', 'Copper pipe 15 mm', 'Ōtaki tap 15 mm']);
    const costs = ((await t.get('/price-book/items', u.token)).json.items as { cost: string }[]).map((i) => i.cost);
    expect(costs).toEqual(['3', '0.0001', '99999999.9999', '27.5']);
  });

  it('imports a merchant list, updates by code and keeps the history', async () => {
    const u = await signUp(t);
    const csv = readFileSync(new URL('../../../../fixtures/price-lists/nz-plumbing-merchant.csv', import.meta.url), 'utf8');
    const mapping = { code: 'Product Code', description: 'Description', unit: 'UOM', price: 'List Price excl GST', price_kind: 'list', discount_percent: '30', gst: 'exclusive' };
    expect((await t.post('/price-book/imports', { supplier: 'Plumbing World', csv, mapping }, u.token)).json.counts).toMatchObject({ created: 22, refused: 3 });
    const moved = csv.replace('PRV-20,Pressure limiting valve 20 mm 500 kPa,RWC,ea,142.00', 'PRV-20,Pressure limiting valve 20 mm 500 kPa,RWC,ea,150.00');
    expect((await t.post('/price-book/imports', { supplier: 'Plumbing World', csv: moved, mapping }, u.token)).json.counts).toMatchObject({ created: 0, updated: 1, unchanged: 21 });
    const [valve] = (await t.get('/price-book/items?q=prv', u.token)).json.items as { id: string; cost: string }[];
    expect(valve!.cost).toBe('105');
    const history = (await t.get(`/price-book/items/${valve!.id}`, u.token)).json.price_changes as { cost_from: string | null; cost_to: string }[];
    expect(history.map((h) => [h.cost_from, h.cost_to])).toEqual([['99.4', '105']]);
  });
});
