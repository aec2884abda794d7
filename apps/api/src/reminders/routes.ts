// /api/v1/reminders: the account's payment reminders (docs/api/reminders.md), and /api/v1/mail:
// the emails a mail server refused for good. Thin: parse, call, answer.
//
//   GET  /settings                  the settings with their defaults
//   PUT  /settings                  replace them (the schedule follows at once)
//   POST /settings/notice-seen      the one-time "reminders are on" notice was read
//   GET  /upcoming                  what will go in the next 7 days (nothing is sent)
//   GET  /overdue                   the home screen's Overdue card
//   GET  /invoices/{id}             what the reminders will do for this invoice, and whether one can be sent now
//   POST /invoices/{id}/send-now    one reminder now (at most one a day)
//   PUT  /invoices/{id}/paused      pause or resume an invoice's reminders
//   GET  /clients/{id}  PUT /clients/{id}   'No reminders' for a client
import {
  clientRemindersInput, deliveryFailures, invoiceReminders, overdueSummary, remindersPausedInput, reminderSendResult, reminderSettingsInput, reminderSettingsRecord, upcomingReminders,
} from '@tradie/contracts';
import { centsToNumber, daysBetween, formatNzd, nzDateOf } from '@tradie/domain';
import { overdueInvoices } from '@tradie/projections';
import { Hono } from 'hono';
import { requireAuth } from '../auth/middleware.ts';
import { accountClientId } from '../documents/repository.ts';
import { runDocumentCommand } from '../documents/commands/run.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { ApiError } from '../http/problem.ts';
import { describe } from '../openapi/describe.ts';
import { dismissFailure, failuresOf } from './failures.ts';
import { scheduleReminders, upcomingReminders as upcoming } from './scheduler.ts';
import { invoiceRemindersOf, sendReminderNow } from './manual.ts';
import { loadReminderSettings, noticeSeen, settingsRecordOf, saveReminderSettings, setClientOptOut } from './settings.ts';

const TAG = 'Reminders';

export function reminderRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));
  const actor = (c: { get(k: 'accountId' | 'userId'): string }) => ({ accountId: c.get('accountId'), userId: c.get('userId') });

  r.get('/settings', describe({ tag: TAG, summary: 'The payment reminder settings', response: { status: 200, schema: reminderSettingsRecord } }), async (c) =>
    c.json(settingsRecordOf(await loadReminderSettings(deps.store.db, c.get('accountId')))),
  );

  r.put('/settings', describe({ tag: TAG, summary: 'Change the payment reminder settings', body: reminderSettingsInput, response: { status: 200, schema: reminderSettingsRecord } }), async (c) => {
    const input = await parseBody(c, reminderSettingsInput);
    const saved = await saveReminderSettings(deps.store.db, c.get('accountId'), input, deps.clock.now());
    await scheduleReminders(deps, { accountId: c.get('accountId') });
    return c.json(settingsRecordOf(saved));
  });

  r.post('/settings/notice-seen', describe({ tag: TAG, summary: "The one-time 'reminders are on' notice was read", response: { status: 204, description: 'Noted' } }), async (c) => {
    await noticeSeen(deps.store.db, c.get('accountId'));
    return c.body(null, 204);
  });

  r.get('/upcoming', describe({ tag: TAG, summary: 'The reminders that will go in the next 7 days (a dry run: nothing is sent)', response: { status: 200, schema: upcomingReminders } }), async (c) => {
    const items = await upcoming(deps.store.db, c.get('accountId'), deps.clock.now());
    return c.json({
      items: items.map((u) => ({ document_id: u.target.documentId, reference: u.target.reference, client_name: u.target.clientName, step_id: u.stepId, at: u.at, formatted_balance: formatNzd(u.target.balanceCents) })),
    });
  });

  r.get('/overdue', describe({ tag: TAG, summary: "Overdue invoices: count, total owed, oldest first (the home screen's card)", response: { status: 200, schema: overdueSummary } }), async (c) => {
    const today = nzDateOf(deps.clock.now());
    const accountId = c.get('accountId');
    const o = await overdueInvoices(deps.store.db, accountId, today, 20);
    const ids = o.items.map((i) => i.documentId);
    const targets = ids.length === 0 ? [] : await deps.store.db.query<{ document_id: string; paused: boolean; last_at: string | null }>(
      `SELECT document_id, paused, (SELECT max(x->>'at') FROM jsonb_array_elements(reminders) AS x) AS last_at FROM reminder_targets WHERE account_id = $1 AND document_id = ANY($2::text[])`,
      [accountId, ids],
    );
    const byId = new Map(targets.map((t) => [t.document_id, t]));
    return c.json({
      count: o.count,
      total_owed: centsToNumber(o.totalCents),
      formatted_total_owed: formatNzd(o.totalCents),
      items: o.items.map((i) => ({
        document_id: i.documentId, reference: i.reference, client_name: i.clientName, due_date: i.dueDate, days_overdue: daysBetween(i.dueDate, today),
        balance: centsToNumber(i.balanceCents), formatted_balance: formatNzd(i.balanceCents), last_reminder_at: byId.get(i.documentId)?.last_at ?? null,
        reminders_paused: byId.get(i.documentId)?.paused ?? false,
      })),
    });
  });

  r.get(
    '/invoices/:id',
    describe({ tag: TAG, summary: "What the payment reminders will do for this invoice, and whether 'Send reminder now' can be used (and why not)", response: { status: 200, schema: invoiceReminders }, errors: [404] }),
    async (c) => c.json(await invoiceRemindersOf(deps, actor(c), c.req.param('id'))),
  );

  r.post(
    '/invoices/:id/send-now',
    describe({ tag: TAG, summary: 'Send a payment reminder for this invoice now (at most one a day; not while paused or to a client set to no reminders)', response: { status: 200, schema: reminderSendResult }, errors: [403, 404, 409, 422, 429, 503] }),
    async (c) => c.json(await sendReminderNow(deps, actor(c), c.req.param('id'))),
  );

  r.put('/invoices/:id/paused', describe({ tag: TAG, summary: "Pause or resume this invoice's reminders", body: remindersPausedInput, response: { status: 204, description: 'Done' }, errors: [404, 409] }), async (c) => {
    const { paused } = await parseBody(c, remindersPausedInput);
    const id = c.req.param('id');
    await runDocumentCommand(deps, actor(c), {}, async (w) => {
      await w.decide(id, { type: paused ? 'PauseReminders' : 'ResumeReminders' });
    });
    return c.body(null, 204);
  });

  const clientId = (accountId: string, id: string): Promise<string> => accountClientId(deps.store.db, accountId, id);

  r.get('/clients/:id', describe({ tag: TAG, summary: "Whether this client gets no reminders", response: { status: 200, schema: clientRemindersInput }, errors: [404] }), async (c) => {
    const id = await clientId(c.get('accountId'), c.req.param('id'));
    const rows = await deps.store.db.query('SELECT 1 FROM reminder_client_optouts WHERE account_id = $1 AND client_id = $2', [c.get('accountId'), id]);
    return c.json({ no_reminders: rows.length > 0 });
  });

  r.put('/clients/:id', describe({ tag: TAG, summary: "'No reminders' for this client (or reminders again)", body: clientRemindersInput, response: { status: 204, description: 'Done' }, errors: [404] }), async (c) => {
    const { no_reminders } = await parseBody(c, clientRemindersInput);
    const accountId = c.get('accountId');
    await setClientOptOut(deps.store.db, accountId, await clientId(accountId, c.req.param('id')), no_reminders, deps.clock.now());
    await scheduleReminders(deps, { accountId });
    return c.body(null, 204);
  });

  return r;
}

/** /api/v1/mail: emails a mail server refused for good, until dismissed. */
export function mailRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));
  r.get('/failures', describe({ tag: TAG, summary: 'Emails a mail server refused for good (the home screen banner), newest first', response: { status: 200, schema: deliveryFailures } }), async (c) =>
    c.json({ items: await failuresOf(deps.store.db, c.get('accountId')) }),
  );
  r.post('/failures/:id/dismiss', describe({ tag: TAG, summary: 'Hide a delivery failure from the home screen', response: { status: 204, description: 'Dismissed' }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    if (!/^[0-9a-f-]{36}-\d{1,3}$/.test(id) || !(await dismissFailure(deps.store.db, c.get('accountId'), id, deps.clock.now()))) throw new ApiError(404, 'No such delivery failure');
    return c.body(null, 204);
  });
  return r;
}
