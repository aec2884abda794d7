/**
 * Receipt photos that upload when they can. Saving a cost never waits for its photo: the cost (a few
 * hundred bytes) is saved, the form closes, and the photo is handed to this queue, which keeps it in
 * IndexedDB (so a reload, a closed tab or a phone that kills the browser loses nothing) and uploads it
 * in the background — at once, again after 5 s, 15 s, 30 s, then every minute, and as soon as the
 * browser says it is back online. Photos go one at a time, in the order they were taken: a week's
 * backlog on a weak signal never competes with itself, and the server (which keeps only a couple of
 * one account's uploads at once) is never asked for more. A photo the server refuses (not a photo,
 * too big) is not retried: the screen says why. The Costs screen shows each waiting photo ('Photo waiting to upload').
 */
export type UploadState = { costId: string; name: string; status: 'waiting' | 'uploading' | 'refused'; detail: string | null };

export interface ReceiptQueueDeps {
  upload(costId: string, file: Blob, name: string): Promise<unknown>;
  /** Whether a failure means 'try again later' (offline, 5xx, 429) rather than 'refused'. */
  retryable(error: unknown): boolean;
  /** What to say about a refusal. */
  detail(error: unknown): string;
  /** After an upload landed (the lists reload). */
  uploaded(costId: string): void;
  storage: PendingStore;
  setTimer(fn: () => void, ms: number): unknown;
}

/** Where waiting photos are kept across reloads. */
export interface PendingStore {
  all(): Promise<{ costId: string; file: Blob; name: string }[]>;
  put(item: { costId: string; file: Blob; name: string }): Promise<void>;
  remove(costId: string): Promise<void>;
}

export const RETRY_AFTER_MS = [5_000, 15_000, 30_000, 60_000] as const;

export function createReceiptQueue(deps: ReceiptQueueDeps) {
  const items = new Map<string, { file: Blob; name: string; state: UploadState; attempts: number; timer: unknown; queued?: boolean }>();
  /** The one lane uploads go through, one after another. */
  let lane: Promise<void> = Promise.resolve();
  /** Puts the photo's next attempt in the lane (once: a photo already in line is not lined up twice). */
  const send = (costId: string): void => {
    const item = items.get(costId);
    if (!item || item.queued) return;
    item.queued = true;
    lane = lane.then(() => {
      const now = items.get(costId);
      if (now) now.queued = false;
      return attempt(costId);
    }).catch(() => undefined);
  };
  const listeners = new Set<() => void>();
  let snapshot: readonly UploadState[] = [];
  const changed = () => {
    snapshot = [...items.values()].map((i) => i.state);
    for (const l of listeners) l();
  };

  async function attempt(costId: string): Promise<void> {
    const item = items.get(costId);
    if (!item || item.state.status === 'uploading' || item.state.status === 'refused') return;
    item.state = { ...item.state, status: 'uploading' };
    changed();
    try {
      await deps.upload(costId, item.file, item.name);
      items.delete(costId);
      await deps.storage.remove(costId).catch(() => undefined);
      changed();
      deps.uploaded(costId);
    } catch (e) {
      if (!items.has(costId)) return;
      if (!deps.retryable(e)) {
        item.state = { ...item.state, status: 'refused', detail: deps.detail(e) };
        await deps.storage.remove(costId).catch(() => undefined);
        changed();
        return;
      }
      item.state = { ...item.state, status: 'waiting' };
      const wait = RETRY_AFTER_MS[Math.min(item.attempts, RETRY_AFTER_MS.length - 1)]!;
      item.attempts += 1;
      item.timer = deps.setTimer(() => send(costId), wait);
      changed();
    }
  }

  return {
    /** Keeps the photo for the cost (replacing one still waiting) and starts uploading it. */
    async add(costId: string, file: Blob, name: string): Promise<void> {
      items.set(costId, { file, name, attempts: 0, timer: null, state: { costId, name, status: 'waiting', detail: null } });
      changed();
      await deps.storage.put({ costId, file, name }).catch(() => undefined);
      send(costId);
    },
    /** Picks up what an earlier page left waiting. */
    async resume(): Promise<void> {
      for (const p of await deps.storage.all().catch(() => [])) {
        if (items.has(p.costId)) continue;
        items.set(p.costId, { file: p.file, name: p.name, attempts: 0, timer: null, state: { costId: p.costId, name: p.name, status: 'waiting', detail: null } });
        send(p.costId);
      }
      changed();
    },
    /** Back online: every waiting photo goes into the lane now, in order. */
    retryAll(): void {
      for (const [costId, item] of items) if (item.state.status === 'waiting') send(costId);
    },
    /** Forgets a refused photo once the tradie has read why. */
    dismiss(costId: string): void {
      items.delete(costId);
      changed();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    states: (): readonly UploadState[] => snapshot,
  };
}

export type ReceiptQueue = ReturnType<typeof createReceiptQueue>;

const DB_NAME = 'tradie-receipts';
const STORE = 'pending';

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

/** The browser's IndexedDB, one object store keyed by cost id; null where there is none (private modes). */
export function indexedDbPendingStore(): PendingStore | null {
  if (typeof indexedDB === 'undefined') return null;
  let opened: Promise<IDBDatabase> | null = null;
  const db = (): Promise<IDBDatabase> =>
    (opened ??= new Promise((resolve, reject) => {
      const r = indexedDB.open(DB_NAME, 1);
      r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: 'costId' });
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error ?? new Error('IndexedDB could not be opened'));
    }));
  const store = async (mode: IDBTransactionMode) => (await db()).transaction(STORE, mode).objectStore(STORE);
  return {
    all: async () => request((await store('readonly')).getAll() as IDBRequest<{ costId: string; file: Blob; name: string }[]>),
    put: async (item) => void (await request((await store('readwrite')).put(item))),
    remove: async (costId) => void (await request((await store('readwrite')).delete(costId))),
  };
}

/**
 * On sign-out: the photos still waiting on this device are forgotten with the rest of the user's
 * data, so the next person on a shared phone never has them (nor uploads them).
 */
export function forgetPendingReceipts(): void {
  try {
    if (typeof indexedDB !== 'undefined') indexedDB.deleteDatabase(DB_NAME);
  } catch {
    // Storage the browser refuses holds nothing of ours either.
  }
}

/** Kept in memory only (no IndexedDB): uploads still happen while the page is open. */
export function memoryPendingStore(): PendingStore {
  const items = new Map<string, { costId: string; file: Blob; name: string }>();
  return {
    all: async () => [...items.values()],
    put: async (item) => void items.set(item.costId, item),
    remove: async (costId) => void items.delete(costId),
  };
}
