// The API's background timers (the outbox sweep, the reminder runs) share one shape: a run now and
// then one every interval, never two at once, and a timer that never keeps the process alive.

/**
 * Runs `work` now and then every `everyMs`; while a run is still going, the timer's ticks are
 * skipped. `work` logs its own failures. Returns a stop function that waits for a run in progress.
 */
export function repeatEvery(everyMs: number, work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = (): void => {
    if (running || stopped) return;
    running = work().finally(() => {
      running = null;
    });
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
