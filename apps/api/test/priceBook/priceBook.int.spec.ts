// /api/v1/price-book through the HTTP app: items belong to their account (another account's is 404
// on every route and never found), bad input is a 4xx with a detail and writes nothing, every price
// change is kept, search as you type finds names and codes by the start of their words, and a
// supplier's CSV price list previews, imports, updates by code and remembers its mapping.
import { readFileSync } from 'node:fs';
import { PRICE_BOOK_MESSAGES, type PriceBookItemInput, type PriceBookItemRecord, type PriceListMappingInput } from '@tradie/contracts';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const pipe: PriceBookItemInput = {
  name: 'Copper pipe 15 mm',
  description: 'Half-hard, 5.8 m lengths',
  unit: 'm',
  category: 'Materials',
  cost: '3.80',
  supplier: 'Plumbing World',
  supplier_code: 'CU15-HH',
};

async function add(token: string, body: unknown): Promise<PriceBookItemRecord> {
  const r = await t.post('/price-book/items', body, token);
  if (r.status !== 201) throw new Error(`POST /price-book/items: ${r.status} ${r.text}`);
  return r.json;
}

const names = (r: { json: { items: PriceBookItemRecord[] } }): string[] => r.json.items.map((i) => i.name);

describe('/price-book/items', () => {
  it('adds, finds, edits with its price history, and deletes an item of the account', async () => {
    const u = await signUp(t);
    const item = await add(u.token, pipe);
    expect(item).toEqual({
      id: expect.any(String), name: 'Copper pipe 15 mm', description: 'Half-hard, 5.8 m lengths', unit: 'm', category: 'materials', cost: '3.8', sell: null,
      supplier: 'Plumbing World', supplier_code: 'CU15-HH', gst_rate: '0.15', version: 1, created_at: '2026-05-04T21:30:00.000Z', updated_at: '2026-05-04T21:30:00.000Z',
    });
    await add(u.token, { name: 'Labour — apprentice', cost: 32, category: 'labour', unit: 'hour', gst_rate: 0.15 });
    await add(u.token, { name: 'PEX pipe 16 mm coil', cost: '132.30', supplier: 'Plumbing World', supplier_code: 'PEX16-50' });

    expect(names(await t.get('/price-book/items', u.token))).toEqual(['Copper pipe 15 mm', 'Labour — apprentice', 'PEX pipe 16 mm coil']);
    expect(names(await t.get('/price-book/items?q=pip', u.token))).toEqual(['Copper pipe 15 mm', 'PEX pipe 16 mm coil']);
    expect(names(await t.get('/price-book/items?q=15%20COP', u.token))).toEqual(['Copper pipe 15 mm']);
    expect(names(await t.get('/price-book/items?q=cu15', u.token))).toEqual(['Copper pipe 15 mm']);
    expect(names(await t.get('/price-book/items?q=pex16-5', u.token))).toEqual(['PEX pipe 16 mm coil']);
    expect(names(await t.get('/price-book/items?q=ipe', u.token))).toEqual([]);
    expect(names(await t.get('/price-book/items?q=%25', u.token))).toHaveLength(3);
    const page = await t.get('/price-book/items?limit=2&offset=1', u.token);
    expect([names(page), page.json.has_more]).toEqual([['Labour — apprentice', 'PEX pipe 16 mm coil'], false]);

    t.clock.advance(60_000);
    const put = await t.put(`/price-book/items/${item.id}`, { ...pipe, cost: '4.10', sell: '6.5', version: 1 }, u.token);
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ cost: '4.1', sell: '6.5', version: 2, updated_at: '2026-05-04T21:31:00.000Z' });
    // A change of name only keeps no price change; the search follows the new name.
    t.clock.advance(60_000);
    expect((await t.put(`/price-book/items/${item.id}`, { ...pipe, name: 'Copper tube 15 mm', cost: '4.1', sell: '6.50' }, u.token)).status).toBe(200);
    expect(names(await t.get('/price-book/items?q=tube', u.token))).toEqual(['Copper tube 15 mm']);
    expect(names(await t.get('/price-book/items?q=copper%20pipe', u.token))).toEqual([]);

    const detail = await t.get(`/price-book/items/${item.id}`, u.token);
    expect(detail.json.price_changes).toEqual([
      { changed_at: '2026-05-04T21:31:00.000Z', source: 'edited', cost_from: '3.8', cost_to: '4.1', sell_from: null, sell_to: '6.5' },
    ]);

    const stale = await t.put(`/price-book/items/${item.id}`, { ...pipe, version: 1 }, u.token);
    expect([stale.status, stale.json.detail]).toEqual([409, PRICE_BOOK_MESSAGES.stale]);

    expect((await t.del(`/price-book/items/${item.id}`, u.token)).status).toBe(204);
    expect((await t.del(`/price-book/items/${item.id}`, u.token)).status).toBe(404);
    expect(names(await t.get('/price-book/items?q=cu15', u.token))).toEqual([]);
  });

  it('refuses bad input with a detail and writes nothing', async () => {
    const u = await signUp(t);
    const cases: [unknown, number, string][] = [
      [{ ...pipe, name: ' ' }, 422, 'Name is required'],
      [{ ...pipe, cost: '-1' }, 422, 'Cost cannot be negative'],
      [{ ...pipe, cost: '1.23456' }, 422, 'Cost can have at most 4 decimal places'],
      [{ ...pipe, cost: '=1+1' }, 422, 'Cost is not a number: "=1+1"'],
      [{ ...pipe, cost: undefined }, 422, 'Cost must be an amount'],
      [{ ...pipe, sell: 'lots' }, 422, 'Sell price is not a number: "lots"'],
      [{ ...pipe, gst_rate: 0.125 }, 422, 'gst_rate must be 0.15 (15% GST) or 0 (zero-rated or no GST)'],
      [{ ...pipe, name: 'x'.repeat(201) }, 422, 'Name can be at most 200 characters'],
      [{ ...pipe, supplier_code: 'c'.repeat(61) }, 422, "Supplier's code can be at most 60 characters"],
      [{ ...pipe, name: 'Pipe\u0000' }, 422, "name contains a character that can't be saved"],
    ];
    for (const [body, status, detail] of cases) {
      const r = await t.post('/price-book/items', body, u.token);
      expect([r.status, r.json.detail], JSON.stringify(body)).toEqual([status, detail]);
    }
    expect((await t.get('/price-book/items', u.token)).json.items).toEqual([]);
    expect((await t.get('/price-book/items?limit=0', u.token)).status).toBe(422);

    await add(u.token, pipe);
    const taken = await t.post('/price-book/items', { ...pipe, name: 'Same code', supplier: ' plumbing world ', supplier_code: 'cu15-hh' }, u.token);
    expect([taken.status, taken.json.detail]).toEqual([409, PRICE_BOOK_MESSAGES.codeTaken]);
    // Another supplier may use the same code.
    expect((await t.post('/price-book/items', { ...pipe, supplier: 'Mico' }, u.token)).status).toBe(201);
  });

  it("another account's item is not found on every route and never listed", async () => {
    const owner = await signUp(t, 'Owner');
    const other = await signUp(t, 'Other');
    const mine = await add(owner.token, pipe);

    expect((await t.get('/price-book/items?q=copper', other.token)).json.items).toEqual([]);
    expect((await t.get('/price-book/items', other.token)).json.items).toEqual([]);
    for (const r of [
      await t.get(`/price-book/items/${mine.id}`, other.token),
      await t.put(`/price-book/items/${mine.id}`, { ...pipe, cost: 0 }, other.token),
      await t.del(`/price-book/items/${mine.id}`, other.token),
    ]) expect([r.status, r.json.detail]).toEqual([404, PRICE_BOOK_MESSAGES.notFound]);
    // The other account may have its own item with the same supplier code.
    expect((await t.post('/price-book/items', pipe, other.token)).status).toBe(201);
    expect((await t.get(`/price-book/items/${mine.id}`, owner.token)).json.item).toEqual(mine);
    expect((await t.get('/price-book/items/not%00an-id', owner.token)).status).toBe(404);
    expect((await t.get('/price-book/items')).status).toBe(401);
  });

  it('exports the book as CSV with formula cells neutralised', async () => {
    const u = await signUp(t);
    await add(u.token, { ...pipe, name: '=HYPERLINK("http://evil.example","Click")', description: '+SUM(A1:A9)', supplier_code: '@cmd' });
    const r = await t.get('/price-book/items/export.csv', u.token);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = parse(r.text, { bom: true }) as string[][];
    expect(rows[0]).toEqual(['Name', 'Description', 'Unit', 'Category', 'Cost excl. GST', 'Sell excl. GST', 'Supplier', "Supplier's code", 'GST rate']);
    expect(rows[1]).toEqual(['\'=HYPERLINK("http://evil.example","Click")', "'+SUM(A1:A9)", 'm', 'materials', '3.8', '', 'Plumbing World', "'@cmd", '15%']);
  });
});

const merchantCsv = readFileSync(new URL('../../../../fixtures/price-lists/nz-plumbing-merchant.csv', import.meta.url), 'utf8');
const mapping: PriceListMappingInput = { code: 'Product Code', description: 'Description', unit: 'UOM', price: 'List Price excl GST', price_kind: 'list', discount_percent: '30', gst: 'exclusive' };

describe('/price-book/imports', () => {
  it("previews a merchant's list with a guessed mapping, imports it, updates by code and remembers the mapping", async () => {
    const u = await signUp(t);
    const preview = await t.post('/price-book/imports/preview', { supplier: 'Plumbing World', csv: merchantCsv }, u.token);
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({
      headers: ['Product Code', 'Description', 'Brand', 'UOM', 'List Price excl GST', 'Pack Qty', 'Barcode'],
      mapping: { code: 'Product Code', description: 'Description', unit: 'UOM', price: 'List Price excl GST', price_kind: 'list', discount_percent: '0', gst: 'exclusive' },
      mapping_source: 'guessed',
      problems: [],
      counts: { rows: 25, created: 22, updated: 0, unchanged: 0, refused: 3 },
      refused: [
        { row: 23, reason: 'The price is not a number: "POA"' },
        { row: 24, reason: 'The code is empty' },
        { row: 26, reason: 'The code CU15-HH is already on row 2' },
      ],
    });
    expect(preview.json.sample[2]).toEqual(['CU15-EL90', 'Copper elbow 90° 15 mm, capillary', 'Crane', 'ea', '3.95', '10', '9414572001509']);
    expect(preview.json.items[0]).toEqual({ row: 2, supplier_code: 'CU15-HH', name: 'Copper pipe 15 mm half-hard 5.8 m length', unit: 'm', cost: '5.85', current_cost: null });
    // Preview writes nothing.
    expect((await t.get('/price-book/items', u.token)).json.items).toEqual([]);

    const firstAt = t.clock.now().toISOString();
    const imported = await t.post('/price-book/imports', { supplier: 'Plumbing World', csv: merchantCsv, mapping }, u.token);
    expect(imported.status).toBe(200);
    expect(imported.json.counts).toEqual({ rows: 25, created: 22, updated: 0, unchanged: 0, refused: 3 });
    const found = await t.get('/price-book/items?q=kowhai', u.token);
    expect(found.json.items).toEqual([expect.objectContaining({ name: 'Kōwhai garden tap 15 mm brass', cost: '19.25', supplier: 'Plumbing World', supplier_code: 'KOW-TAP', category: 'materials', unit: 'ea' })]);

    // The next list from the same supplier: its mapping is remembered, a moved price updates the item and is kept in its history.
    t.clock.advance(60_000);
    const next = merchantCsv.replace('CU15-HH,Copper pipe 15 mm half-hard 5.8 m length,Crane,m,5.85', 'CU15-HH,Copper pipe 15 mm half-hard 5.8 m length,Crane,m,6.10');
    const again = await t.post('/price-book/imports/preview', { supplier: ' PLUMBING WORLD', csv: next }, u.token);
    expect(again.json).toMatchObject({ mapping_source: 'remembered', mapping: { ...mapping, unit: 'UOM' }, counts: { created: 0, updated: 1, unchanged: 21, refused: 3 } });
    expect(again.json.items).toEqual([{ row: 2, supplier_code: 'CU15-HH', name: 'Copper pipe 15 mm half-hard 5.8 m length', unit: 'm', cost: '4.27', current_cost: '4.095' }]);
    const secondAt = t.clock.now().toISOString();
    const second = await t.post('/price-book/imports', { supplier: 'Plumbing World', csv: next, mapping }, u.token);
    expect(second.json.counts).toEqual({ rows: 25, created: 0, updated: 1, unchanged: 21, refused: 3 });
    const [pipeItem] = (await t.get('/price-book/items?q=cu15-hh', u.token)).json.items as PriceBookItemRecord[];
    expect(pipeItem).toMatchObject({ cost: '4.27', version: 2, created_at: firstAt });
    expect((await t.get(`/price-book/items/${pipeItem!.id}`, u.token)).json.price_changes).toEqual([
      { changed_at: secondAt, source: 'imported', cost_from: '4.095', cost_to: '4.27', sell_from: null, sell_to: null },
    ]);
    // Another account sees none of it.
    const other = await signUp(t, 'Other');
    expect((await t.get('/price-book/items?q=copper', other.token)).json.items).toEqual([]);
    expect((await t.post('/price-book/imports/preview', { supplier: 'Plumbing World', csv: next }, other.token)).json.mapping_source).toBe('guessed');
  });

  it('search pages through a book where a word is in thousands of items, and finds the few among them', async () => {
    const u = await signUp(t);
    const rows = Array.from({ length: 2100 }, (_, i) => `PC${String(i).padStart(4, '0')},Pipe clip ${i % 30 === 0 ? 'wide ' : ''}${i} mm,ea,1.5`);
    const csv = `Code,Description,Unit,Price\n${rows.join('\n')}\n`;
    const r = await t.post('/price-book/imports', { supplier: 'Clips Ltd', csv, mapping: { code: 'Code', description: 'Description', unit: 'Unit', price: 'Price', price_kind: 'cost', gst: 'exclusive' } }, u.token);
    expect(r.json.counts).toMatchObject({ created: 2100 });
    // 2,100 match 'pipe' (dense): the first page by name, and the next.
    const first = await t.get('/price-book/items?q=pipe&limit=3', u.token);
    expect([names(first), first.json.has_more]).toEqual([['Pipe clip 1 mm', 'Pipe clip 10 mm', 'Pipe clip 100 mm'], true]);
    expect(names(await t.get('/price-book/items?q=pipe&limit=2&offset=3', u.token))).toEqual(['Pipe clip 1000 mm', 'Pipe clip 1001 mm']);
    // 70 match 'pipe wide' (sparse), sorted the same way.
    const wide = await t.get('/price-book/items?q=wide%20pipe&limit=2&offset=1', u.token);
    expect([names(wide), wide.json.has_more]).toEqual([['Pipe clip wide 1020 mm', 'Pipe clip wide 1050 mm'], true]);
    expect(names(await t.get('/price-book/items?q=pc2099', u.token))).toEqual(['Pipe clip 2099 mm']);
  });

  it('search walks the book by name when a word late in the alphabet is in more than 5,000 items', async () => {
    const u = await signUp(t);
    // 400 items first by name that do not match, then 5,050 that do: past the first look, too many for the index's sort.
    const rows = [
      ...Array.from({ length: 400 }, (_, i) => `AV${String(i).padStart(4, '0')},Air valve ${i} mm,ea,2`),
      ...Array.from({ length: 5050 }, (_, i) => `ZP${String(i).padStart(4, '0')},Zinc pipe ${i} mm,m,3`),
    ];
    const csv = `Code,Description,Unit,Price\n${rows.join('\n')}\n`;
    const r = await t.post('/price-book/imports', { supplier: 'Zinc Ltd', csv, mapping: { code: 'Code', description: 'Description', unit: 'Unit', price: 'Price', price_kind: 'cost', gst: 'exclusive' } }, u.token);
    expect(r.json.counts).toMatchObject({ created: 5450 });
    const first = await t.get('/price-book/items?q=zinc&limit=3', u.token);
    expect([names(first), first.json.has_more]).toEqual([['Zinc pipe 0 mm', 'Zinc pipe 1 mm', 'Zinc pipe 10 mm'], true]);
    expect(names(await t.get('/price-book/items?q=zinc%20pipe&limit=2&offset=3', u.token))).toEqual(['Zinc pipe 100 mm', 'Zinc pipe 1000 mm']);
    const last = await t.get('/price-book/items?q=zinc&limit=5&offset=5048', u.token);
    expect([names(last), last.json.has_more]).toEqual([['Zinc pipe 998 mm', 'Zinc pipe 999 mm'], false]);
  });

  it('GST-inclusive prices and a trade price column give the cost excl. GST', async () => {
    const u = await signUp(t);
    const csv = 'SKU,Item,Trade incl GST\r\nA1,"Cable 2.5 mm² TPS, 100 m",230.00\r\n';
    const r = await t.post('/price-book/imports', { supplier: 'Ideal Electrical', csv, mapping: { code: 'SKU', description: 'Item', price: 'Trade incl GST', price_kind: 'cost', gst: 'inclusive' } }, u.token);
    expect(r.json.counts).toMatchObject({ created: 1 });
    expect((await t.get('/price-book/items?q=cable', u.token)).json.items[0]).toMatchObject({ cost: '200', unit: 'each' });
  });

  it('refuses a file too large (413), unreadable, empty or with a mapping that does not fit (422), and writes nothing', async () => {
    const u = await signUp(t);
    const big = await t.post('/price-book/imports', { supplier: 'X', csv: 'a'.repeat(6 * 1024 * 1024), mapping }, u.token);
    expect([big.status, big.json.detail]).toEqual([413, PRICE_BOOK_MESSAGES.csvTooLarge]);
    const long = await t.post('/price-book/imports/preview', { supplier: 'X', csv: 'a'.repeat(5_000_001) }, u.token);
    expect([long.status, long.json.detail]).toEqual([422, PRICE_BOOK_MESSAGES.csvTooLarge]);
    const broken = await t.post('/price-book/imports/preview', { supplier: 'X', csv: 'Code,Description\n"A1,unterminated\n' }, u.token);
    expect(broken.status).toBe(422);
    expect(broken.json.detail).toMatch(/^That file could not be read as a CSV price list/);
    const empty = await t.post('/price-book/imports/preview', { supplier: 'X', csv: 'Code,Description,Price\n' }, u.token);
    expect([empty.status, empty.json.detail]).toEqual([422, PRICE_BOOK_MESSAGES.csvEmpty]);
    const rows = `Code,Description,Price\n${'A,B,1\n'.repeat(50_001)}`;
    const tooMany = await t.post('/price-book/imports/preview', { supplier: 'X', csv: rows }, u.token);
    expect([tooMany.status, tooMany.json.detail]).toEqual([422, PRICE_BOOK_MESSAGES.csvTooManyRows]);
    const misfit = await t.post('/price-book/imports', { supplier: 'X', csv: 'SKU,Name,Net\nA,B,1\n', mapping }, u.token);
    expect(misfit.status).toBe(422);
    expect(misfit.json.detail).toContain('The code column "Product Code" is not in this file');
    const noSupplier = await t.post('/price-book/imports', { supplier: ' ', csv: merchantCsv, mapping }, u.token);
    expect([noSupplier.status, noSupplier.json.detail]).toEqual([422, 'Supplier is required']);
    expect((await t.get('/price-book/items', u.token)).json.items).toEqual([]);
  });

  it('hostile cells: control characters and over-long cells refuse their row; a formula stays text', async () => {
    const u = await signUp(t);
    const csv = `Code,Description,Price\r\nF1,"=cmd|' /C calc'!A0",1\r\nF2,"Bell\u0007",1\r\nF3,${'x'.repeat(2001)},1\r\n`;
    const r = await t.post('/price-book/imports', { supplier: 'X', csv, mapping: { code: 'Code', description: 'Description', price: 'Price', price_kind: 'cost', gst: 'exclusive' } }, u.token);
    expect(r.json).toEqual({
      counts: { rows: 3, created: 1, updated: 0, unchanged: 0, refused: 2 },
      refused: [
        { row: 3, reason: "The description contains a character that can't be saved" },
        { row: 4, reason: 'A cell is longer than 2,000 characters' },
      ],
    });
    const exported = parse((await t.get('/price-book/items/export.csv', u.token)).text, { bom: true }) as string[][];
    expect(exported[1]![0]).toBe("'=cmd|' /C calc'!A0");
  });
});
