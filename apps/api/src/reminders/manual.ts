// One invoice's reminders as the tradie sees them: what the automatic reminders will actually do
// (GET /reminders/invoices/{id}), and 'Send reminder now' (POST /reminders/invoices/{id}/send-now).
//
// A reminder sent by hand keeps the tradie's own rules (domain reminders/manual.ts): not while the
// invoice's reminders are paused, not to a client set to 'No reminders', at most one a day per
// invoice; it takes the words of the step that fits (the next of the escalation, never past how
// overdue the invoice is) and leaves through the account's one door for mail
// (documents/sendGuard.ts), like every other email on the account's behalf. The once-a-day rule
// holds across API processes: the last one's time is taken with a compare-and-set in
// reminder_manual_claims before the mail goes, and given back when nothing went.
import { REMINDER_MESSAGES, type InvoiceReminders, type ReminderSendResult, type ReminderStepRecord } from '@tradie/contracts';
import {
  type DocumentView, type ReminderSoFar, amountDueNowCents, clientDisplayName, daysBetween, formatNzDateTime, manualReminderRefusal, manualReminderStep,
  MANUAL_REMINDER_STEP_ID, nextReminder, remindersStopped, nzDateOf, REMINDER_MIN_GAP_MS, centsToString,
} from '@tradie/domain';
import type { Actor } from '../commands.ts';
import { activeLinkOf } from '../clientLinks/links.ts';
import { loadDocument, userNames } from '../documents/repository.ts';
import { recipientCount, refusalNow, sendRefusal } from '../documents/sendGuard.ts';
import { loadBusinessSettings } from '../settings/repository.ts';
import { composeReminderMail } from './compose.ts';
import { deliver, record, type SenderPorts } from './sender.ts';
import { loadReminderSettings, optedOutClients, policyOf, type ReminderSettings } from './settings.ts';
import type { AppError} from '../errors.ts';
import { Conflict, Invalid, LimitReached, RetryLater } from '../errors.ts';

/** What both answers need to know of the invoice, read once. */
interface Facts {
  d: DocumentView;
  balanceCents: bigint;
  /** Who a reminder goes to: whoever the invoice was last emailed to, else the client. */
  to: string[];
  clientOptedOut: boolean;
  settings: ReminderSettings;
  reminders: ReminderSoFar[];
  /** Days past the due date today in New Zealand (negative before it). */
  daysPastDue: number;
}

async function factsOf(ports: SenderPorts, accountId: string, documentId: string): Promise<Facts> {
  const { state: d } = await loadDocument(ports.store, accountId, documentId);
  const db = ports.store.db;
  const clientId = d.client?.id ?? null;
  const [settings, optOuts] = await Promise.all([loadReminderSettings(db, accountId), clientId ? optedOutClients(db, [accountId]) : Promise.resolve(new Set<string>())]);
  return {
    d,
    balanceCents: amountDueNowCents(d),
    to: d.sends.at(-1)?.to ?? (d.client?.email ? [d.client.email] : []),
    clientOptedOut: clientId !== null && optOuts.has(`${accountId}/${clientId}`),
    settings,
    reminders: d.reminders.map((r) => ({ stepId: r.stepId, at: r.at, delivered: r.outcome === 'delivered' })),
    daysPastDue: daysBetween(d.dueDate, nzDateOf(ports.clock.now())),
  };
}

/** An issued invoice with money owing: the only kind a reminder is for. */
const remindable = (f: Facts): boolean => f.d.type === 'invoice' && !remindersStopped(f.d) && f.d.status !== 'draft' && f.balanceCents > 0n;

/** Why a reminder may not be sent by hand now (409, or 429 with Retry-After), before the account's limits; null when it may. */
function manualRefusal(f: Facts, now: Date): AppError | null {
  if (!remindable(f)) return new Conflict(REMINDER_MESSAGES.notOverdueInvoice);
  if (f.to.length === 0) return new Conflict(REMINDER_MESSAGES.notEmailed);
  const refusal = manualReminderRefusal({ paused: f.d.remindersPaused, clientOptedOut: f.clientOptedOut, reminders: f.reminders }, now);
  if (!refusal) return null;
  if (refusal.reason === 'paused') return new Conflict(REMINDER_MESSAGES.paused);
  if (refusal.reason === 'opted_out') return new Conflict(REMINDER_MESSAGES.clientNoReminders(f.d.client ? clientDisplayName(f.d.client) : ''));
  return oncePerDay(refusal.notBefore, now);
}

function oncePerDay(notBefore: string, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((Date.parse(notBefore) - now.getTime()) / 1000));
  return new LimitReached(REMINDER_MESSAGES.oncePerDay(formatNzDateTime(notBefore)), undefined, seconds);
}

/** The step a reminder sent by hand uses now, recorded as 'manual'. */
function manualStep(f: Facts): ReminderStepRecord {
  const chosen = manualReminderStep(f.settings.steps.map((s) => ({ ...s, offsetDays: s.offset_days })), f.reminders, f.daysPastDue);
  return { id: MANUAL_REMINDER_STEP_ID, offset_days: chosen.offset_days, subject: chosen.subject, message: chosen.message };
}

/** What the automatic reminders will do for the invoice, from the same rule the scheduler asks. */
function automaticOf(f: Facts, now: Date): InvoiceReminders['automatic'] {
  const none = (state: InvoiceReminders['automatic']['state']): InvoiceReminders['automatic'] => ({ state, next_at: null, next_offset_days: null });
  if (!remindable(f)) return none('nothing_owing');
  // The tradie's own choices for this invoice and this client come first: they stop reminders sent
  // by hand too, whatever the settings or the schedule say.
  if (f.d.remindersPaused) return none('paused');
  if (f.clientOptedOut) return none('client_no_reminders');
  const firstSend = f.d.sends.find((s) => s.at !== null);
  const decision = nextReminder(
    policyOf(f.settings),
    {
      issued: true,
      voided: remindersStopped(f.d),
      sentAt: firstSend?.at ?? null,
      dueDate: f.d.dueDate,
      balance: centsToString(f.balanceCents),
      paused: f.d.remindersPaused,
      clientOptedOut: f.clientOptedOut,
      reminders: f.reminders.flatMap((r) => (r.at === null ? [] : [{ stepId: r.stepId, at: r.at }])),
    },
    now,
  );
  if (decision.kind === 'none') {
    const states = { disabled: 'off', not_sent: 'not_emailed', no_balance: 'below_minimum', paused: 'paused', opted_out: 'client_no_reminders', voided: 'nothing_owing', no_step_left: 'all_sent' } as const;
    return none(states[decision.reason]);
  }
  return {
    state: 'planned',
    next_at: decision.kind === 'send' ? now.toISOString() : decision.notBefore,
    next_offset_days: decision.step.offsetDays,
  };
}

/** GET /reminders/invoices/{id}: what the reminders will do for this invoice, and whether one can be sent now (and why not). */
export async function invoiceRemindersOf(ports: SenderPorts, actor: Actor, documentId: string): Promise<InvoiceReminders> {
  const f = await factsOf(ports, actor.accountId, documentId);
  const now = ports.clock.now();
  const refused = manualRefusal(f, now)?.detail ?? (await sendRefusal(ports, actor.accountId, recipientCount({ to: f.to, cc: [], bcc: [] }), f.d));
  let subject: string | null = null;
  if (refused === null) {
    const [settings, user, link] = await Promise.all([loadBusinessSettings(ports.store.db, actor.accountId), userNames(ports.store.db, actor.accountId), activeLinkOf(ports, ports.store.db, actor.accountId, f.d)]);
    subject = composeReminderMail({
      document: f.d, step: manualStep(f), to: f.to, balanceCents: f.balanceCents, daysOverdue: Math.max(0, f.daysPastDue), payLink: link?.url ?? null,
      settings, user, pdf: null, mailFrom: ports.config.env.MAIL_FROM,
    }).subject;
  }
  return {
    automatic: automaticOf(f, now),
    paused: f.d.remindersPaused,
    client_no_reminders: f.clientOptedOut,
    send_now: { allowed: refused === null, reason: refused, subject },
  };
}

/**
 * Takes the invoice's once-a-day place for a reminder sent by hand, or answers null when another
 * took it within 24 hours (another process, a moment ago). `release` gives it back.
 */
async function claimManual(ports: SenderPorts, accountId: string, documentId: string, now: Date): Promise<{ release(): Promise<void> } | null> {
  const db = ports.store.db;
  const at = now.toISOString();
  const [prev] = await db.query<{ at: string; at_ms: number | string }>(
    'SELECT at::text AS at, (extract(epoch FROM at) * 1000)::float8 AS at_ms FROM reminder_manual_claims WHERE document_id = $1',
    [documentId],
  );
  const taken = prev
    ? Number(prev.at_ms) + REMINDER_MIN_GAP_MS <= now.getTime()
      ? await db.query('UPDATE reminder_manual_claims SET at = $3::timestamptz WHERE document_id = $1 AND at = $2::timestamptz RETURNING 1', [documentId, prev.at, at])
      : []
    : await db.query('INSERT INTO reminder_manual_claims (document_id, account_id, at) VALUES ($1, $2, $3::timestamptz) ON CONFLICT (document_id) DO NOTHING RETURNING 1', [documentId, accountId, at]);
  if (taken.length === 0) return null;
  return {
    async release() {
      if (prev) await db.query('UPDATE reminder_manual_claims SET at = $2::timestamptz WHERE document_id = $1 AND at = $3::timestamptz', [documentId, prev.at, at]);
      else await db.query('DELETE FROM reminder_manual_claims WHERE document_id = $1 AND at = $2::timestamptz', [documentId, at]);
    },
  };
}

/**
 * 'Send reminder now': one reminder of an issued invoice with money owing, at once, whatever the
 * schedule — unless paused, the client is set to 'No reminders', or one went in the last 24 hours.
 * The automatic ones then wait 24 hours from it.
 */
export async function sendReminderNow(ports: SenderPorts, actor: Actor, documentId: string): Promise<ReminderSendResult> {
  const f = await factsOf(ports, actor.accountId, documentId);
  const now = ports.clock.now();
  const refused = manualRefusal(f, now) ?? (await refusalNow(ports, actor.accountId, recipientCount({ to: f.to, cc: [], bcc: [] }), f.d));
  if (refused) throw refused;
  const claim = await claimManual(ports, actor.accountId, documentId, now);
  if (!claim) throw oncePerDay(new Date(now.getTime() + REMINDER_MIN_GAP_MS).toISOString(), now);
  const sent = await deliver(ports, actor.accountId, f.d, manualStep(f), f.to, Math.max(0, f.daysPastDue)).catch(async (e: unknown) => {
    await claim.release();
    throw e;
  });
  if (sent.kind === 'held') {
    // The account's door for mail said not now (unconfirmed address, today's recipients, a burst): its own words.
    await claim.release();
    throw sent.refusal;
  }
  if (sent.kind === 'unavailable') {
    await claim.release();
    throw new RetryLater("We couldn't send the email right now. Please try again in a few minutes.", undefined, 60);
  }
  await record(ports, actor, documentId, { ...sent.mail, stepId: MANUAL_REMINDER_STEP_ID, outcome: sent.outcome, detail: sent.detail });
  if (sent.outcome === 'failed') throw new Invalid(`The mail server refused the reminder: ${sent.detail ?? 'no reason given'}`);
  return { outcome: sent.outcome, to: f.to, detail: sent.detail };
}
