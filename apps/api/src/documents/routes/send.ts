// Emailing a quote or invoice to the client (commands/send.ts).
import { sendDocumentInput, sendResult } from '@tradie/contracts';
import type { Hono } from 'hono';
import { requireActiveSubscription } from '../../billing/access.ts';
import type { AppDeps } from '../../deps.ts';
import type { AppEnv } from '../../http/env.ts';
import { describe } from '../../openapi/describe.ts';
import { sendDocument } from '../commands/send.ts';
import { documentCommand, TAG } from './http.ts';

export function documentSendRoutes(r: Hono<AppEnv>, deps: AppDeps): void {
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
