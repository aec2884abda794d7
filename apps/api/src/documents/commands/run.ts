// The one way a command reaches a quote or invoice. A use case says what to decide; this module
// does the rest the same way every time: one store transaction (retried from a fresh read when a
// concurrent writer got there first), the Idempotency-Key's stored answer in that same commit,
// each document loaded for the account and checked against the version the user saw, decided by
// the domain's documentDecider, appended with the version it was read at. It is the one command
// pipeline (handleCommand.ts) with a document's load and decide: that pipeline settles
// the reactions the events set off (reactions/registry.ts) after the commit, so they are done
// when the answer goes.
import { type DocumentCommand, type DocumentState, type DocumentView, type LocalDate, documentDecider, nzDateOf } from '@tradie/domain';
import type { EventMeta, StoreTx } from '@tradie/store';
import { type Actor, type Loaded, decideAndAppend, eventMeta, expectVersion } from '../../commands.ts';
import { type Answer, type CommandPorts, type CommandRun, handleCommand } from '../../handleCommand.ts';
import { type LoadedDocument, loadDocument } from '../repository.ts';

export type { Answer, CommandPorts, CommandRun, Once } from '../../handleCommand.ts';

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

/** The work of a command inside a transaction already open (a reaction's, say), for the use cases' own steps. */
export function documentWork(tx: StoreTx, ports: Pick<CommandPorts, 'clock'>, actor: Actor): DocumentWork {
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
export function runDocumentCommand<T>(ports: CommandPorts, actor: Actor, run: CommandRun, work: (w: DocumentWork) => Promise<T>): Promise<Answer<T>> {
  return handleCommand(ports, actor, run, (tx) => work(documentWork(tx, ports, actor)));
}
