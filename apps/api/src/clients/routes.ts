// /api/v1/clients: the client book (docs/api/clients.md). Clients are event-sourced
// (client-{id} streams, decided by the domain's clientDecider); reads come from the `clients`
// read model, which the store updates in the same transaction as the events.
import { clientInput, clientListQuery, clientUpdateInput, type ClientRecord } from '@tradie/contracts';
import { clientDecider, clientStreamId, nzDateOf } from '@tradie/domain';
import type { StoreTx } from '@tradie/store';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { actorOf, requireAuth } from '../auth/middleware.ts';
import { decideAndAppend, eventMeta, execute, load, StaleWriteError } from '../commands.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody, parseQuery } from '../http/body.ts';
import { idempotencyKey, idempotent, requestHash } from '../http/idempotency.ts';
import { ApiError } from '../http/problem.ts';
import { clientDocuments, clientRecordOf, findClient, listClients } from './repository.ts';
import { plausibleId } from '../http/ids.ts';

export const CLIENT_NOT_FOUND = 'Client not found';
const notFound = (): ApiError => new ApiError(404, CLIENT_NOT_FOUND);

/** Loads a client stream and refuses (404) one that another account owns, as if it did not exist. */
async function loadOwnClient(tx: StoreTx, accountId: string, id: string) {
  const loaded = await load(tx, clientStreamId(id), clientDecider);
  const owner = loaded.events[0]?.meta.accountId;
  if (owner !== accountId || loaded.state.status !== 'active') throw notFound();
  return loaded;
}


export function clientRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/', async (c) => {
    const query = parseQuery(c, clientListQuery);
    return c.json(await listClients(deps.store.db, c.get('accountId'), query));
  });

  r.post('/', async (c) => {
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

  r.get('/:id', async (c) => {
    const id = c.req.param('id');
    const found = plausibleId(id) ? await findClient(deps.store.db, c.get('accountId'), id) : null;
    if (!found) throw notFound();
    return c.json(found);
  });

  r.put('/:id', async (c) => {
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

  r.delete('/:id', async (c) => {
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
  r.get('/:id/documents', async (c) => {
    const id = c.req.param('id');
    const accountId = c.get('accountId');
    const client = plausibleId(id) ? await findClient(deps.store.db, accountId, id) : null;
    if (!client) throw notFound();
    const history = await clientDocuments(deps.store.db, accountId, id, nzDateOf(deps.clock.now()));
    return c.json({ client, ...history });
  });

  return r;
}
