// Admission to the postgres.js pool: at most as many pieces of work at once (a query, or a whole
// transaction) as the pool has connections, the rest waiting their turn here, first come first
// served.
//
// Why: when every connection is busy, postgres.js 3.4.9 does not queue a query; it writes it to a
// busy connection behind the query already running there (pipelining). A connection that is
// carrying a transaction can still be in its busy list (its BEGIN went out on a connection that
// was open), so a report's read could be queued behind a payment's statement that waits on a row
// lock, and get no answer until that lock was released; or run inside someone else's
// transaction. Held to the pool's size, every piece of work finds an open (or not yet connected)
// connection of its own, and nothing is pipelined. Found by the reports test on two API
// processes, once the GST report made more reads at once.
//
// A query made from inside a transaction's callback on the pool (not on the transaction) is let
// through without waiting: its transaction holds a place already, and waiting for another could
// leave every place held by a transaction waiting for one (a deadlock).
import { AsyncLocalStorage } from 'node:async_hooks';

export interface PoolGate {
  /** Runs `work` when a place is free; its place is given back when it settles. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Runs a transaction's `work` in a place, marking its async context as inside one. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Work running and waiting now (for tests). */
  readonly load: { running: number; waiting: number };
}

export function poolGate(size: number): PoolGate {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a pool gate needs a whole number of places, not ${size}`);
  const inside = new AsyncLocalStorage<true>();
  const waiting: (() => void)[] = [];
  let running = 0;

  const enter = (): Promise<void> | void => {
    if (running < size) {
      running += 1;
      return;
    }
    // The place is handed over by the one leaving (running stays the same).
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const leave = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  const admitted = async <T>(work: () => Promise<T>): Promise<T> => {
    await enter();
    try {
      return await work();
    } finally {
      leave();
    }
  };

  return {
    run: (work) => (inside.getStore() ? work() : admitted(work)),
    transaction: (work) => (inside.getStore() ? work() : admitted(() => inside.run(true, work))),
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}
