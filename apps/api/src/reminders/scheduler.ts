// The reminder schedule: for every open, emailed invoice of an account with reminders on, the
// domain's rule (nextReminder) says which step goes next and from when; that is kept in
// reminder_queue, one row per invoice, for the sender (sender.ts) to claim when due. The pass is
// re-run for one invoice after anything that changes its answer (a payment, a void, a pause, a
// reminder sent: reactions/registry.ts), for an account when its settings change, and for every
// account now and then (main.ts), so the queue is right after downtime too.
import { type InvoiceForReminders, nextReminder, type ReminderDecision, centsToString } from '@tradie/domain';
import { type ReminderTarget, reminderTargetsOf } from '@tradie/projections';
import type { Sql } from '@tradie/store';
import { closedAccounts } from '../account/liveness.ts';
import type { AppDeps } from '../deps.ts';
import { enabledReminderSettings, optedOutClients, policyOf, type ReminderSettings } from './settings.ts';

export interface ScheduleScope {
  accountId?: string;
  documentId?: string;
}

export const invoiceForReminders = (t: ReminderTarget, optedOut: boolean): InvoiceForReminders => ({
  issued: true,
  voided: false,
  sentAt: t.sentAt,
  dueDate: t.dueDate,
  balance: centsToString(t.balanceCents),
  paused: t.paused,
  clientOptedOut: optedOut,
  reminders: t.reminders.filter((r): r is { stepId: string; at: string } => r.at !== null),
});

export interface Planned {
  target: ReminderTarget;
  decision: Exclude<ReminderDecision, { kind: 'none' }>;
  settings: ReminderSettings;
}

/** What the rule says for each open invoice in scope, at `now` (invoices with nothing to come are left out). */
export async function planReminders(sql: Sql, now: Date, scope: ScheduleScope = {}): Promise<Planned[]> {
  const settings = await enabledReminderSettings(sql, scope.accountId);
  // A closed account plans nothing (account/liveness.ts), so its rows leave the queue.
  const closed = await closedAccounts(sql, settings.keys());
  const accounts = [...settings.keys()].filter((a) => !closed.has(a));
  const [targets, optOuts] = await Promise.all([reminderTargetsOf(sql, accounts), optedOutClients(sql, accounts)]);
  const policies = new Map([...settings].map(([a, s]) => [a, policyOf(s)]));
  const planned: Planned[] = [];
  for (const t of targets) {
    if (scope.documentId !== undefined && t.documentId !== scope.documentId) continue;
    const optedOut = t.clientId !== null && optOuts.has(`${t.accountId}/${t.clientId}`);
    const decision = nextReminder(policies.get(t.accountId)!, invoiceForReminders(t, optedOut), now);
    if (decision.kind !== 'none') planned.push({ target: t, decision, settings: settings.get(t.accountId)! });
  }
  return planned;
}

/**
 * Brings reminder_queue in line with the plan for the scope: a row per invoice with a reminder to
 * come (due now, or from its first allowed moment), none for the rest. A row the sender holds is
 * left alone. Returns how many rows are queued and how many were taken away.
 */
export async function scheduleReminders(deps: Pick<AppDeps, 'store' | 'clock'>, scope: ScheduleScope = {}): Promise<{ queued: number; cleared: number; written: number }> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const db = deps.store.db;
  const planned = await planReminders(db, now, scope);
  const where: string[] = [];
  const params: unknown[] = [nowIso];
  if (scope.accountId !== undefined) {
    params.push(scope.accountId);
    where.push(`account_id = $${params.length}`);
  }
  if (scope.documentId !== undefined) {
    params.push(scope.documentId);
    where.push(`document_id = $${params.length}`);
  }
  return db.tx(async (sql) => {
    // What is queued now, to write only what changed (a pass over every account usually changes little).
    const current = await sql.query<{ document_id: string; step_id: string; due_ms: number | string; held: boolean; waiting: boolean }>(
      `SELECT document_id, step_id, (extract(epoch FROM due_at) * 1000)::float8 AS due_ms,
         (claimed_until IS NOT NULL AND claimed_until >= $1::timestamptz) AS held, (attempts > 0 OR last_error IS NOT NULL) AS waiting
       FROM reminder_queue${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`,
      params,
    );
    const queued = new Map(current.map((r) => [r.document_id, r]));
    const plannedIds = new Set(planned.map((p) => p.target.documentId));
    const gone = current.filter((r) => !r.held && !plannedIds.has(r.document_id)).map((r) => r.document_id);
    const changed = planned.flatMap((p) => {
      const due = p.decision.kind === 'send' ? nowIso : p.decision.notBefore;
      const q = queued.get(p.target.documentId);
      if (q) {
        if (q.held) return [];
        if (q.step_id === p.decision.step.id) {
          // A retry, or a reminder the account's sending limits held back (sender.ts), keeps its
          // own time; a reminder already due stays due.
          const queuedMs = Number(q.due_ms);
          if (q.waiting || queuedMs === Date.parse(due) || (p.decision.kind === 'send' && queuedMs <= now.getTime())) return [];
        }
      }
      return [{ id: p.target.documentId, account: p.target.accountId, step: p.decision.step.id, due }];
    });
    if (gone.length > 0) {
      await sql.query('DELETE FROM reminder_queue WHERE document_id = ANY($1::text[]) AND (claimed_until IS NULL OR claimed_until < $2::timestamptz)', [gone, nowIso]);
    }
    if (changed.length > 0) {
      await sql.query(
        `INSERT INTO reminder_queue (document_id, account_id, step_id, due_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
         ON CONFLICT (document_id) DO UPDATE SET step_id = EXCLUDED.step_id, due_at = EXCLUDED.due_at, attempts = 0, last_error = NULL
         WHERE reminder_queue.claimed_until IS NULL OR reminder_queue.claimed_until < $5::timestamptz`,
        [changed.map((c) => c.id), changed.map((c) => c.account), changed.map((c) => c.step), changed.map((c) => c.due), nowIso],
      );
    }
    return { queued: planned.length, cleared: gone.length, written: changed.length };
  });
}

export interface UpcomingReminder {
  target: ReminderTarget;
  stepId: string;
  at: string;
}

/**
 * What will go out in the next `days` days, without sending anything: each invoice's next
 * reminder, and the ones after it, by asking the rule again at each one's moment as if it had gone.
 */
export async function upcomingReminders(sql: Sql, accountId: string, now: Date, days = 7): Promise<UpcomingReminder[]> {
  const until = now.getTime() + days * 86_400_000;
  const settings = await enabledReminderSettings(sql, accountId);
  const s = settings.get(accountId);
  if (!s) return [];
  const [targets, optOuts] = await Promise.all([reminderTargetsOf(sql, [accountId]), optedOutClients(sql, [accountId])]);
  const policy = policyOf(s);
  const out: UpcomingReminder[] = [];
  for (const t of targets) {
    const optedOut = t.clientId !== null && optOuts.has(`${accountId}/${t.clientId}`);
    let invoice = invoiceForReminders(t, optedOut);
    let at = now;
    for (let i = 0; i < policy.steps.length; i++) {
      const d = nextReminder(policy, invoice, at);
      if (d.kind === 'none') break;
      const when = d.kind === 'send' ? at : new Date(d.notBefore);
      if (when.getTime() > until) break;
      out.push({ target: t, stepId: d.step.id, at: when.toISOString() });
      invoice = { ...invoice, reminders: [...invoice.reminders, { stepId: d.step.id, at: when.toISOString() }] };
      at = when;
    }
  }
  return out.sort((a, b) => a.at.localeCompare(b.at) || a.target.reference.localeCompare(b.target.reference));
}
