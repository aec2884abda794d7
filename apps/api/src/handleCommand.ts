// The one command pipeline: every use case, reaction and job that changes a stream runs through
// handleCommand (documents through runDocumentCommand, which is this with a document's load and
// decide). Kept apart from commands.ts (the loader, the decide-and-append and the retrying store
// unit it is built from) because it reaches the outbox, whose registry imports use cases that
// import commands.ts.
import type { StoreTx } from '@tradie/store';
import { type Actor, appendedStreams, execute } from './commands.ts';
import { idempotent, requestHash, type StoredAnswer } from './http/idempotency.ts';
import { setsOffReactions, settleReactions } from './reactions/outbox.ts';
import type { ReactionDeps } from './reactions/registry.ts';

/** What a command and the reactions it sets off are built from. */
export type CommandPorts = ReactionDeps;

/**
 * A command's answer. `status` is 201 when it made something new; it is stored with the
 * Idempotency-Key and `replayed` says this is that stored answer, nothing done again.
 */
export type Answer<T> = StoredAnswer<T>;

/** A request's Idempotency-Key (http/idempotency.ts): a repeat of the same request replays the first answer. */
export interface Once {
  /** The operation the key is for; a key is unique per account and scope. */
  scope: string;
  key: string | undefined;
  /** The request as validated: the same key with a different request is refused (422). */
  request: unknown;
}

export interface CommandRun {
  /** 201 for a command that makes something new; 200 by default. */
  status?: 200 | 201;
  once?: Once;
}

/**
 * The one command pipeline. Runs `work` as one store command (`execute`: retried from a fresh
 * read when a concurrent writer got there first) with the Idempotency-Key's claim and answer in
 * the same commit; `work` loads its streams with the one loader (loadStream, or the documents'
 * loadDocument built on it), decides with a domain decider and appends through decideAndAppend.
 * After the commit it settles the reactions of every stream the command appended an event to
 * that sets one off — the streams the append's outbox rows name — so what a reaction does (Xero
 * brought up to date, a client told) is done before the answer goes. A use case never opts in:
 * a new reaction on an existing event is settled by every command that appends the event.
 */
export async function handleCommand<T>(ports: CommandPorts, actor: Actor, run: CommandRun, work: (tx: StoreTx) => Promise<T>): Promise<Answer<T>> {
  const status = run.status ?? 200;
  let last: StoreTx | undefined;
  const answer = await execute(ports, async (tx) => {
    last = tx;
    if (!run.once) return { status, body: await work(tx), replayed: false };
    const claim = { accountId: actor.accountId, scope: run.once.scope, key: run.once.key, hash: requestHash(run.once.request) };
    return idempotent(tx, claim, async () => ({ status, body: await work(tx) }));
  });
  if (last) {
    for (const [streamId, types] of appendedStreams(last)) {
      if ([...types].some(setsOffReactions)) await settleReactions(ports, actor.accountId, streamId);
    }
  }
  return answer;
}
