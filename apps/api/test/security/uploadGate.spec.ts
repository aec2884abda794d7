// The upload gate and the decode places, on their own: a third upload of one account is refused at
// once with a short Retry-After while two are in flight; the process's cap holds across accounts;
// places are given back exactly once; the decode places let `size` run and the rest wait in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LimitReached } from '../../src/errors.ts';
import { createSlots, createUploadGate, UPLOAD_BUSY_RETRY_SECONDS, UPLOAD_MESSAGES } from '../../src/security/uploadGate.ts';

const refusal = (f: () => unknown): LimitReached | null => {
  try {
    f();
    return null;
  } catch (e) {
    if (e instanceof LimitReached) return e;
    throw e;
  }
};

describe('the upload gate', () => {
  it("refuses one account's third upload and the process's ninth, and takes them once places are given back", () => {
    const gate = createUploadGate({ perAccount: 2, total: 8 });
    const a1 = gate.enter('a');
    gate.enter('a');
    const third = refusal(() => gate.enter('a'));
    expect([third?.detail, third?.retryAfter]).toEqual([UPLOAD_MESSAGES.busy, UPLOAD_BUSY_RETRY_SECONDS]);
    for (const who of ['b', 'b', 'c', 'c', 'd', 'd']) gate.enter(who);
    expect(refusal(() => gate.enter('e'))?.detail).toBe(UPLOAD_MESSAGES.serverBusy);
    a1();
    a1(); // given back twice counts once
    expect(gate.stats().inFlight).toBe(7);
    expect(refusal(() => gate.enter('e'))).toBeNull();
    expect(refusal(() => gate.enter('a'))?.detail).toBe(UPLOAD_MESSAGES.serverBusy);
  });

  it('never holds more than its bounds, whatever the order of arrivals and leavings', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.record({ enter: fc.constantFrom('a', 'b', 'c', 'd') }), fc.record({ leave: fc.nat(20) })), { maxLength: 200 }), (steps) => {
        const gate = createUploadGate({ perAccount: 2, total: 5 });
        const held: { who: string; leave: () => void }[] = [];
        for (const step of steps) {
          if ('enter' in step) {
            const mine = held.filter((h) => h.who === step.enter).length;
            const full = mine >= 2 || held.length >= 5;
            const r = refusal(() => held.push({ who: step.enter, leave: gate.enter(step.enter) }));
            // Refused exactly when a bound would be passed.
            expect(r !== null).toBe(full);
          } else if (held.length > 0) {
            held.splice(step.leave % held.length, 1)[0]!.leave();
          }
          expect(gate.stats().inFlight).toBe(held.length);
        }
        expect(gate.stats().peak).toBeLessThanOrEqual(5);
        expect(gate.stats().peakOneAccount).toBeLessThanOrEqual(2);
      }),
    );
  });
});

describe('the decode places', () => {
  it('run two at once; the rest wait and start in arrival order', async () => {
    const slots = createSlots(2);
    const started: number[] = [];
    const finish = new Map<number, () => void>();
    const runs = [0, 1, 2, 3, 4].map((i) =>
      slots.run(async () => {
        started.push(i);
        await new Promise<void>((resolve) => finish.set(i, resolve));
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(slots.stats()).toEqual({ busy: 2, waiting: 3, peak: 2 });
    finish.get(1)!();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 2]);
    for (const i of [0, 2]) finish.get(i)!();
    await new Promise((r) => setTimeout(r, 0));
    for (const i of [3, 4]) finish.get(i)!();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(slots.stats()).toEqual({ busy: 0, waiting: 0, peak: 2 });
  });

  it('gives the place back when the work fails', async () => {
    const slots = createSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
    expect(await slots.run(async () => 'next')).toBe('next');
    expect(slots.stats().busy).toBe(0);
  });
});
