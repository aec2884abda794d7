// /api/v1/clients: the client book (docs/api/clients.md). Clients are event-sourced
// (client-{id} streams, decided by the domain's clientDecider); reads come from the `clients`
// read model, which the store updates in the same transaction as the events.
import { clientHistory, clientInput, clientList, clientListQuery, clientRecord, clientUpdateInput, type ClientRecord } from '@tradie/contracts';
import { clientDecider, clientStreamId, nzDateOf } from '@tradie/domain';
import type { StoreTx } from '@tradie/store';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { actorOf, requireAuth } from '../auth/middleware.ts';
import { decideAndAppend, eventMeta, execute, load, loadStream, StaleWriteError } from '../commands.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody, parseQuery } from '../http/body.ts';
import { idempotencyKey, idempotent, requestHash } from '../http/idempotency.ts';
import { ApiError } from '../http/problem.ts';
import { describe } from '../openapi/describe.ts';
import { clientDocuments, clientRecordOf, findClient, listClients } from './repository.ts';
import { plausibleId } from '../http/ids.ts';

export const CLIENT_NOT_FOUND = 'Client not found';
const notFound = (): ApiError => new ApiError(404, CLIENT_NOT_FOUND);

/** Loads a client stream and refuses (404) one that another account owns or that was removed, as if it did not exist. */
async function loadOwnClient(tx: StoreTx, accountId: string, id: string) {
  const loaded = await loadStream(tx, clientStreamId(id), clientDecider, { accountId, notFound: CLIENT_NOT_FOUND });
  if (loaded.state.status !== 'active') throw notFound();
  return loaded;
}


export function clientRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/', describe({ tag: 'Clients', summary: 'The client book, sorted by name', query: clientListQuery, response: { status: 200, schema: clientList } }), async (c) => {
    const query = parseQuery(c, clientListQuery);
    return c.json(await listClients(deps.store.db, c.get('accountId'), query));
  });

  r.post('/', describe({ tag: 'Clients', summary: 'Add a client (GST number / NZBN warnings never block)', body: clientInput, idempotent: true, response: { status: 201, schema: clientRecord } }), async (c) => {
    const fields = await parseBody(c, clientInput);
    const actor = actorOf(c);
    const key = idempotencyKey(c);
    const answer = await execute(deps, (tx) =>
      idempotent<ClientRecord>(tx, { accountId: actor.accountId, scope: 'clients.create', key, hash: requestHash(fields) }, async () => {
        const clientId = deps.ids.uuid();
        const loaded = await load(tx, clientStreamId(clientId), clientDecider);
        const done = await decideAndAppend(tx, loaded, clientDecider, { type: 'AddClient', data: { clientId, fields } }, eventMeta(deps, actor));
        return { status: 201, body: clientRecordOf(clientId, fields, done.version) };
      }),
    );
    if (answer.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(answer.body, answer.status as 201);
  });

  r.get('/:id', describe({ tag: 'Clients', summary: 'One client', response: { status: 200, schema: clientRecord }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    const found = plausibleId(id) ? await findClient(deps.store.db, c.get('accountId'), id) : null;
    if (!found) throw notFound();
    return c.json(found);
  });

  r.put('/:id', describe({ tag: 'Clients', summary: 'Replace a client (send the version you edited)', body: clientUpdateInput, response: { status: 200, schema: clientRecord }, errors: [404, 409] }), async (c) => {
    const id = c.req.param('id');
    const { version, ...fields } = await parseBody(c, clientUpdateInput);
    if (!plausibleId(id)) throw notFound();
    const actor = actorOf(c);
    const record = await execute(deps, async (tx) => {
      const loaded = await loadOwnClient(tx, actor.accountId, id);
      if (version !== undefined && version !== loaded.version) throw new StaleWriteError(loaded.streamId, version, loaded.version);
      const done = await decideAndAppend(tx, loaded, clientDecider, { type: 'UpdateClient', data: { fields } }, eventMeta(deps, actor));
      return clientRecordOf(id, fields, done.version);
    });
    return c.json(record);
  });

  r.delete('/:id', describe({ tag: 'Clients', summary: 'Delete a client (their quotes and invoices keep the name)', response: { status: 204, description: 'Deleted' }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    if (!plausibleId(id)) throw notFound();
    const actor = actorOf(c);
    await execute(deps, async (tx) => {
      const loaded = await loadOwnClient(tx, actor.accountId, id);
      await decideAndAppend(tx, loaded, clientDecider, { type: 'RemoveClient' }, eventMeta(deps, actor));
    });
    return c.body(null, 204);
  });

  // The client's invoice history. A removed client answers 404 here: its quotes and invoices are
  // still listed under Invoices & Quotes with the client's name as it was.
  r.get('/:id/documents', describe({ tag: 'Clients', summary: "A client's quotes and invoices with totals and balance owing", response: { status: 200, schema: clientHistory }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    const accountId = c.get('accountId');
    const client = plausibleId(id) ? await findClient(deps.store.db, accountId, id) : null;
    if (!client) throw notFound();
    const history = await clientDocuments(deps.store.db, accountId, id, nzDateOf(deps.clock.now()));
    return c.json({ client, ...history });
  });

  return r;
}
