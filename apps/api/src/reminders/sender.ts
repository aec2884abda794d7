// Sending the reminders the schedule says are due, from any number of API processes at once.
//
// A process claims due rows of reminder_queue (FOR UPDATE SKIP LOCKED, then a lease in
// claimed_until), so two processes never hold the same invoice. For each row it reads the invoice
// afresh and asks the rule again: a payment, a void or a pause since the row was planned sends
// nothing. Before the mail goes the row is marked `sending_since`; a row found so marked by a later
// claim belonged to a process that died mid-send, and is recorded as possibly not sent rather than
// sent again (a client must never get the same reminder twice). Then the outcome is recorded on
// the invoice (ReminderSent, or ReminderNotDelivered with the mail server's answer) and the row goes.
// An invoice synced to Xero is read back from Xero first (payments made there come here), so a
// client who paid in Xero is not chased.
// A mail server that cannot be reached leaves the row for a retry with backoff.
//
// Every reminder leaves through the one door for mail on the account's behalf
// (documents/sendGuard.ts sendForAccount): the account's confirmed address, its daily recipients
// and its burst. When that door says not now, nothing goes and nothing is recorded: the row waits
// until the limit's window ends (an hour for an unconfirmed address) without counting an attempt,
// and the rule is asked again then.
import { randomUUID } from 'node:crypto';
import type { ReminderStepRecord } from '@tradie/contracts';
import { type DocumentView, amountDueNowCents, nextReminder, centsToString } from '@tradie/domain';
import { reminderTarget } from '@tradie/projections';
import { claimDue, leaseOf, releaseClaim, updateHeld } from '@tradie/store';
import { isAccountClosed } from '../account/liveness.ts';
import type { Actor } from '../commands.ts';
import { activeLinkOf } from '../clientLinks/links.ts';
import { runDocumentCommand, type CommandPorts } from '../documents/commands/run.ts';
import { pdfFileName, renderPdfFor } from '../documents/pdf.ts';
import { loadDocument, userNames } from '../documents/repository.ts';
import type { AppDeps } from '../deps.ts';
import { sendForAccount } from '../documents/sendGuard.ts';
import { refreshFromXeroBeforeReminder } from '../integrations/xero/sync.ts';
import { AppError } from '../errors.ts';
import { MailRejectedError, MailUnavailableError, type SentMail } from '../mail/index.ts';
import { loadBusinessSettings } from '../settings/repository.ts';
import { composeReminderMail } from './compose.ts';
import { invoiceForReminders, scheduleReminders } from './scheduler.ts';
import { loadReminderSettings, optedOutClients, policyOf } from './settings.ts';

export type SenderPorts = CommandPorts & Pick<AppDeps, 'renderPdf' | 'secrets'>;

/** Rows claimed at a time, and how long a claim lasts. */
export const REMINDER_BATCH = 10;
export const REMINDER_LEASE_MS = 10 * 60_000;
/** A mail server that could not be reached: try again after 5 min × 2^n, at most 6 hours. */
export const reminderRetryMs = (attempts: number): number => Math.min(6 * 3_600_000, 5 * 60_000 * 2 ** Math.max(0, attempts - 1));
/** After this many unreachable attempts the reminder is recorded as not delivered. */
export const REMINDER_MAX_ATTEMPTS = 8;
/** How long a reminder waits when the account's address is not confirmed (the limits say their own Retry-After). */
export const REMINDER_HOLD_UNCONFIRMED_MS = 3_600_000;

export const INTERRUPTED_DETAIL = 'The server stopped while this reminder was being sent, so it may not have gone. It was not sent again, to avoid a duplicate.';

interface QueueRow {
  document_id: string;
  account_id: string;
  step_id: string;
  attempts: number;
  sending_since: string | null;
}

export interface SendRunResult {
  sent: number;
  notDelivered: number;
  skipped: number;
  retrying: number;
  /** Held back by the account's sending limits or its unconfirmed address: nothing went. */
  held: number;
}

/** The account owner, as the actor of what the sender records. */
const systemActor = (accountId: string): Actor => ({ accountId, userId: accountId });

/** Claims and sends every due reminder (batch after batch, bounded), returning what happened. */
export async function sendDueReminders(ports: SenderPorts, maxBatches = 50): Promise<SendRunResult> {
  const result: SendRunResult = { sent: 0, notDelivered: 0, skipped: 0, retrying: 0, held: 0 };
  for (let batch = 0; batch < maxBatches; batch++) {
    const token = randomUUID();
    const now = ports.clock.now();
    const rows = await claimDue<QueueRow>(
      ports.store.db,
      {
        table: 'reminder_queue',
        key: 'document_id',
        due: 'due_at <= $3::timestamptz',
        orderBy: 'due_at, document_id',
        returning: 'document_id, account_id, step_id, attempts, sending_since::text AS sending_since',
      },
      leaseOf(token, now, REMINDER_LEASE_MS),
      now,
      REMINDER_BATCH,
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const outcome = await sendClaimed(ports, row, token).catch((e: unknown) => {
        ports.log('error', 'a reminder could not be handled', { documentId: row.document_id, error: e instanceof Error ? e.message : String(e) });
        return 'retrying' as const;
      });
      result[outcome]++;
    }
    if (rows.length < REMINDER_BATCH) break;
  }
  return result;
}

async function release(ports: SenderPorts, row: QueueRow, token: string): Promise<void> {
  await ports.store.db.query('DELETE FROM reminder_queue WHERE document_id = $1 AND claimed_by = $2', [row.document_id, token]);
  // The next step (or none), from the invoice as it is now.
  await scheduleReminders(ports, { accountId: row.account_id, documentId: row.document_id });
}

async function sendClaimed(ports: SenderPorts, row: QueueRow, token: string): Promise<keyof SendRunResult> {
  const actor = systemActor(row.account_id);
  const db = ports.store.db;
  // A closed account sends nothing (account/liveness.ts): its row goes.
  if (await isAccountClosed(db, row.account_id)) {
    await release(ports, row, token);
    return 'skipped';
  }
  if (row.sending_since !== null) {
    const loaded = await loadDocument(ports.store, row.account_id, row.document_id).catch(() => null);
    if (loaded) {
      await record(ports, actor, row.document_id, { stepId: row.step_id, to: [], subject: '', balance: '0.00', outcome: 'failed', detail: INTERRUPTED_DETAIL });
    }
    await release(ports, row, token);
    return 'notDelivered';
  }
  // Xero's word on money first: a payment reconciled there since is recorded here, and the rule
  // below then sends nothing for a paid invoice.
  await refreshFromXeroBeforeReminder(ports, row.account_id, row.document_id);
  const loaded = await loadDocument(ports.store, row.account_id, row.document_id).catch(() => null);
  const target = await reminderTarget(db, row.account_id, row.document_id);
  const settings = await loadReminderSettings(db, row.account_id);
  if (!loaded || !target) {
    await release(ports, row, token);
    return 'skipped';
  }
  const optedOut = target.clientId !== null && (await optedOutClients(db, [row.account_id])).has(`${row.account_id}/${target.clientId}`);
  const now = ports.clock.now();
  const decision = nextReminder(policyOf(settings), invoiceForReminders(target, optedOut), now);
  const step = settings.steps.find((s) => s.id === row.step_id);
  if (decision.kind !== 'send' || decision.step.id !== row.step_id || !step) {
    // Paid, voided, paused, opted out or moved on since it was planned: nothing goes.
    await release(ports, row, token);
    return 'skipped';
  }
  const marked = await updateHeld(db, token, { table: 'reminder_queue', where: 'document_id = $2', set: 'sending_since = $3::timestamptz', params: [row.document_id, now.toISOString()] });
  if (!marked) return 'skipped';
  const sent = await deliver(ports, row.account_id, loaded.state, step, target.sentTo, decision.daysOverdue);
  if (sent.kind === 'held') {
    // Not now, says the account's door for mail: nothing went, so nothing is recorded; the row
    // waits for the limit's window to end, without counting an attempt.
    await releaseClaim(db, token, {
      table: 'reminder_queue', where: 'document_id = $2', set: 'due_at = $3::timestamptz, last_error = $4, sending_since = NULL',
      params: [row.document_id, new Date(now.getTime() + sent.retryMs).toISOString(), sent.refusal.detail],
    });
    return 'held';
  }
  if (sent.kind === 'unavailable') {
    const attempts = Number(row.attempts) + 1;
    if (attempts >= REMINDER_MAX_ATTEMPTS) {
      await record(ports, actor, row.document_id, { ...sent.mail, stepId: step.id, outcome: 'failed', detail: `The mail server could not be reached after ${attempts} tries: ${sent.detail}` });
      await release(ports, row, token);
      return 'notDelivered';
    }
    await releaseClaim(db, token, {
      table: 'reminder_queue', where: 'document_id = $2', set: 'attempts = $3::int, due_at = $4::timestamptz, last_error = $5, sending_since = NULL',
      params: [row.document_id, attempts, new Date(now.getTime() + reminderRetryMs(attempts)).toISOString(), sent.detail],
    });
    return 'retrying';
  }
  await record(ports, actor, row.document_id, { ...sent.mail, stepId: step.id, outcome: sent.outcome, detail: sent.detail });
  await release(ports, row, token);
  return sent.outcome === 'delivered' ? 'sent' : 'notDelivered';
}

export type Delivered =
  | { kind: 'done'; outcome: 'delivered' | 'saved_not_delivered' | 'failed'; detail: string | null; mail: { to: string[]; subject: string; balance: string } }
  | { kind: 'unavailable'; detail: string; mail: { to: string[]; subject: string; balance: string } }
  /** The account's door for mail refused it (sendGuard.ts: 403 unconfirmed, 429 limits); nothing went. */
  | { kind: 'held'; refusal: AppError; retryMs: number };

/** Composes and sends one reminder of `d` for `step`; what happened, never thrown for a mail refusal. */
export async function deliver(ports: SenderPorts, accountId: string, d: DocumentView, step: ReminderStepRecord, to: string[], daysOverdue: number): Promise<Delivered> {
  const balanceCents = amountDueNowCents(d);
  const settings = await loadBusinessSettings(ports.store.db, accountId);
  // The account's owner signs the reminder ([Your Name]); a single-user account's id is its user's.
  const user = await userNames(ports.store.db, accountId);
  const link = await activeLinkOf(ports, ports.store.db, accountId, d);
  const pdf = await renderPdfFor(ports, accountId, d);
  const { mail, subject } = composeReminderMail({
    document: d, step, to, balanceCents, daysOverdue, payLink: link?.url ?? null, settings, user,
    pdf: { bytes: pdf.bytes, filename: pdfFileName(d) }, mailFrom: ports.config.env.MAIL_FROM,
  });
  const facts = { to, subject, balance: centsToString(balanceCents) };
  let sent: SentMail;
  try {
    sent = await sendForAccount(ports, accountId, mail, d);
  } catch (e) {
    if (e instanceof AppError) return { kind: 'held', refusal: e, retryMs: retryAfterMs(e) };
    if (e instanceof MailRejectedError) return { kind: 'done', outcome: 'failed', detail: e.serverAnswer ?? e.detail, mail: facts };
    if (e instanceof MailUnavailableError) return { kind: 'unavailable', detail: e.message, mail: facts };
    throw e;
  }
  if (sent.notDelivered === 'outbox') return { kind: 'done', outcome: 'saved_not_delivered', detail: 'Saved to the outbox — email is not set up on this server', mail: facts };
  return { kind: 'done', outcome: 'delivered', detail: null, mail: facts };
}

/** How long a refusal of the account's door for mail asks to wait: its Retry-After, or an hour. */
function retryAfterMs(e: AppError): number {
  const seconds = e.retryAfter ?? 0;
  return seconds > 0 ? seconds * 1000 : REMINDER_HOLD_UNCONFIRMED_MS;
}

export interface ReminderFacts {
  stepId: string;
  to: string[];
  subject: string;
  balance: string;
  outcome: 'delivered' | 'saved_not_delivered' | 'failed';
  detail: string | null;
}

/** Records a reminder's outcome on the invoice (and sets off its reactions: the next step, a failure's banner). */
export async function record(ports: SenderPorts, actor: Actor, documentId: string, facts: ReminderFacts): Promise<void> {
  await runDocumentCommand(ports, actor, {}, async (w) => {
    await w.decide(documentId, { type: 'RecordReminder', data: facts });
  });
}
