// The one way a command reaches a quote or invoice. A use case says what to decide; this module
// does the rest the same way every time: one store transaction (retried from a fresh read when a
// concurrent writer got there first), the Idempotency-Key's stored answer in that same commit,
// each document loaded for the account and checked against the version the user saw, decided by
// the domain's documentDecider, appended with the version it was read at, and — after the
// commit — the reactions its events set off (reactions/registry.ts), so they are done when the
// answer goes.
import { type DocumentCommand, type DocumentState, type DocumentView, type LocalDate, documentDecider, documentStreamId, nzDateOf } from '@tradie/domain';
import type { EventMeta, StoreTx } from '@tradie/store';
import { type Actor, type Loaded, decideAndAppend, eventMeta, execute, expectVersion } from '../../commands.ts';
import { idempotent, requestHash, type StoredAnswer } from '../../http/idempotency.ts';
import { settleReactions } from '../../reactions/outbox.ts';
import type { ReactionDeps } from '../../reactions/registry.ts';
import { type LoadedDocument, loadDocument } from '../repository.ts';

/** What a document command and the reactions it sets off are built from. */
export type CommandPorts = ReactionDeps;

/**
 * A command's answer. `status` is 201 when it made a new document or payment; it is stored with
 * the Idempotency-Key and `replayed` says this is that stored answer, nothing done again.
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
  /** The document whose reactions are settled after the commit, for commands whose events set some off. */
  settle?: string;
}

/** A document after a command: its new state and stream version. */
export interface Decided {
  view: DocumentView;
  version: number;
}

/** What a use case works with inside the command's transaction. */
export interface DocumentWork {
  readonly tx: StoreTx;
  /** Today in New Zealand: the day a new document is dated, and what its status is read against. */
  today(): LocalDate;
  /** Who appends, and when. */
  meta(): EventMeta;
  /** The account's document, every event checked; 404 for another account's, a deleted one or none. */
  load(id: string): Promise<LoadedDocument>;
  /**
   * Decides `command` on the document (loaded now when given its id) and appends the events with
   * the version it was read at. `expectedVersion` is the version the user saw: another is 409,
   * never retried. `meta` shares one moment between the appends of one command.
   */
  decide(
    on: string | Loaded<DocumentState>,
    command: DocumentCommand | ((d: DocumentView) => DocumentCommand | Promise<DocumentCommand>),
    options?: { expectedVersion?: number | undefined; meta?: EventMeta },
  ): Promise<Decided>;
}

const HOUR_MS = 3_600_000;
let dayOfHour: { hour: number; day: LocalDate } | null = null;

/**
 * The New Zealand day of an instant, asked of Intl once per UTC hour (a command asks for today,
 * and Intl's time-zone lookup is the costly part of a small command). New Zealand's offsets are
 * whole hours (+12, +13), so its days begin on a UTC hour: every instant of one hour has one day.
 */
export function nzToday(now: Date): LocalDate {
  const hour = Math.floor(now.getTime() / HOUR_MS);
  if (dayOfHour?.hour !== hour) dayOfHour = { hour, day: nzDateOf(new Date(hour * HOUR_MS)) };
  return dayOfHour.day;
}

function live(state: DocumentState): DocumentView {
  if (state.status === 'none' || state.status === 'deleted') throw new Error('A command built from the document needs a live document');
  return state;
}

function documentWork(tx: StoreTx, ports: Pick<CommandPorts, 'clock'>, actor: Actor): DocumentWork {
  const w: DocumentWork = {
    tx,
    today: () => nzToday(ports.clock.now()),
    meta: () => eventMeta(ports, actor),
    load: (id) => loadDocument(tx, actor.accountId, id),
    async decide(on, command, options = {}) {
      const loaded = typeof on === 'string' ? await w.load(on) : on;
      expectVersion(loaded, options.expectedVersion);
      const c = typeof command === 'function' ? await command(live(loaded.state)) : command;
      const r = await decideAndAppend(tx, loaded, documentDecider, c, options.meta ?? w.meta());
      // Only a stream with no events is 'none'; after a decided command there is at least the draft.
      return { view: r.state as DocumentView, version: r.version };
    },
  };
  return w;
}

/** Runs a document command's `work` in one transaction, as described at the top of this module. */
export async function runDocumentCommand<T>(ports: CommandPorts, actor: Actor, run: CommandRun, work: (w: DocumentWork) => Promise<T>): Promise<Answer<T>> {
  const status = run.status ?? 200;
  const answer = await execute(ports, async (tx) => {
    const w = documentWork(tx, ports, actor);
    if (!run.once) return { status, body: await work(w), replayed: false };
    const claim = { accountId: actor.accountId, scope: run.once.scope, key: run.once.key, hash: requestHash(run.once.request) };
    return idempotent(tx, claim, async () => ({ status, body: await work(w) }));
  });
  if (run.settle !== undefined) await settleReactions(ports, actor.accountId, documentStreamId(run.settle));
  return answer;
}
