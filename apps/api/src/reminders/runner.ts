// The API's reminder timers (main.ts): due reminders are sent every minute, and the whole schedule
// is planned again every 15 minutes (what changes with time alone: a step's day arriving, a window
// opening after a weekend or a restart). Runs never overlap; the timers never keep the process up.
import { repeatEvery } from '../repeat.ts';
import { scheduleReminders } from './scheduler.ts';
import { sendDueReminders, type SenderPorts } from './sender.ts';

export const SEND_EVERY_MS = 60_000;
export const PLAN_EVERY_MS = 15 * 60_000;

export function scheduleReminderRuns(deps: SenderPorts, sendEveryMs = SEND_EVERY_MS, planEveryMs = PLAN_EVERY_MS): () => Promise<void> {
  let lastPlan = 0;
  return repeatEvery(sendEveryMs, () =>
    (async () => {
      const now = deps.clock.now().getTime();
      if (now - lastPlan >= planEveryMs) {
        await scheduleReminders(deps);
        lastPlan = now;
      }
      const r = await sendDueReminders(deps);
      if (r.sent + r.notDelivered + r.retrying > 0) deps.log('info', 'reminders sent', { ...r });
    })().catch((e: unknown) => deps.log('error', 'the reminder run failed', { error: e instanceof Error ? e.message : String(e) })),
  );
}
