// discardRest (http/refusedBodies.ts) on its own: a body that ends within the bounds is read to its
// end; one past LINGER_BYTES, or still arriving after LINGER_MS (on a fake clock), is left.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discardRest } from '../../src/http/refusedBodies.ts';

const body = (chunks: number, size: number): ReadableStream<Uint8Array> => {
  let left = chunks;
  return new ReadableStream({
    pull(c) {
      if (left-- <= 0) c.close();
      else c.enqueue(new Uint8Array(size));
    },
  });
};

afterEach(() => {
  vi.useRealTimers();
});

describe('discardRest', () => {
  it('reads a body that ends within the bounds to its end', async () => {
    const stream = body(10, 1000);
    expect(await discardRest(stream.getReader(), { bytes: 10_000, ms: 1000 })).toBe(true);
  });

  it('stops past the byte bound', async () => {
    expect(await discardRest(body(11, 1000).getReader(), { bytes: 10_000, ms: 1000 })).toBe(false);
  });

  it('stops at the time bound when the body stops arriving', async () => {
    vi.useFakeTimers();
    let sent = 0;
    const stalled = new ReadableStream<Uint8Array>({
      pull(c) {
        // Two chunks, then nothing more: a client that stopped sending.
        if (sent++ < 2) c.enqueue(new Uint8Array(10));
        else return new Promise(() => undefined);
      },
    });
    const done = discardRest(stalled.getReader(), { bytes: 1_000_000, ms: 10_000 });
    await vi.advanceTimersByTimeAsync(9_999);
    let settled = false;
    void done.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await done).toBe(false);
  });
});
