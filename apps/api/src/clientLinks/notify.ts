// The business hears of a client's answer by email: accepted, declined, or changes asked for
// through the link; a variation approved or declined. A reaction (reactions/registry.ts), so it runs after the answer commits, at
// least once: the notice is remembered per event, so a run after the mail went sends nothing.
import { DECLINE_REASON_LABELS } from '@tradie/contracts';
import { documentDecider, documentStreamId, variationName } from '@tradie/domain';
import { sendAccountMail } from '../auth/accountMail.ts';
import { loadStream } from '../commands.ts';
import type { AppDeps } from '../deps.ts';

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

/** The subject and lines of the notice for one answer (`variation`: the name of the variation answered, 'Variation 1'). */
export function noticeOf(type: string, reference: string, data: Record<string, unknown>, documentUrl: string, variation = 'A variation'): { subject: string; body: string[] } | null {
  const note = typeof data.note === 'string' && data.note.trim() !== '' ? data.note.trim() : '';
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
    const reasons = Array.isArray(data.reasons) ? data.reasons.map((r) => DECLINE_REASON_LABELS[r as keyof typeof DECLINE_REASON_LABELS] ?? String(r)) : [];
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

async function notify(deps: NoticeDeps, row: AnswerRow): Promise<void> {
  const db = deps.store.db;
  const [done] = await db.query<{ event_id: string }>('SELECT event_id FROM client_answer_notices WHERE event_id = $1', [row.eventId]);
  if (done) return;
  const documentId = typeof row.payload.documentId === 'string' ? row.payload.documentId : row.streamId.replace(/^document-/, '');
  const loaded = await loadStream(deps.store, documentStreamId(documentId), documentDecider);
  const d = loaded.state;
  if (d.status === 'none' || loaded.events[0]?.meta.accountId !== row.accountId) return;
  const [owner] = await db.query<{ email: string; full_name: string }>('SELECT email, full_name FROM users WHERE id = $1', [row.accountId]);
  if (!owner) return;
  const variation = d.variations.find((v) => v.variationId === row.payload.variationId);
  const notice = noticeOf(row.eventType, d.reference, row.payload, `${deps.config.appUrl}/app/invoices/${documentId}`, variation ? variationName(variation) : undefined);
  if (!notice) return;
  await sendAccountMail(deps, owner, notice.subject, notice.body);
  await db.query('INSERT INTO client_answer_notices (event_id, account_id, sent_at) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING', [
    row.eventId, row.accountId, deps.clock.now().toISOString(),
  ]);
}

/** The reaction (registered in reactions/registry.ts REACTIONS). */
export const clientAnswerNotice = { name: 'client-answer-notice', on: CLIENT_ANSWER_EVENTS, handle: notify };
