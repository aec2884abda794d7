// The Hono app, built from its ports (deps.ts). One sub-app per resource under /api/v1, one
// error handler, security headers, a body-size limit, and the built web app for everything else.
import { MAX_PHOTO_BYTES, PHOTO_MESSAGES } from './documents/photos.ts';
import { MAX_RECEIPT_BYTES, RECEIPT_MESSAGES } from './costs/receipts.ts';
import { API_PREFIX, PRICE_BOOK_MESSAGES } from '@tradie/contracts';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { z } from 'zod';
import type { AppDeps } from './deps.ts';
import type { AppEnv } from './http/env.ts';
import { toResponse } from './http/problem.ts';
import { limitBody, lingerOnUnreadBodies } from './http/refusedBodies.ts';
import { createStaticHandler } from './http/static.ts';
import { describe } from './openapi/describe.ts';
import { openApiDocument } from './openapi/document.ts';
import { operationsOf } from './openapi/operationsOf.ts';
import { featureRoutes } from './routes/index.ts';

/** JSON bodies are small; the logo upload and a supplier's price list have their own, larger limits. */
export const MAX_JSON_BODY = 1024 * 1024;
/** A 2 MB logo plus its multipart envelope. */
export const MAX_UPLOAD_BODY = 2 * 1024 * 1024 + 64 * 1024;
/** A supplier's price list: its CSV text (at most 5,000,000 characters) in JSON, with room for the escapes. */
export const MAX_PRICE_LIST_BODY = 6 * 1024 * 1024;
const PRICE_LIST_PATH = /\/price-book\/imports(\/preview)?$/;
const RECEIPT_PATH = /\/costs\/[^/]+\/receipt$/;
// A photo added to a quote or invoice: the same 10 MB as a receipt.
const PHOTO_PATH = /\/invoices\/[^/]+\/photos$/;

export type { AppEnv } from './http/env.ts';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  // A request answered before its body was read in full (413 on an oversized upload, 401 on a
  // large one without a token): the rest of the body is read and thrown away (within bounds)
  // before the answer goes, so every client reads the answer, and the connection stays usable.
  app.use(lingerOnUnreadBodies());
  // gzip for pages, scripts and JSON: it matters most on a weak mobile signal.
  app.use(compress({ encoding: 'gzip' }));
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      // The Xero sign-in window is cross-origin: the opener must keep its handle to watch it close.
      crossOriginOpenerPolicy: 'same-origin-allow-popups',
      crossOriginEmbedderPolicy: false,
      referrerPolicy: 'strict-origin-when-cross-origin',
      xFrameOptions: 'DENY',
      // A route that sets its own header keeps it (the served logo has a stricter CSP).
      overwrite: false,
    }),
  );
  app.onError((err, c) => toResponse(c, err, deps.log));

  app.route(API_PREFIX, apiRoutes(deps));

  const web = createStaticHandler(deps.config.webDist);
  app.get('*', (c) => web(c));
  app.notFound((c) => c.json({ detail: 'Not found' }, 404));
  return app;
}

/**
 * /api/v1: no caching, the body-size limits, this API's description and health check, every
 * feature's routes, and a JSON 404 for the rest. Every route describes itself (openapi/describe.ts).
 */
export function apiRoutes(deps: AppDeps): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  api.use(async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  const tooLarge = limitBody(MAX_JSON_BODY, 'The request is too large.');
  const uploadLimit = limitBody(MAX_UPLOAD_BODY, 'Logo must be less than 2MB');
  const priceListLimit = limitBody(MAX_PRICE_LIST_BODY, PRICE_BOOK_MESSAGES.csvTooLarge);
  // A receipt's photo or PDF: 10 MB and the multipart envelope.
  const receiptLimit = limitBody(MAX_RECEIPT_BYTES + 64 * 1024, RECEIPT_MESSAGES.tooLarge);
  const photoLimit = limitBody(MAX_PHOTO_BYTES + 64 * 1024, PHOTO_MESSAGES.tooLarge);
  api.use((c, next) =>
    c.req.path.endsWith('/business-settings/logo')
      ? uploadLimit(c, next)
      : PRICE_LIST_PATH.test(c.req.path)
        ? priceListLimit(c, next)
        : RECEIPT_PATH.test(c.req.path)
          ? receiptLimit(c, next)
          : PHOTO_PATH.test(c.req.path)
            ? photoLimit(c, next)
            : tooLarge(c, next),
  );
  let openApi: Record<string, unknown> | undefined;
  api.get(
    '/openapi.json',
    describe({ tag: 'System', summary: 'This API description (OpenAPI 3.1)', auth: false, response: { status: 200, schema: z.object({}).passthrough() } }),
    (c) => c.json((openApi ??= openApiDocument(operationsOf(api)))),
  );
  api.get(
    '/health',
    describe({ tag: 'System', summary: 'Health check', auth: false, response: { status: 200, schema: z.object({ status: z.literal('ok') }) }, errors: [503] }),
    async (c) => {
      await deps.store.db.query('select 1');
      return c.json({ status: 'ok' });
    },
  );
  for (const [path, routes] of featureRoutes(deps)) api.route(path, routes);
  api.all('*', (c) => c.json({ detail: `No such API route: ${c.req.method} ${c.req.path}` }, 404));
  return api;
}
