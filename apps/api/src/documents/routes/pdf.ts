// A document's PDF: rendered and its hash recorded on request, and downloaded (inline, or as an
// attachment with ?download=1) with its reference as the file name.
import { generatePdfResult } from '@tradie/contracts';
import type { Hono } from 'hono';
import { actorOf } from '../../auth/middleware.ts';
import type { AppDeps } from '../../deps.ts';
import { pdfResponse } from '../../http/attachment.ts';
import type { AppEnv } from '../../http/env.ts';
import { describe } from '../../openapi/describe.ts';
import { generatePdf } from '../commands/pdf.ts';
import { pdfFileOf } from '../pdf.ts';
import { reply, TAG } from './http.ts';

export function documentPdfRoutes(r: Hono<AppEnv>, deps: AppDeps): void {
  r.post('/:id/generate-pdf', describe({ tag: TAG, summary: 'Render the PDF and record its hash', response: { status: 200, schema: generatePdfResult }, errors: [404] }), async (c) =>
    reply(c, await generatePdf(deps, actorOf(c), c.req.param('id'))),
  );

  r.get(
    '/:id/pdf',
    describe({ tag: TAG, summary: 'The PDF', response: { status: 200, contentType: 'application/pdf', description: 'The PDF, named by its reference' }, errors: [404] }),
    async (c) => {
      const pdf = await pdfFileOf(deps, c.get('accountId'), c.req.param('id'));
      return pdfResponse(c, pdf, { etag: pdf.sha256 });
    },
  );
}
