// The payment reminders' scheduling pass (apps/api/src/reminders/scheduler.ts) over 10,000 open,
// emailed invoices in 20 accounts with reminders on: read the open invoices, ask the domain's rule
// for each, write the queue. Timed twice: the first pass (every queue row written) and a steady
// pass (the same answers: nothing to write). Median of 5 each on PGlite in memory.
// Budget: a pass over 10,000 open invoices ≤ 200 ms.
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';
import { allMigrations, scheduleReminders } from '@tradie/api';
import type { Figure } from './figures.ts';
import { seedDocuments, type SeedDocument } from './seed.ts';

const ACCOUNTS = 20;
const PER_ACCOUNT = 500;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function remindersFigures(progress: (m: string) => void = (m) => process.stderr.write(`  reminders: ${m}\n`)): Promise<Figure[]> {
  const store = await openStore({}, projections, allMigrations);
  try {
    progress(`seeding ${ACCOUNTS * PER_ACCOUNT} open invoices`);
    for (let a = 0; a < ACCOUNTS; a++) {
      const accountId = `bench-reminders-${a}`;
      const docs: SeedDocument[] = Array.from({ length: PER_ACCOUNT }, (_, i) => ({
        number: i + 1,
        // Issued across March–May 2026: some due, some overdue, some still to come on 20 May.
        at: new Date(Date.UTC(2026, 2, 1) + ((i * 7 + a) % 80) * 86_400_000 + 21 * 3_600_000).toISOString(),
        client: { name: `Client ${i % 60}`, email: `client${i % 60}@example.nz` },
        lines: [{ description: 'Labour', qty: '2', unit_price: '95.00' }],
        sent: true,
        ...(i % 5 === 0 ? { payments: [{ amount: '50.00', date: '2026-04-30' }] } : {}),
      }));
      await seedDocuments(store, accountId, docs);
      await store.db.query(
        `INSERT INTO reminder_settings (account_id, enabled, steps, minimum_balance_cents, notice_pending, updated_at) VALUES ($1, true, $2::jsonb, 0, false, now())`,
        [accountId, JSON.stringify([{ id: 'due', offset_days: 0, subject: 's', message: 'm' }, { id: 'd7', offset_days: 7, subject: 's', message: 'm' }, { id: 'd14', offset_days: 14, subject: 's', message: 'm' }, { id: 'd21', offset_days: 21, subject: 's', message: 'm' }])],
      );
    }
    const [{ n }] = (await store.db.query<{ n: string }>('SELECT count(*)::text AS n FROM reminder_targets')) as [{ n: string }];
    progress(`${n} open invoices; timing the pass`);
    const clock = { now: () => new Date('2026-05-19T22:00:00.000Z') };
    const first: number[] = [];
    const steady: number[] = [];
    const steadyCpu: number[] = [];
    const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
    for (let run = 0; run < 6; run++) {
      await store.db.query('DELETE FROM reminder_queue');
      const t0 = performance.now();
      await scheduleReminders({ store, clock });
      const t1 = performance.now();
      // PGlite runs in this process: its CPU time is the pass's whole cost, whatever else the machine is doing.
      const c1 = process.cpuUsage();
      await scheduleReminders({ store, clock });
      const t2 = performance.now();
      const c2 = process.cpuUsage(c1);
      // The first run warms the code up.
      if (run > 0) {
        first.push(t1 - t0);
        steady.push(t2 - t1);
        steadyCpu.push(cpuMs(c2));
      }
    }
    const [{ q }] = (await store.db.query<{ q: string }>('SELECT count(*)::text AS q FROM reminder_queue')) as [{ q: string }];
    return [
      { name: 'reminders.open_invoices', value: Number(n), unit: 'invoices' },
      { name: 'reminders.queued', value: Number(q), unit: 'invoices' },
      { name: 'reminders.schedule_pass_first_median', value: Math.round(median(first) * 10) / 10, unit: 'ms' },
      { name: 'reminders.schedule_pass_steady_median', value: Math.round(median(steady) * 10) / 10, unit: 'ms' },
      { name: 'reminders.schedule_pass_steady_cpu_median', value: Math.round(median(steadyCpu) * 10) / 10, unit: 'ms' },
    ];
  } finally {
    await store.close();
  }
}
