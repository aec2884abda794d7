// GET /invoices/{id}/timeline: what happened to a document, oldest first, one line each — made
// from its own events and the views its links' beacon counted. Money reads as the domain formats it.
import type { TIMELINE_KINDS } from '@tradie/contracts';
import { DECLINE_REASON_LABELS, type DocumentTimeline } from '@tradie/contracts';
import {
  type DocumentEvent, type DocumentState, type Variation, PAYMENT_METHOD_LABELS, documentDecider, documentFigures, documentTotals, formatNzd, formatNzDate, toCents, variationName,
} from '@tradie/domain';
import { domainEventOf } from '@tradie/projections';
import type { RecordedEvent, Sql } from '@tradie/store';
import type { LoadedDocument } from '../documents/repository.ts';

type Entry = DocumentTimeline['entries'][number];
type Kind = (typeof TIMELINE_KINDS)[number];

const entry = (kind: Kind, at: string, text: string): Entry => ({ kind, at, text });
const oneLine = (s: string, max = 120): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
const names = (to: readonly string[]): string => to.join(', ');

const variationIn = (d: DocumentState, variationId: string): Variation | undefined =>
  d.status === 'none' || d.status === 'deleted' ? undefined : d.variations.find((v) => v.variationId === variationId);
const nameOf = (d: DocumentState, variationId: string): string => {
  const v = variationIn(d, variationId);
  return v ? variationName(v) : 'A variation';
};

/** The entry an event makes, given the document before and after it; null for events a person need not see. */
function entryOf(e: DocumentEvent, at: string, before: DocumentState, after: DocumentState): Entry | null {
  switch (e.type) {
    case 'DocumentDrafted':
      return entry('created', at, `Created ${e.data.reference}`);
    case 'DocumentSent':
      return entry('sent', at, `Emailed to ${names(e.data.to)}`);
    case 'DocumentSendNotDelivered':
      return entry('send_failed', at, oneLine(`Email to ${names([...e.data.to, ...e.data.cc, ...e.data.bcc])} not delivered: ${e.data.detail}`));
    case 'DocumentIssued':
      return entry('sent', at, 'Marked issued (handed over without the email)');
    case 'ClientLinkIssued':
      return entry('link_issued', at, `Link made (works until ${formatNzDate(e.data.expiresOn)})`);
    case 'ClientLinkWithdrawn':
      return entry('link_withdrawn', at, e.data.reason === 'superseded' ? 'Link replaced: the quote changed' : 'Link withdrawn');
    case 'QuoteAcceptedByClient':
      return entry('accepted', at, oneLine(`Accepted by ${e.data.signerName}${e.data.signatureSha256 ? ' (signed)' : ''}`));
    case 'QuoteAccepted':
      return entry('accepted', at, 'Marked accepted');
    case 'QuoteDeclinedByClient': {
      const why = e.data.reasons.map((r) => DECLINE_REASON_LABELS[r]).join(', ');
      return entry('declined', at, oneLine(`Declined by the client${why ? `: ${why}` : ''}${e.data.note ? ` — ${e.data.note}` : ''}`));
    }
    case 'QuoteDeclined':
      return entry('declined', at, 'Marked declined');
    case 'QuoteChangesRequested':
      return entry('changes_requested', at, oneLine(`Changes asked for: ${e.data.note}`));
    case 'PaymentRecorded': {
      const amount = formatNzd(toCents(e.data.amount));
      const method = PAYMENT_METHOD_LABELS[e.data.method].toLowerCase();
      const paidUp = after.status !== 'none' && after.status !== 'deleted' && documentFigures(after).balanceCents <= 0n;
      return paidUp ? entry('paid', at, `Paid ${amount} by ${method}`) : entry('payment', at, `Payment of ${amount} by ${method}`);
    }
    case 'PaymentRemoved': {
      const removed = before.status !== 'none' && before.status !== 'deleted' ? before.payments.find((p) => p.paymentId === e.data.paymentId) : undefined;
      return entry('payment', at, removed ? `Payment of ${formatNzd(toCents(removed.amount))} removed` : 'Payment removed');
    }
    case 'DocumentVoided':
      return entry('voided', at, oneLine(e.data.reason ? `Voided: ${e.data.reason}` : 'Voided'));
    case 'ReminderSent':
      return entry('reminded', at, `${e.data.stepId === 'manual' ? 'Reminder sent by hand' : 'Payment reminder'} emailed to ${names(e.data.to)} (${formatNzd(toCents(e.data.balance))} owing)`);
    case 'ReminderNotDelivered':
      return entry('reminder_failed', at, oneLine(`Payment reminder${e.data.to.length > 0 ? ` to ${names(e.data.to)}` : ''} not delivered: ${e.data.detail}`));
    case 'RemindersPaused':
      return entry('reminders_paused', at, 'Payment reminders paused');
    case 'RemindersResumed':
      return entry('reminders_resumed', at, 'Payment reminders resumed');
    case 'CreditNoteIssued':
      return entry('credited', at, oneLine(`Credit note ${e.data.reference} for ${formatNzd(toCents(e.data.total))}: ${e.data.reason}`));
    case 'CreditNoteRefunded':
      return entry('refunded', at, `Refunded ${formatNzd(toCents(e.data.amount))} on a credit note`);
    case 'CreditNoteEmailed': {
      const note = after.status !== 'none' && after.status !== 'deleted' ? after.creditNotes.find((n) => n.creditNoteId === e.data.creditNoteId) : undefined;
      const what = `Credit note${note ? ` ${note.reference}` : ''}`;
      const to = names([...e.data.to, ...e.data.cc, ...e.data.bcc]);
      return e.data.outcome === 'delivered' ? entry('sent', at, oneLine(`${what} emailed to ${to}`)) : entry('send_failed', at, oneLine(`${what}: email to ${to} not delivered: ${e.data.detail ?? ''}`));
    }
    case 'PaymentClaimSet':
      // Once: when it became a claim, not each time its details were saved.
      return before.status !== 'none' && before.status !== 'deleted' && before.paymentClaim ? null : entry('claim', at, 'Made a payment claim under the Construction Contracts Act 2002');
    case 'PaymentClaimCleared':
      return entry('claim', at, 'No longer a payment claim');
    case 'PaymentScheduleReceived':
      return entry('payment_schedule', at, oneLine(`Payment schedule received ${formatNzDate(e.data.receivedOn)}: ${formatNzd(toCents(e.data.scheduledAmount))} scheduled${e.data.reasons ? ` (${e.data.reasons})` : ''}`));
    case 'RetentionReleased':
      return entry('retention_released', at, `Retention of ${formatNzd(toCents(e.data.amount))} released ${formatNzDate(e.data.date)}`);
    case 'QuoteVaried':
      return entry('variation', at, oneLine(`Line added: ${e.data.line.description}`));
    case 'VariationProposed': {
      const v = variationIn(after, e.data.variationId);
      return v && after.status !== 'none' && after.status !== 'deleted'
        ? entry('variation', at, oneLine(`${variationName(v)} proposed: ${formatNzd(documentTotals(v.lines, after.gstRounding).totalCents)}`))
        : null;
    }
    case 'VariationSent':
      return entry('variation_sent', at, `${nameOf(after, e.data.variationId)} emailed to ${names(e.data.to)}`);
    case 'VariationSendNotDelivered':
      return entry('send_failed', at, oneLine(`${nameOf(after, e.data.variationId)}: email to ${names([...e.data.to, ...e.data.cc, ...e.data.bcc])} not delivered: ${e.data.detail}`));
    case 'VariationAcceptedByClient':
      return entry('variation_approved', at, oneLine(`${nameOf(after, e.data.variationId)} approved by ${e.data.signerName}${e.data.signatureSha256 ? ' (signed)' : ''}`));
    case 'VariationApproved':
      return entry('variation_approved', at, `${nameOf(after, e.data.variationId)} marked approved`);
    case 'VariationDeclinedByClient':
      return entry('variation_declined', at, oneLine(`${nameOf(after, e.data.variationId)} declined by the client${e.data.note ? ` — ${e.data.note}` : ''}`));
    case 'VariationDeclined':
      return entry('variation_declined', at, `${nameOf(after, e.data.variationId)} marked declined`);
    case 'VariationWithdrawn':
      return entry('variation_withdrawn', at, `${nameOf(after, e.data.variationId)} withdrawn`);
    default:
      return null;
  }
}

/** Events the domain knows under another name than those above (added by other features): read loosely. */
function looseEntryOf(e: RecordedEvent, at: string): Entry | null {
  const data = e.data as { amount?: unknown };
  if (e.type === 'PaymentRefunded') return entry('refunded', at, typeof data.amount === 'string' ? `Refunded ${formatNzd(toCents(data.amount))}` : 'Refunded');
  return null;
}

/** Views in a row, with nothing else between them, read as one entry: 'Viewed (3 times)'. */
function withViews(entries: Entry[], views: readonly string[]): Entry[] {
  const all = [...entries.map((x, i) => ({ x, i, view: false })), ...views.map((at, i) => ({ x: entry('viewed', at, 'Viewed'), i: entries.length + i, view: true }))];
  all.sort((a, b) => (a.x.at < b.x.at ? -1 : a.x.at > b.x.at ? 1 : a.i - b.i));
  const out: Entry[] = [];
  let run = 0;
  for (const { x, view } of all) {
    const last = out[out.length - 1];
    if (view && last?.kind === 'viewed') {
      run += 1;
      last.text = `Viewed (${run} times)`;
      continue;
    }
    run = view ? 1 : 0;
    out.push({ ...x });
  }
  return out;
}

export async function timelineOf(sql: Sql, accountId: string, loaded: LoadedDocument): Promise<DocumentTimeline> {
  const entries: Entry[] = [];
  let state: DocumentState = documentDecider.initialState();
  for (const raw of loaded.events) {
    const at = raw.meta.at;
    // Every event of the stream was checked against its schema when it was loaded.
    const known = domainEventOf(raw) as DocumentEvent;
    const before = state;
    state = documentDecider.evolve(state, { ...known, meta: { at } });
    const made = entryOf(known, at, before, state) ?? looseEntryOf(raw, at);
    if (made) entries.push(made);
  }
  const rows = await sql.query<{ at: string | Date }>(
    `SELECT v.at FROM client_link_views v JOIN client_links l ON l.id = v.link_id AND l.account_id = v.account_id
     WHERE l.account_id = $1 AND l.document_id = $2 ORDER BY v.at`,
    [accountId, loaded.state.id],
  );
  const views = rows.map((r) => (r.at instanceof Date ? r.at : new Date(r.at)).toISOString());
  return { entries: withViews(entries, views) };
}
