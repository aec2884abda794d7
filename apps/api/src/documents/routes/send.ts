// Emailing a quote or invoice to the client (commands/send.ts).
import { sendDocumentInput, sendPreview, sendResult } from '@tradie/contracts';
import type { Hono } from 'hono';
import { requireActiveSubscription } from '../../billing/access.ts';
import type { AppDeps } from '../../deps.ts';
import type { AppEnv } from '../../http/env.ts';
import { describe } from '../../openapi/describe.ts';
import { sendDocument } from '../commands/send.ts';
import { sendDraftOf } from '../email.ts';
import { loadDocument, userNames } from '../repository.ts';
import { loadBusinessSettings } from '../../settings/repository.ts';
import { documentCommand, TAG } from './http.ts';

export function documentSendRoutes(r: Hono<AppEnv>, deps: AppDeps): void {
  r.get(
    '/:id/send-preview',
    describe({ tag: TAG, summary: 'The email a send would make with no changes (to, cc, bcc, subject, message), for the Send sheet', response: { status: 200, schema: sendPreview }, errors: [404] }),
    async (c) => {
      const accountId = c.get('accountId');
      const { state } = await loadDocument(deps.store, accountId, c.req.param('id'));
      const [settings, user] = await Promise.all([loadBusinessSettings(deps.store.db, accountId), userNames(deps.store.db, c.get('userId'))]);
      return c.json(sendDraftOf({ document: state, settings, user }));
    },
  );

  r.post(
    '/:id/send',
    describe({
      tag: TAG,
      summary: 'Email it to the client with the PDF attached (403 `email_unconfirmed` until the email address is confirmed; 429 over the daily recipients or 30 sends in 10 minutes)',
      body: sendDocumentInput,
      idempotent: true,
      response: { status: 200, schema: sendResult },
      errors: [402, 403, 404, 409, 429, 503],
    }),
    // Sending is new work: an expired trial is refused (routes/commands.ts).
    requireActiveSubscription(deps),
    documentCommand(deps, sendDocumentInput, sendDocument, { optional: true }),
  );
}
