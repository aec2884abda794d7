// /api/v1/public: the pages a client opens from a link, without signing in (docs/api/client-links.md).
// Every route starts from the token (resolve.ts: 404 unknown, 410 withdrawn, superseded, expired,
// voided or the business closed its account), is rate-limited per IP (and the answers per link too), sets no cookie, and keeps the
// app's strict CSP. Views are counted only by the page's beacon, never by a GET.
import { CLIENT_LINK_MESSAGES, photoSizeQuery, acceptQuoteInput, acceptVariationInput, declineQuoteInput, declineVariationInput, publicInvoicePage, publicQuotePage, requestChangesInput } from '@tradie/contracts';
import { type Context, Hono } from 'hono';
import { CREDIT_NOTE_NOT_FOUND } from '../creditNotes/commands.ts';
import { creditNotePdfOf } from '../creditNotes/pdf.ts';
import type { AppDeps } from '../deps.ts';
import { pdfFileName, renderPdfFor } from '../documents/pdf.ts';
import { pdfResponse } from '../http/attachment.ts';
import { ApiError } from '../http/problem.ts';
import { readBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { limitBody } from '../http/refusedBodies.ts';
import { describe } from '../openapi/describe.ts';
import { plausibleId } from '../http/ids.ts';
import { clientIp } from '../security/clientIp.ts';
import { type Limit, enforce } from '../security/rateLimit.ts';
import { photoBytes } from '../documents/photos.ts';
import { photoHeaders } from '../documents/routes/photos.ts';
import { parseQuery } from '../http/body.ts';
import { acceptQuote, acceptVariation, declineQuote, declineVariation, requestChanges } from './answers.ts';
import { invoicePageOf, quotePageOf } from './page.ts';
import { certificatesFor } from './pdf.ts';
import { resolveLinkAndDocument } from './resolve.ts';
import { tokenSha256 } from './tokens.ts';
import { countView } from './views.ts';

export const TAG = 'Client links';

/** Reads (pages, PDFs, the beacon) per IP address. */
export const PUBLIC_READS: Limit = { name: 'public-link:ip', max: 120, windowSeconds: 60 };
/** Answers (accept, decline, changes) per IP address, and per link. */
export const PUBLIC_ANSWERS: Limit = { name: 'public-answer:ip', max: 20, windowSeconds: 600 };
export const PUBLIC_ANSWERS_PER_LINK: Limit = { name: 'public-answer:link', max: 10, windowSeconds: 600 };
/** The biggest answer: a signature of at most SIGNATURE_MAX_CHARS plus the rest. */
export const MAX_PUBLIC_BODY = 256 * 1024;

const USER_AGENT_MAX = 500;

export function clientLinkPublicRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const ipOf = (c: Context): string => clientIp(c, deps.config.trustedProxies);
  const seenOf = (c: Context) => ({ ip: ipOf(c), userAgent: (c.req.header('user-agent') ?? '').slice(0, USER_AGENT_MAX) });
  const tooLarge = limitBody(MAX_PUBLIC_BODY, CLIENT_LINK_MESSAGES.signatureTooLarge);

  r.use('*', async (c, next) => {
    await next();
    // The address carries the token: it is not passed on to other sites, and not indexed.
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Robots-Tag', 'noindex, nofollow');
  });
  const reads = async (c: Context, next: () => Promise<void>) => {
    await enforce(deps.store.db, PUBLIC_READS, ipOf(c), deps.clock.now(), CLIENT_LINK_MESSAGES.rateLimited);
    await next();
  };
  const answers = async (c: Context, next: () => Promise<void>) => {
    const now = deps.clock.now();
    await enforce(deps.store.db, PUBLIC_ANSWERS, ipOf(c), now, CLIENT_LINK_MESSAGES.rateLimited);
    await enforce(deps.store.db, PUBLIC_ANSWERS_PER_LINK, tokenSha256(c.req.param('token') ?? '').slice(0, 32), now, CLIENT_LINK_MESSAGES.rateLimited);
    await next();
  };
  const token = (c: Context): string => c.req.param('token') ?? '';
  const errors = [404, 410, 429];

  r.get('/quotes/:token', describe({ tag: TAG, auth: false, summary: "The quote as the client sees it (views are not counted here)", response: { status: 200, schema: publicQuotePage }, errors }), reads, async (c) => {
    const link = await resolveLinkAndDocument(deps, token(c), 'quote');
    return c.json((await quotePageOf(deps, deps.store.db, link.accountId, link.document, token(c))).page);
  });

  r.get(
    '/quotes/:token/pdf',
    describe({ tag: TAG, auth: false, summary: "The quote's PDF, with the acceptance certificate once accepted online", response: { status: 200, contentType: 'application/pdf', description: 'The PDF' }, errors }),
    reads,
    async (c) => pdfAnswer(c, 'quote'),
  );

  r.post('/quotes/:token/accept', describe({ tag: TAG, auth: false, summary: 'Accept the quote (a typed name, the terms, an optional signature)', body: acceptQuoteInput, response: { status: 200, schema: publicQuotePage }, errors: [...errors, 409, 413] }), tooLarge, answers, async (c) =>
    c.json(await acceptQuote(deps, token(c), await readBody(c, acceptQuoteInput), seenOf(c))),
  );

  r.post('/quotes/:token/decline', describe({ tag: TAG, auth: false, summary: 'Decline the quote, with reasons', body: declineQuoteInput, response: { status: 200, schema: publicQuotePage }, errors: [...errors, 409, 413] }), tooLarge, answers, async (c) =>
    c.json(await declineQuote(deps, token(c), await readBody(c, declineQuoteInput, { optional: true }), seenOf(c))),
  );

  r.post('/quotes/:token/changes', describe({ tag: TAG, auth: false, summary: 'Ask for changes to the quote', body: requestChangesInput, response: { status: 200, schema: publicQuotePage }, errors: [...errors, 409, 413] }), tooLarge, answers, async (c) =>
    c.json(await requestChanges(deps, token(c), await readBody(c, requestChangesInput), seenOf(c))),
  );

  const variationId = (c: Context): string => {
    const id = c.req.param('variationId') ?? '';
    if (!plausibleId(id)) throw new ApiError(404, 'Variation not found');
    return id;
  };

  r.post(
    '/quotes/:token/variations/:variationId/accept',
    describe({ tag: TAG, auth: false, summary: 'Approve a variation of the accepted quote (a typed name, an optional signature): it can then be invoiced', body: acceptVariationInput, response: { status: 200, schema: publicQuotePage }, errors: [...errors, 409, 413] }),
    tooLarge,
    answers,
    async (c) => c.json(await acceptVariation(deps, token(c), variationId(c), await readBody(c, acceptVariationInput), seenOf(c))),
  );

  r.post(
    '/quotes/:token/variations/:variationId/decline',
    describe({ tag: TAG, auth: false, summary: 'Decline a variation of the accepted quote', body: declineVariationInput, response: { status: 200, schema: publicQuotePage }, errors: [...errors, 409, 413] }),
    tooLarge,
    answers,
    async (c) => c.json(await declineVariation(deps, token(c), variationId(c), await readBody(c, declineVariationInput, { optional: true }), seenOf(c))),
  );

  r.get('/invoices/:token', describe({ tag: TAG, auth: false, summary: 'The invoice as the client sees it (views are not counted here)', response: { status: 200, schema: publicInvoicePage }, errors }), reads, async (c) => {
    const link = await resolveLinkAndDocument(deps, token(c), 'invoice');
    return c.json(await invoicePageOf(deps, link.accountId, link.document, token(c)));
  });

  r.get(
    '/invoices/:token/pdf',
    describe({ tag: TAG, auth: false, summary: "The invoice's PDF", response: { status: 200, contentType: 'application/pdf', description: 'The PDF' }, errors }),
    reads,
    async (c) => pdfAnswer(c, 'invoice'),
  );

  r.get(
    '/invoices/:token/credit-notes/:creditNoteId/pdf',
    describe({ tag: TAG, auth: false, summary: "One of the invoice's credit notes as a PDF", response: { status: 200, contentType: 'application/pdf', description: 'The PDF' }, errors }),
    reads,
    async (c) => {
      const link = await resolveLinkAndDocument(deps, token(c), 'invoice');
      // Only a credit note of this link's invoice: any other id is not found, whoever's it is.
      const note = link.document.state.creditNotes.find((n) => n.creditNoteId === c.req.param('creditNoteId'));
      if (!note) throw new ApiError(404, CREDIT_NOTE_NOT_FOUND);
      return pdfResponse(c, await creditNotePdfOf(deps, link.accountId, note.creditNoteId), { disposition: 'inline' });
    },
  );

  // The photos on the link's document: only that document's, whoever else's the id is.
  for (const kind of ['quote', 'invoice'] as const) {
    r.get(
      `/${kind}s/:token/photos/:photoId`,
      describe({ tag: TAG, auth: false, summary: `A photo on the ${kind} (JPEG), or its thumbnail with ?size=thumb`, query: photoSizeQuery, response: { status: 200, contentType: 'image/jpeg', description: 'The JPEG' }, errors }),
      reads,
      async (c) => {
        const link = await resolveLinkAndDocument(deps, token(c), kind);
        const size = parseQuery(c, photoSizeQuery).size ?? 'full';
        const bytes = await photoBytes(deps, link.accountId, link.document.state.id, c.req.param('photoId') ?? '', size);
        return c.body(new Uint8Array(bytes), 200, photoHeaders(bytes));
      },
    );
  }

  r.post('/links/:token/viewed', describe({ tag: TAG, auth: false, summary: "The page's beacon: counts a view (at most one per link per 10 minutes)", response: { status: 204, description: 'Counted, or already counted lately' }, errors }), reads, async (c) => {
    const link = await resolveLinkAndDocument(deps, token(c), null);
    await countView(deps.store.db, link.accountId, link.linkId, deps.clock.now());
    return c.body(null, 204);
  });

  async function pdfAnswer(c: Context, kind: 'quote' | 'invoice'): Promise<Response> {
    const link = await resolveLinkAndDocument(deps, token(c), kind);
    const d = link.document.state;
    const [acceptance, variations] = kind === 'quote' ? await certificatesFor(deps.store.db, link.accountId, d) : [null, []];
    const pdf = await renderPdfFor(deps, link.accountId, d, acceptance, variations);
    return pdfResponse(c, { bytes: pdf.bytes, filename: pdfFileName(d) }, { disposition: 'inline' });
  }

  return r;
}
