// The receipt upload queue: a photo is kept until the server has it, retried on the schedule and
// when the browser is back online, never retried once refused, and picked up again by the next page
// from what was kept.
import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_MS, createReceiptQueue, memoryPendingStore, type ReceiptQueueDeps } from './receiptUploads.ts';

class Refused extends Error {}

function harness(answers: ('ok' | 'offline' | 'refused')[]) {
  const timers: { fn: () => void; ms: number }[] = [];
  const calls: string[] = [];
  const uploaded: string[] = [];
  const storage = memoryPendingStore();
  const deps: ReceiptQueueDeps = {
    upload: async (costId) => {
      calls.push(costId);
      const a = answers.shift() ?? 'ok';
      if (a === 'offline') throw new Error('Network Error');
      if (a === 'refused') throw new Refused('That file is not a photo (JPEG, PNG, WebP or HEIC) or a PDF.');
    },
    retryable: (e) => !(e instanceof Refused),
    detail: (e) => (e as Error).message,
    uploaded: (id) => uploaded.push(id),
    storage,
    setTimer: (fn, ms) => timers.push({ fn, ms }),
  };
  return { queue: createReceiptQueue(deps), timers, calls, uploaded, storage };
}

const settle = () => new Promise((r) => setTimeout(r, 0));
const photo = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });

describe('receipt uploads', () => {
  it('uploads at once; on a lost signal waits 5 s, 15 s, 30 s, then a minute, keeping the photo until it lands', async () => {
    const h = harness(['offline', 'offline', 'offline', 'offline', 'offline', 'ok']);
    await h.queue.add('c1', photo, 'receipt.jpg');
    await settle();
    expect(h.queue.states()).toEqual([{ costId: 'c1', name: 'receipt.jpg', status: 'waiting', detail: null }]);
    expect(await h.storage.all()).toHaveLength(1);
    for (let i = 0; i < 5; i++) {
      h.timers.shift()!.fn();
      await settle();
    }
    expect(h.calls).toHaveLength(6);
    expect(h.uploaded).toEqual(['c1']);
    expect(h.queue.states()).toEqual([]);
    expect(await h.storage.all()).toEqual([]);
    expect(RETRY_AFTER_MS).toEqual([5_000, 15_000, 30_000, 60_000]);
  });

  it('back online, every waiting photo tries at once', async () => {
    const h = harness(['offline', 'offline', 'ok', 'ok']);
    await h.queue.add('c1', photo, 'a.jpg');
    await h.queue.add('c2', photo, 'b.jpg');
    await settle();
    expect(h.queue.states().map((s) => s.status)).toEqual(['waiting', 'waiting']);
    h.queue.retryAll();
    await settle();
    expect(h.uploaded.sort()).toEqual(['c1', 'c2']);
  });

  it('a refusal is said and never retried; the kept copy goes', async () => {
    const h = harness(['refused']);
    await h.queue.add('c1', photo, 'notes.txt');
    await settle();
    expect(h.queue.states()).toEqual([{ costId: 'c1', name: 'notes.txt', status: 'refused', detail: 'That file is not a photo (JPEG, PNG, WebP or HEIC) or a PDF.' }]);
    expect(h.timers).toEqual([]);
    expect(await h.storage.all()).toEqual([]);
    h.queue.retryAll();
    await settle();
    expect(h.calls).toHaveLength(1);
    h.queue.dismiss('c1');
    expect(h.queue.states()).toEqual([]);
  });

  it('the next page picks up what was kept', async () => {
    const h = harness(['ok']);
    await h.storage.put({ costId: 'c9', file: photo, name: 'left.jpg' });
    await h.queue.resume();
    await settle();
    expect(h.uploaded).toEqual(['c9']);
    expect(await h.storage.all()).toEqual([]);
  });

  it('a backlog goes one photo at a time, in the order taken, each waiting for the one before to land', async () => {
    let open = 0;
    let most = 0;
    const order: string[] = [];
    const finishers: (() => void)[] = [];
    const deps: ReceiptQueueDeps = {
      upload: (costId) => {
        open += 1;
        most = Math.max(most, open);
        order.push(costId);
        return new Promise<void>((resolve) => finishers.push(() => ((open -= 1), resolve())));
      },
      retryable: () => true,
      detail: () => '',
      uploaded: () => undefined,
      storage: memoryPendingStore(),
      setTimer: () => undefined,
    };
    const queue = createReceiptQueue(deps);
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5']) await queue.add(id, photo, `${id}.jpg`);
    queue.retryAll();
    await settle();
    expect(order).toEqual(['c1']);
    expect(queue.states().map((s) => s.status)).toEqual(['uploading', 'waiting', 'waiting', 'waiting', 'waiting']);
    for (let i = 0; i < 5; i++) {
      finishers.shift()!();
      await settle();
    }
    expect(order).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(most).toBe(1);
    expect(queue.states()).toEqual([]);
  });
});
