// /api/v1/invoices: quotes and invoices (docs/api/documents.md). Every route is signed in and
// scoped to the account; another account's document is 404 on every verb. The reads are here: the
// list and counts from documents_list, one document from its stream. Each command's route
// (routes/*.ts) parses the request, calls one use case (commands/*.ts) and answers what it returns.
import { documentCounts, documentDetail, documentListRecord, LIST_LIMITS, listDocumentsQuery, NEXT_CURSOR_HEADER, TOTAL_COUNT_HEADER } from '@tradie/contracts';
import { type LocalDate, nzDateOf } from '@tradie/domain';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { parseQuery } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { describe } from '../openapi/describe.ts';
import { countDocuments, listDocuments } from './queries.ts';
import { loadDocument } from './repository.ts';
import { documentCommandRoutes } from './routes/commands.ts';
import { TAG } from './routes/http.ts';
import { documentPaymentRoutes } from './routes/payments.ts';
import { documentPdfRoutes } from './routes/pdf.ts';
import { documentPhotoRoutes } from './routes/photos.ts';
import { documentPriceBookRoutes } from './routes/priceBookMoves.ts';
import { documentSendRoutes } from './routes/send.ts';
import { documentVariationRoutes } from './routes/variations.ts';
import { detailOf } from './view.ts';
import { gstNoticeOf } from '../reports/gstExports.ts';

export function documentRoutes(deps: AppDeps): Hono<AppEnv> {
  // Signed in once for all of /invoices (routes/index.ts).
  const r = new Hono<AppEnv>();
  const today = (): LocalDate => nzDateOf(deps.clock.now());

  r.get(
    '/',
    describe({ tag: TAG, summary: 'List, newest first (X-Next-Cursor, X-Total-Count headers)', query: listDocumentsQuery, response: { status: 200, schema: z.array(documentListRecord) } }),
    async (c) => {
      const q = parseQuery(c, listDocumentsQuery);
      const page = await listDocuments(
        deps.store.db,
        c.get('accountId'),
        { type: q.type, status: q.status, client_id: q.client_id, q: q.q, from: q.from, to: q.to, limit: q.limit ?? LIST_LIMITS.default, cursor: q.cursor },
        today(),
      );
      c.header(TOTAL_COUNT_HEADER, String(page.total));
      if (page.nextCursor) c.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return c.json(page.records);
    },
  );

  // Before '/:id', which would otherwise take "counts" for an id.
  r.get('/counts', describe({ tag: TAG, summary: 'Tab counts', response: { status: 200, schema: documentCounts } }), async (c) =>
    c.json(await countDocuments(deps.store.db, c.get('accountId'))),
  );

  r.get('/:id', describe({ tag: TAG, summary: 'One document with lines, totals, payments and balance', response: { status: 200, schema: documentDetail }, errors: [404] }), async (c) => {
    const loaded = await loadDocument(deps.store, c.get('accountId'), c.req.param('id'));
    return c.json(detailOf(loaded.state, loaded.version, today(), await gstNoticeOf(deps.store.db, c.get('accountId'), loaded.state)));
  });

  // In the order the API reference lists them.
  documentCommandRoutes(r, deps);
  documentPdfRoutes(r, deps);
  documentPhotoRoutes(r, deps);
  documentSendRoutes(r, deps);
  documentVariationRoutes(r, deps);
  documentPaymentRoutes(r, deps);
  documentPriceBookRoutes(r, deps);
  return r;
}
