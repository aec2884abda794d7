import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { poolGate } from '../src/poolGate.ts';

/** A piece of work the test finishes by hand. */
function handle() {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return { done, finish };
}
const tick = () => new Promise<void>((r) => setImmediate(r));

describe('poolGate', () => {
  it('never runs more work at once than places, and runs every piece, first come first served', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 30 }), async (size, order) => {
        const gate = poolGate(size);
        let now = 0;
        let most = 0;
        const started: number[] = [];
        const works = order.map(() => handle());
        const all = works.map((w, i) =>
          gate.run(async () => {
            started.push(i);
            now += 1;
            most = Math.max(most, now);
            await w.done;
            now -= 1;
            return i;
          }),
        );
        // Finish the pieces in an order the property picks, among those running.
        const left = new Set(works.keys());
        for (const pick of order) {
          await tick();
          const running = started.filter((i) => left.has(i));
          const i = running[pick % running.length]!;
          left.delete(i);
          works[i]!.finish();
        }
        expect(await Promise.all(all)).toEqual(works.map((_, i) => i));
        expect(most).toBeLessThanOrEqual(size);
        expect(started).toEqual([...started].sort((a, b) => a - b));
        expect(gate.load).toEqual({ running: 0, waiting: 0 });
      }),
      { numRuns: 100 },
    );
  });

  it('a place is given back when the work fails', async () => {
    const gate = poolGate(1);
    await expect(gate.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await gate.run(async () => 'next')).toBe('next');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a query made inside a transaction does not wait for a place (no deadlock when the transactions hold them all)', async () => {
    const gate = poolGate(1);
    const inner = await gate.transaction(() => gate.run(async () => 'read inside'));
    expect(inner).toBe('read inside');
    // Outside, the place is taken by a transaction: a query waits for it.
    const tx = handle();
    const running = gate.transaction(() => tx.done);
    let answered = false;
    const read = gate.run(async () => (answered = true));
    await tick();
    expect(answered).toBe(false);
    expect(gate.load).toEqual({ running: 1, waiting: 1 });
    tx.finish();
    await Promise.all([running, read]);
    expect(answered).toBe(true);
  });

  it('refuses a size that is not a whole number of places', () => {
    expect(() => poolGate(0)).toThrow(RangeError);
    expect(() => poolGate(1.5)).toThrow(RangeError);
  });
});
