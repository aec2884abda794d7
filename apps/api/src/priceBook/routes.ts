// /api/v1/price-book: the account's price book (docs/api/price-book.md). Thin: the bodies are
// checked by the contracts, the work is in repository.ts and importer.ts.
//
//   GET    /items                    search as you type (q: name or code words) or the whole book, by name
//   POST   /items                    add an item
//   GET    /items/export.csv         the whole book as CSV (formula cells neutralised)
//   GET    /items/{id}               one item and its price changes
//   PUT    /items/{id}               replace one (send the version it was loaded at: 409 when it changed since)
//   DELETE /items/{id}               delete one
//   POST   /imports/preview          a supplier's CSV price list: headers, first rows, mapping, counts, refused rows
//   POST   /imports                  import it (update by supplier code; the mapping is remembered)
import {
  priceBookItemDetail,
  priceBookItemInput,
  priceBookItemRecord,
  priceBookItemUpdateInput,
  priceBookList,
  priceBookQuery,
  priceListImportInput,
  priceListImportResult,
  priceListPreview,
  priceListPreviewInput,
} from '@tradie/contracts';
import { Hono } from 'hono';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import type { AppEnv } from '../http/env.ts';
import { parseBody, parseQuery } from '../http/body.ts';
import { plausibleId } from '../http/ids.ts';
import { describe } from '../openapi/describe.ts';
import { toCsv } from '../reports/csv.ts';
import { exportRows } from './export.ts';
import { importPriceList, previewPriceList } from './importer.ts';
import { createItem, deleteItem, getItem, listItems, notFound, updateItem } from './repository.ts';

const TAG = 'Price book';

export function priceBookRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/items', describe({ tag: TAG, summary: 'Search the price book as you type (every word starts a word of the name or the code), by name', query: priceBookQuery, response: { status: 200, schema: priceBookList } }), async (c) => {
    const query = parseQuery(c, priceBookQuery);
    return c.json(await listItems(deps.store.db, c.get('accountId'), query));
  });

  r.post('/items', describe({ tag: TAG, summary: 'Add an item (cost excl. GST, optional sell price)', body: priceBookItemInput, response: { status: 201, schema: priceBookItemRecord }, errors: [409] }), async (c) => {
    const fields = await parseBody(c, priceBookItemInput);
    return c.json(await createItem(deps, c.get('accountId'), fields), 201);
  });

  r.get('/items/export.csv', describe({ tag: TAG, summary: 'The whole price book as CSV (cells that would run as spreadsheet formulas are neutralised)', response: { status: 200, description: 'CSV', contentType: 'text/csv' } }), async (c) => {
    const csv = toCsv(await exportRows(deps.store.db, c.get('accountId')));
    return c.body(csv, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="price-book.csv"' });
  });

  r.get('/items/:id', describe({ tag: TAG, summary: 'One item and its price changes, newest first', response: { status: 200, schema: priceBookItemDetail }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    if (!plausibleId(id)) throw notFound();
    return c.json(await getItem(deps.store.db, c.get('accountId'), id));
  });

  r.put('/items/:id', describe({ tag: TAG, summary: 'Replace an item (send the version you loaded); a new cost or sell price is kept in its history', body: priceBookItemUpdateInput, response: { status: 200, schema: priceBookItemRecord }, errors: [404, 409] }), async (c) => {
    const id = c.req.param('id');
    const { version, ...fields } = await parseBody(c, priceBookItemUpdateInput);
    if (!plausibleId(id)) throw notFound();
    return c.json(await updateItem(deps, c.get('accountId'), id, fields, version));
  });

  r.delete('/items/:id', describe({ tag: TAG, summary: 'Delete an item and its price history', response: { status: 204, description: 'Deleted' }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    if (!plausibleId(id)) throw notFound();
    await deleteItem(deps, c.get('accountId'), id);
    return c.body(null, 204);
  });

  // The two price-list routes take a body of up to MAX_PRICE_LIST_BODY (app.ts), every other route 1 MB.
  r.post('/imports/preview', describe({ tag: TAG, summary: "Preview a supplier's CSV price list: the mapping (given, the supplier's last, or guessed), the first rows, the counts and every refused row", body: priceListPreviewInput, response: { status: 200, schema: priceListPreview }, errors: [413] }), async (c) => {
    const input = await parseBody(c, priceListPreviewInput);
    return c.json(await previewPriceList(deps, c.get('accountId'), input));
  });

  r.post('/imports', describe({ tag: TAG, summary: "Import a supplier's CSV price list: new codes added, known codes updated, each refused row with its reason; the mapping is remembered for the supplier", body: priceListImportInput, response: { status: 200, schema: priceListImportResult }, errors: [413] }), async (c) => {
    const input = await parseBody(c, priceListImportInput);
    return c.json(await importPriceList(deps, c.get('accountId'), input));
  });

  return r;
}
