// /api/v1/templates: the account's saved quote and invoice templates (docs/api/templates.md).
// Thin: the body is checked by the contract, the work is in commands.ts.
//
//   GET    /       every template of the account, oldest first
//   POST   /       save a new one (at most 100 per account)
//   PUT    /{id}   replace one (send the version it was loaded at: 409 when it changed since)
//   DELETE /{id}   delete one
import { templateInput, templateList, templateRecord, templateUpdateInput } from '@tradie/contracts';
import { Hono } from 'hono';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import type { AppEnv } from '../http/env.ts';
import { parseBody } from '../http/body.ts';
import { plausibleId } from '../http/ids.ts';
import { describe } from '../openapi/describe.ts';
import { createTemplate, deleteTemplate, listTemplates, templateNotFound, updateTemplate } from './commands.ts';

const TAG = 'Templates';

export function templateRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/', describe({ tag: TAG, summary: "The account's templates, oldest first", response: { status: 200, schema: templateList } }), async (c) =>
    c.json({ items: await listTemplates(deps.store.db, c.get('accountId')) }),
  );

  r.post('/', describe({ tag: TAG, summary: 'Save a template (at most 100 per account, 200 lines each)', body: templateInput, response: { status: 201, schema: templateRecord } }), async (c) => {
    const fields = await parseBody(c, templateInput);
    return c.json(await createTemplate(deps, c.get('accountId'), fields), 201);
  });

  r.put('/:id', describe({ tag: TAG, summary: 'Replace a template (send the version you loaded)', body: templateUpdateInput, response: { status: 200, schema: templateRecord }, errors: [404, 409] }), async (c) => {
    const id = c.req.param('id');
    const { version, ...fields } = await parseBody(c, templateUpdateInput);
    if (!plausibleId(id)) throw templateNotFound();
    return c.json(await updateTemplate(deps, c.get('accountId'), id, fields, version));
  });

  r.delete('/:id', describe({ tag: TAG, summary: 'Delete a template', response: { status: 204, description: 'Deleted' }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    if (!plausibleId(id)) throw templateNotFound();
    await deleteTemplate(deps.store.db, c.get('accountId'), id);
    return c.body(null, 204);
  });

  return r;
}
