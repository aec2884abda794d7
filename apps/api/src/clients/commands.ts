// The client book's commands: add, update and remove a client. Each runs through the one command
// pipeline (handleCommand.ts): loads the client-{id} stream with the one loader, decides
// with the domain's clientDecider and appends with the version it was read at, in one store
// command (the `clients` read model is updated in the same commit). Adding keeps its
// Idempotency-Key's answer in that commit too. The routes
// (routes.ts) parse the request, call one of these and answer.
import type { ClientRecord, clientInput, clientUpdateInput } from '@tradie/contracts';
import { clientDecider, clientStreamId } from '@tradie/domain';
import type { StoreTx } from '@tradie/store';
import type { z } from 'zod';
import { type Actor, decideAndAppend, eventMeta, expectVersion, loadStream } from '../commands.ts';
import { type Answer, type CommandPorts, handleCommand } from '../handleCommand.ts';
import { plausibleId } from '../http/ids.ts';
import { clientRecordOf } from '@tradie/projections';
import type { AppError} from '../errors.ts';
import { NotFound } from '../errors.ts';

export const CLIENT_NOT_FOUND = 'Client not found';
export const clientNotFound = (): AppError => new NotFound(CLIENT_NOT_FOUND);

/** What the client commands are built from. */
export type ClientPorts = CommandPorts;

/** Loads a client stream and refuses (404) one that another account owns or that was removed, as if it did not exist. */
async function loadOwnClient(tx: StoreTx, accountId: string, id: string) {
  const loaded = await loadStream(tx, clientStreamId(id), clientDecider, { accountId, notFound: CLIENT_NOT_FOUND });
  if (loaded.state.status !== 'active') throw clientNotFound();
  return loaded;
}

export type AddClient = z.output<typeof clientInput>;

/** A new client (201); a repeat of the request with the same Idempotency-Key replays the first answer. */
export function addClient(ports: ClientPorts, actor: Actor, fields: AddClient, key: string | undefined): Promise<Answer<ClientRecord>> {
  return handleCommand(ports, actor, { status: 201, once: { scope: 'clients.create', key, request: fields } }, async (tx) => {
    const clientId = ports.ids.uuid();
    const loaded = await loadStream(tx, clientStreamId(clientId), clientDecider);
    const done = await decideAndAppend(tx, loaded, clientDecider, { type: 'AddClient', data: { clientId, fields } }, eventMeta(ports, actor));
    return clientRecordOf(clientId, fields, done.version);
  });
}

export type UpdateClient = z.output<typeof clientUpdateInput>;

/** Replaces the client's fields; `version` is the one the form was loaded at (another is 409, never retried). */
export async function updateClient(ports: ClientPorts, actor: Actor, id: string, input: UpdateClient): Promise<ClientRecord> {
  const { version, ...fields } = input;
  if (!plausibleId(id)) throw clientNotFound();
  const answer = await handleCommand(ports, actor, {}, async (tx) => {
    const loaded = await loadOwnClient(tx, actor.accountId, id);
    expectVersion(loaded, version);
    const done = await decideAndAppend(tx, loaded, clientDecider, { type: 'UpdateClient', data: { fields } }, eventMeta(ports, actor));
    return clientRecordOf(id, fields, done.version);
  });
  return answer.body;
}

/** Removes the client from the book; their quotes and invoices keep the name they were given. */
export async function removeClient(ports: ClientPorts, actor: Actor, id: string): Promise<void> {
  if (!plausibleId(id)) throw clientNotFound();
  await handleCommand(ports, actor, {}, async (tx) => {
    const loaded = await loadOwnClient(tx, actor.accountId, id);
    await decideAndAppend(tx, loaded, clientDecider, { type: 'RemoveClient' }, eventMeta(ports, actor));
  });
}
