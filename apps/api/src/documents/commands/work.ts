// A document command's work inside a transaction already open: load the account's document, decide
// with the domain's documentDecider and append with the version it was read at. run.ts wraps it in
// the one command pipeline; a reaction that already holds a transaction (the Xero pull) uses it as
// it is. It imports nothing that runs commands, so anything may use it without a cycle.
import { type DocumentCommand, type DocumentState, type DocumentView, type LocalDate, documentDecider, nzDateOf } from '@tradie/domain';
import type { EventMeta, StoreTx } from '@tradie/store';
import { type Actor, type Loaded, decideAndAppend, eventMeta, expectVersion } from '../../commands.ts';
import type { AppDeps } from '../../deps.ts';
import { type LoadedDocument, loadDocument } from '../repository.ts';
import { NotFound } from '../../errors.ts';

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
export function documentWork(tx: StoreTx, ports: Pick<AppDeps, 'clock'>, actor: Actor): DocumentWork {
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

/**
 * The quote a stage invoice was invoiced from, when it still has that invoice as a stage; null for
 * any other invoice, or when the quote was deleted since (then it is left alone).
 */
export async function stageQuoteOf(w: DocumentWork, invoice: DocumentView): Promise<LoadedDocument | null> {
  if (invoice.type !== 'invoice' || !invoice.convertedFrom) return null;
  let quote: LoadedDocument;
  try {
    quote = await w.load(invoice.convertedFrom);
  } catch (e) {
    if (e instanceof NotFound) return null;
    throw e;
  }
  return quote.state.stages.some((s) => s.invoiceId === invoice.id) ? quote : null;
}
