// The tradie's side of client links, under /api/v1/invoices (signed in, scoped to the account):
// the document's active link (copy it again, or make one), withdrawing it, and the timeline of
// what happened to the document, its link's views included.
import { clientLinkRecord, documentTimeline } from '@tradie/contracts';
import { Hono } from 'hono';
import { actorOf } from '../auth/middleware.ts';
import { requireActiveSubscription } from '../billing/access.ts';
import type { AppDeps } from '../deps.ts';
import { loadDocument } from '../documents/repository.ts';
import { documentIdOf, reply } from '../documents/routes/http.ts';
import type { AppEnv } from '../http/env.ts';
import { describe } from '../openapi/describe.ts';
import { getLink, issueLink, withdrawLink } from './links.ts';
import { TAG } from './publicRoutes.ts';
import { timelineOf } from './timeline.ts';

/** Under /invoices, which is signed in once for all its parts (routes/index.ts). */
export function clientLinkRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/:id/link', describe({ tag: TAG, summary: "The document's active client link (404 when none is active)", response: { status: 200, schema: clientLinkRecord }, errors: [404] }), async (c) => {
    const loaded = await loadDocument(deps.store, c.get('accountId'), documentIdOf(c));
    return c.json(await getLink(deps, c.get('accountId'), loaded.state));
  });

  r.post(
    '/:id/link',
    describe({ tag: TAG, summary: 'The active client link, made now when there is none', response: { status: 200, schema: clientLinkRecord }, errors: [402, 404, 409] }),
    requireActiveSubscription(deps),
    async (c) => reply(c, await issueLink(deps, actorOf(c), documentIdOf(c))),
  );

  r.delete('/:id/link', describe({ tag: TAG, summary: 'Withdraw the active client link (the client then reads that it was withdrawn)', response: { status: 204, description: 'Withdrawn' }, errors: [404] }), async (c) => {
    await withdrawLink(deps, actorOf(c), documentIdOf(c));
    return c.body(null, 204);
  });

  r.get('/:id/timeline', describe({ tag: TAG, summary: 'What happened to the document, oldest first', response: { status: 200, schema: documentTimeline }, errors: [404] }), async (c) => {
    const loaded = await loadDocument(deps.store, c.get('accountId'), documentIdOf(c));
    return c.json(await timelineOf(deps.store.db, c.get('accountId'), loaded));
  });

  return r;
}
