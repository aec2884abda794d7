// The business hears of a client's answers by email: accepted, declined, or changes asked for
// through the link; a variation approved or declined. A reaction (reactions/registry.ts), so it runs after the answer commits, at
// least once: each answer is remembered once told (client_answer_notices), so a run after the mail
// went sends nothing.
//
// A client with a link can answer again and again (asking for changes keeps the quote open), so
// the notices are coalesced: at most one per quote per hour, listing every answer not yet told.
// The first answer is told at once; one that comes within the hour of the last notice waits for
// the hour to end (the outbox puts its row off, NotBefore) and then goes in one notice with every
// other answer that came meanwhile. An acceptance or a decline ends the client's answering (the
// quote is no longer open to them), so it is told at once whatever the hour, with whatever was
// waiting. One notice of a quote goes at a time across API processes: a process takes the quote's
// row in client_notice_windows (a lease) before it looks and sends.
//
// The notice leaves through the account's one door for mail (documents/sendGuard.ts), so it counts
// in the day's recipients and the burst, and needs a confirmed address where mail really leaves.
// Held back by a limit, it waits for the limit's window to end; for an unconfirmed address the
// answers are marked as not told (the screens show them anyway) and nothing is sent.
import { randomUUID } from 'node:crypto';
import { DECLINE_REASON_LABELS } from '@tradie/contracts';
import { documentDecider, documentStreamId, formatNzDateTime, variationName } from '@tradie/domain';
import { claimKey, leaseOf, type RecordedEvent, releaseClaim } from '@tradie/store';
import { loadStream } from '../commands.ts';
import type { AppDeps } from '../deps.ts';
import { sendForAccount } from '../documents/sendGuard.ts';
import { DEFAULT_MAIL_FROM } from '../documents/email.ts';
import { AppError, LimitReached } from '../errors.ts';
import { NotBefore } from '../reactions/notBefore.ts';
import { documentIdOf } from '../reactions/documentOf.ts';

/** What the notice needs of an outbox row (reactions/registry.ts OutboxRow). */
interface AnswerRow {
  accountId: string;
  streamId: string;
  eventId: string;
  eventType: string;
  payload: Record<string, unknown>;
}

type NoticeDeps = Pick<AppDeps, 'config' | 'store' | 'clock' | 'mailer'>;

export const CLIENT_ANSWER_EVENTS = ['QuoteAcceptedByClient', 'QuoteDeclinedByClient', 'QuoteChangesRequested', 'VariationAcceptedByClient', 'VariationDeclinedByClient'] as const;

/** At most one notice per quote in this long (an acceptance or a decline goes at once). */
export const NOTICE_WINDOW_MS = 3_600_000;
/** How long a process holds a quote's notice while it sends; a process that died loses it then. */
export const NOTICE_LEASE_MS = 5 * 60_000;
/** When another process holds the quote's notice: look again after this long. */
const BUSY_RETRY_MS = 30_000;

/** An answer to tell: its type, its data and when it was given. */
export interface Answer {
  type: string;
  data: Record<string, unknown>;
  at: string;
}

/** Told at once whatever the hour: the quote's or a variation's answer, which the client gives once. */
const closing = (type: string): boolean => type !== 'QuoteChangesRequested';

const noteOf = (data: Record<string, unknown>): string => (typeof data.note === 'string' && data.note.trim() !== '' ? data.note.trim() : '');

function reasonsOf(data: Record<string, unknown>): string[] {
  return Array.isArray(data.reasons) ? data.reasons.map((r) => DECLINE_REASON_LABELS[r as keyof typeof DECLINE_REASON_LABELS] ?? String(r)) : [];
}

/** The subject and lines of the notice for one answer (`variation`: the name of the variation answered, 'Variation 1'). */
export function noticeOf(type: string, reference: string, data: Record<string, unknown>, documentUrl: string, variation = 'A variation'): { subject: string; body: string[] } | null {
  const note = noteOf(data);
  if (type === 'VariationAcceptedByClient') {
    const name = String(data.signerName ?? '');
    return {
      subject: `${variation} to quote ${reference} approved by ${name}`,
      body: [`${name} approved ${variation} to quote ${reference} online${data.signatureSha256 ? ' and signed it' : ''}. You can invoice it now.`, '', `See it here: ${documentUrl}`],
    };
  }
  if (type === 'VariationDeclinedByClient') {
    return {
      subject: `${variation} to quote ${reference} declined`,
      body: [`Your client declined ${variation} to quote ${reference} online.`, ...(note ? ['', `Their note: ${note}`] : []), '', `See it here: ${documentUrl}`],
    };
  }
  if (type === 'QuoteAcceptedByClient') {
    const name = String(data.signerName ?? '');
    return {
      subject: `Quote ${reference} accepted by ${name}`,
      body: [`${name} accepted quote ${reference} online${data.signatureSha256 ? ' and signed it' : ''}.`, '', `See it here: ${documentUrl}`],
    };
  }
  if (type === 'QuoteDeclinedByClient') {
    const reasons = reasonsOf(data);
    return {
      subject: `Quote ${reference} declined`,
      body: [
        `Your client declined quote ${reference} online.`,
        ...(reasons.length ? ['', `Why: ${reasons.join(', ')}`] : []),
        ...(note ? ['', `Their note: ${note}`] : []),
        '',
        `See it here: ${documentUrl}`,
      ],
    };
  }
  if (type === 'QuoteChangesRequested') {
    return {
      subject: `Changes asked for on quote ${reference}`,
      body: [`Your client asked for changes to quote ${reference}:`, '', note, '', `See it here: ${documentUrl}`],
    };
  }
  return null;
}

/** One answer as a line of a notice that lists several: '• Thu, 14 May, 9:41 am — asked for changes: …'. */
function answerLine(a: Answer, variation: (data: Record<string, unknown>) => string): string[] {
  const when = `• ${formatNzDateTime(a.at)} —`;
  const note = noteOf(a.data);
  if (a.type === 'VariationAcceptedByClient') return [`${when} ${variation(a.data)} approved by ${String(a.data.signerName ?? '')}${a.data.signatureSha256 ? ' (signed)' : ''}`];
  if (a.type === 'VariationDeclinedByClient') return [`${when} ${variation(a.data)} declined`, ...(note ? [`  Their note: ${note}`] : [])];
  if (a.type === 'QuoteAcceptedByClient') return [`${when} accepted by ${String(a.data.signerName ?? '')}${a.data.signatureSha256 ? ' (signed)' : ''}`];
  if (a.type === 'QuoteDeclinedByClient') {
    const reasons = reasonsOf(a.data);
    return [`${when} declined${reasons.length ? `. Why: ${reasons.join(', ')}` : ''}`, ...(note ? [`  Their note: ${note}`] : [])];
  }
  return [`${when} asked for changes:`, ...note.split('\n').map((l) => `  ${l}`)];
}

/**
 * The subject and lines of one notice for every answer in `answers` (oldest first): the single
 * answer's own notice when there is one, else a list of them all.
 */
export function coalescedNoticeOf(
  answers: readonly Answer[], reference: string, documentUrl: string, variation: (data: Record<string, unknown>) => string = () => 'A variation',
): { subject: string; body: string[] } | null {
  const known = answers.filter((a) => (CLIENT_ANSWER_EVENTS as readonly string[]).includes(a.type));
  if (known.length === 0) return null;
  if (known.length === 1) return noticeOf(known[0]!.type, reference, known[0]!.data, documentUrl, variation(known[0]!.data));
  const accepted = known.find((a) => a.type === 'QuoteAcceptedByClient');
  const declined = known.find((a) => a.type === 'QuoteDeclinedByClient');
  const changes = known.filter((a) => a.type === 'QuoteChangesRequested').length;
  const subject = accepted
    ? `Quote ${reference} accepted by ${String(accepted.data.signerName ?? '')}`
    : declined
      ? `Quote ${reference} declined`
      : changes === known.length
        ? `Changes asked for on quote ${reference} (${changes} requests)`
        : `Your client answered quote ${reference} (${known.length} answers)`;
  return {
    subject,
    body: [`Your client answered quote ${reference} online ${known.length} times since we last told you:`, '', ...known.flatMap((a) => answerLine(a, variation)), '', `See it here: ${documentUrl}`],
  };
}

/** Takes the quote's notice for this process, or answers null while another process holds it. */
async function takeWindow(deps: NoticeDeps, accountId: string, documentId: string, now: Date): Promise<{ lastSentMs: number | null; token: string } | null> {
  const token = randomUUID();
  const row = await claimKey<{ last_ms: number | string | null }>(
    deps.store.db,
    { table: 'client_notice_windows', key: { document_id: documentId }, also: { account_id: accountId }, returning: '(extract(epoch FROM last_sent_at) * 1000)::float8 AS last_ms' },
    leaseOf(token, now, NOTICE_LEASE_MS),
    now,
  );
  if (!row) return null;
  return { lastSentMs: row.last_ms === null ? null : Number(row.last_ms), token };
}

async function releaseWindow(deps: NoticeDeps, documentId: string, token: string, sentAt: Date | null): Promise<void> {
  await releaseClaim(
    deps.store.db,
    token,
    sentAt
      ? { table: 'client_notice_windows', where: 'document_id = $2', set: 'last_sent_at = $3::timestamptz', params: [documentId, sentAt.toISOString()] }
      : { table: 'client_notice_windows', where: 'document_id = $2', params: [documentId] },
  );
}

/** Marks the answers told (or, for 'not_sent', given up on), so no later run tells them again. */
async function markTold(deps: NoticeDeps, accountId: string, events: readonly RecordedEvent[], outcome: 'sent' | 'not_sent', at: Date): Promise<void> {
  if (events.length === 0) return;
  await deps.store.db.query(
    `INSERT INTO client_answer_notices (event_id, account_id, sent_at, outcome)
     SELECT e, $2, $3::timestamptz, $4 FROM unnest($1::text[]) AS e
     ON CONFLICT (event_id) DO NOTHING`,
    [events.map((e) => e.eventId), accountId, at.toISOString(), outcome],
  );
}

async function notify(deps: NoticeDeps, row: AnswerRow): Promise<void> {
  const db = deps.store.db;
  const [done] = await db.query<{ event_id: string }>('SELECT event_id FROM client_answer_notices WHERE event_id = $1', [row.eventId]);
  if (done) return;
  const documentId = documentIdOf(row);
  const loaded = await loadStream(deps.store, documentStreamId(documentId), documentDecider);
  const d = loaded.state;
  if (d.status === 'none' || loaded.events[0]?.meta.accountId !== row.accountId) return;
  const [owner] = await db.query<{ email: string; full_name: string }>('SELECT email, full_name FROM users WHERE id = $1', [row.accountId]);
  if (!owner) return;

  const now = deps.clock.now();
  const window = await takeWindow(deps, row.accountId, documentId, now);
  if (!window) throw new NotBefore(new Date(now.getTime() + BUSY_RETRY_MS), "another process is sending this quote's notice");
  let sentAt: Date | null = null;
  try {
    // Every answer of the quote not told yet (this one among them, unless a run meanwhile told it).
    const answers = loaded.events.filter((e) => (CLIENT_ANSWER_EVENTS as readonly string[]).includes(e.type));
    const told = new Set(
      (await db.query<{ event_id: string }>('SELECT event_id FROM client_answer_notices WHERE event_id = ANY($1::text[])', [answers.map((e) => e.eventId)])).map((r) => r.event_id),
    );
    const waiting = answers.filter((e) => !told.has(e.eventId));
    if (!waiting.some((e) => e.eventId === row.eventId)) return;
    const nextAllowed = window.lastSentMs === null ? -Infinity : window.lastSentMs + NOTICE_WINDOW_MS;
    if (now.getTime() < nextAllowed && !waiting.some((e) => closing(e.type))) {
      throw new NotBefore(new Date(nextAllowed), 'one notice per quote per hour: this answer goes with the next one');
    }
    const notice = coalescedNoticeOf(
      waiting.map((e) => ({ type: e.type, data: e.data, at: typeof e.meta.at === 'string' ? e.meta.at : e.recordedAt })),
      d.reference,
      `${deps.config.appUrl}/app/invoices/${documentId}`,
      (data) => {
        const v = d.variations.find((x) => x.variationId === data.variationId);
        return v ? variationName(v) : 'A variation';
      },
    );
    if (!notice) return;
    try {
      await sendForAccount(deps, row.accountId, {
        from: { name: 'Tradie Quotes', address: deps.config.env.MAIL_FROM ?? DEFAULT_MAIL_FROM },
        to: [owner.email],
        subject: notice.subject,
        text: [`Kia ora ${owner.full_name},`, '', ...notice.body, '', 'Ngā mihi,', 'Tradie Quotes'].join('\n'),
        headers: { 'X-Entity-Ref-ID': `${documentId}/client-answers` },
      });
    } catch (e) {
      if (e instanceof LimitReached) {
        const seconds = e.retryAfter ?? 0;
        throw new NotBefore(new Date(now.getTime() + (seconds > 0 ? seconds : 60) * 1000), `held back by the account's sending limits: ${e.detail}`);
      }
      if (e instanceof AppError) {
        // An unconfirmed address where mail really leaves: nothing goes to it, and the answers are
        // not told by email (the quote's screen and timeline show them).
        await markTold(deps, row.accountId, waiting, 'not_sent', now);
        return;
      }
      throw e;
    }
    sentAt = now;
    await markTold(deps, row.accountId, waiting, 'sent', now);
  } finally {
    await releaseWindow(deps, documentId, window.token, sentAt);
  }
}

/** The reaction (registered in reactions/registry.ts REACTIONS). */
export const clientAnswerNotice = { name: 'client-answer-notice', on: CLIENT_ANSWER_EVENTS, handle: notify };
