// /api/v1/clients: the client book (docs/api/clients.md). Clients are event-sourced
// (client-{id} streams, decided by the domain's clientDecider in the use cases of commands.ts);
// reads come from the `clients` read model, which the store updates in the same transaction as
// the events.
import { clientHistory, clientInput, clientList, clientListQuery, clientRecord, clientUpdateInput } from '@tradie/contracts';
import { nzDateOf } from '@tradie/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { actorOf, requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody, parseQuery } from '../http/body.ts';
import { idempotencyKey } from '../http/idempotency.ts';
import { describe } from '../openapi/describe.ts';
import { addClient, clientNotFound, removeClient, updateClient } from './commands.ts';
import { clientDocuments, findClient, listClients } from '@tradie/projections';
import { plausibleId } from '../http/ids.ts';

export function clientRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/', describe({ tag: 'Clients', summary: 'The client book, sorted by name', query: clientListQuery, response: { status: 200, schema: clientList } }), async (c) => {
    const query = parseQuery(c, clientListQuery);
    return c.json(await listClients(deps.store.db, c.get('accountId'), query));
  });

  r.post('/', describe({ tag: 'Clients', summary: 'Add a client (GST number / NZBN warnings never block)', body: clientInput, idempotent: true, response: { status: 201, schema: clientRecord } }), async (c) => {
    const fields = await parseBody(c, clientInput);
    const answer = await addClient(deps, actorOf(c), fields, idempotencyKey(c));
    if (answer.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(answer.body, answer.status as 201);
  });

  r.get('/:id', describe({ tag: 'Clients', summary: 'One client', response: { status: 200, schema: clientRecord }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    const found = plausibleId(id) ? await findClient(deps.store.db, c.get('accountId'), id) : null;
    if (!found) throw clientNotFound();
    return c.json(found);
  });

  r.put('/:id', describe({ tag: 'Clients', summary: 'Replace a client (send the version you edited)', body: clientUpdateInput, response: { status: 200, schema: clientRecord }, errors: [404, 409] }), async (c) => {
    const id = c.req.param('id');
    const input = await parseBody(c, clientUpdateInput);
    const record = await updateClient(deps, actorOf(c), id, input);
    return c.json(record);
  });

  r.delete('/:id', describe({ tag: 'Clients', summary: 'Delete a client (their quotes and invoices keep the name)', response: { status: 204, description: 'Deleted' }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    await removeClient(deps, actorOf(c), id);
    return c.body(null, 204);
  });

  // The client's invoice history. A removed client answers 404 here: its quotes and invoices are
  // still listed under Invoices & Quotes with the client's name as it was.
  r.get('/:id/documents', describe({ tag: 'Clients', summary: "A client's quotes and invoices with totals and balance owing", response: { status: 200, schema: clientHistory }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    const accountId = c.get('accountId');
    const client = plausibleId(id) ? await findClient(deps.store.db, accountId, id) : null;
    if (!client) throw clientNotFound();
    const history = await clientDocuments(deps.store.db, accountId, id, nzDateOf(deps.clock.now()));
    return c.json({ client, ...history });
  });

  return r;
}
