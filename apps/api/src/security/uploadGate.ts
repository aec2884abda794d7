// Uploads that are decoded (a receipt's photo, the business's logo) cost memory and CPU: a 10 MB
// body is held whole, and a 40-megapixel photo turned upright is ~120 MB of pixels. A burst (a phone
// that was offline all week, or a script) must not take the process down, so every such upload
// passes one gate, the one function both routes call (withUploadSlot):
//   - at most UPLOADS_PER_ACCOUNT_AT_ONCE of one account's uploads are being read or kept at once,
//     and UPLOADS_AT_ONCE of everyone's in this process; beyond that the answer is 429 with a
//     Retry-After of a few seconds before a byte of the body is read (the web's upload queue waits
//     and tries again, and sends one at a time anyway);
//   - UPLOAD_LIMIT uploads an hour per account, counted in the database (security/rateLimit.ts) so
//     every process shares it; a refusal by the gate above is not counted;
//   - at most DECODES_AT_ONCE images are decoded at once in the process (decodeSlot): the rest wait
//     their turn, so peak memory is bounded by the slots, not by how many arrived.
import type { AppDeps } from '../deps.ts';
import { LimitReached } from '../errors.ts';
import { enforce, type Limit } from './rateLimit.ts';

export const UPLOADS_PER_ACCOUNT_AT_ONCE = 2;
export const UPLOADS_AT_ONCE = 8;
export const DECODES_AT_ONCE = 2;
export const UPLOAD_BUSY_RETRY_SECONDS = 5;
export const UPLOAD_LIMIT: Limit = { name: 'upload:account', max: 200, windowSeconds: 3600 };

export const UPLOAD_MESSAGES = {
  busy: 'Your other uploads are still being kept. This one will go in a moment.',
  serverBusy: 'A lot of uploads are arriving just now. Please try again in a moment.',
  tooMany: 'You have uploaded 200 files in the last hour. Please try again later.',
} as const;

export interface UploadGate {
  /** A place for one upload of the account, or a 429 (LimitReached with a short Retry-After). Call the answer to give it back. */
  enter(accountId: string): () => void;
  /** What is in flight now, and the most there ever were (for tests and the bench). */
  stats(): { inFlight: number; peak: number; peakOneAccount: number };
}

export function createUploadGate(bounds: { perAccount: number; total: number } = { perAccount: UPLOADS_PER_ACCOUNT_AT_ONCE, total: UPLOADS_AT_ONCE }): UploadGate {
  const byAccount = new Map<string, number>();
  let inFlight = 0;
  let peak = 0;
  let peakOneAccount = 0;
  return {
    enter(accountId) {
      const mine = byAccount.get(accountId) ?? 0;
      if (mine >= bounds.perAccount) throw new LimitReached(UPLOAD_MESSAGES.busy, undefined, UPLOAD_BUSY_RETRY_SECONDS);
      if (inFlight >= bounds.total) throw new LimitReached(UPLOAD_MESSAGES.serverBusy, undefined, UPLOAD_BUSY_RETRY_SECONDS);
      byAccount.set(accountId, mine + 1);
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      peakOneAccount = Math.max(peakOneAccount, mine + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        inFlight -= 1;
        const now = (byAccount.get(accountId) ?? 1) - 1;
        if (now === 0) byAccount.delete(accountId);
        else byAccount.set(accountId, now);
      };
    },
    stats: () => ({ inFlight, peak, peakOneAccount }),
  };
}

const gates = new WeakMap<AppDeps['config'], UploadGate>();

/** The gate of this API process (one per app's configuration). */
export function uploadGateOf(deps: Pick<AppDeps, 'config'>): UploadGate {
  let gate = gates.get(deps.config);
  if (!gate) gates.set(deps.config, (gate = createUploadGate()));
  return gate;
}

/**
 * Runs `work` (read the body, decode, keep) holding one of the account's upload places, after the
 * hour's count allows it. Refused here, nothing of the upload has been read.
 */
export async function withUploadSlot<T>(deps: Pick<AppDeps, 'config' | 'store' | 'clock'>, accountId: string, work: () => Promise<T>): Promise<T> {
  const leave = uploadGateOf(deps).enter(accountId);
  try {
    await enforce(deps.store.db, UPLOAD_LIMIT, accountId, deps.clock.now(), UPLOAD_MESSAGES.tooMany);
    return await work();
  } finally {
    leave();
  }
}

/** A counting semaphore: `run` waits for one of `size` places, in arrival order. */
export function createSlots(size: number) {
  let busy = 0;
  let peak = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (busy >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      else busy += 1;
      peak = Math.max(peak, busy);
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        // The place passes straight to the next in line (busy stays the same), or is given back.
        if (next) next();
        else busy -= 1;
      }
    },
    stats: () => ({ busy, waiting: waiting.length, peak }),
  };
}

/** The process's image decodes: a photo or logo is decoded and re-encoded inside one of these places. */
export const decodeSlot = createSlots(DECODES_AT_ONCE);
