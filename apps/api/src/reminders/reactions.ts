// What reminders do after events commit (the outbox runs these: reactions/registry.ts).
// - The schedule of an invoice is planned again after anything that changes its next reminder:
//   it is emailed (and the account's first emailed invoice turns reminders on by default), paid,
//   voided, paused, reminded. Idempotent: planning twice gives the same row.
// - A send or a reminder refused for good by the mail server shows on the home screen (once per
//   event: the row's id is the event's).
import { documentDecider, documentStreamId } from '@tradie/domain';
import { loadStream } from '../commands.ts';
import type { AppDeps } from '../deps.ts';
import { documentIdOf } from '../reactions/documentOf.ts';
import { recordFailure } from './failures.ts';
import { scheduleReminders } from './scheduler.ts';
import { turnOnByDefault } from './settings.ts';

/** What these reactions read of an outbox row (reactions/registry.ts OutboxRow). */
interface EventRow {
  accountId: string;
  streamId: string;
  eventId: string;
  eventType: string;
  payload: Record<string, unknown>;
}

type Deps = Pick<AppDeps, 'store' | 'clock'>;


export const reminderSchedule = {
  name: 'reminder-schedule',
  on: [
    'DocumentSent', 'DocumentIssued', 'DocumentRevised', 'PaymentRecorded', 'PaymentRemoved', 'PaymentRefunded', 'DocumentVoided', 'DocumentDeleted',
    'RemindersPaused', 'RemindersResumed', 'ReminderSent', 'ReminderNotDelivered',
  ],
  async handle(deps: Deps, row: EventRow): Promise<void> {
    const documentId = documentIdOf(row);
    if (row.eventType === 'DocumentSent') {
      const loaded = await loadStream(deps.store, documentStreamId(documentId), documentDecider, { accountId: row.accountId, notFound: 'Invoice or quote not found' });
      if (loaded.state.status !== 'none' && loaded.state.type === 'invoice') await turnOnByDefault(deps.store.db, row.accountId, deps.clock.now());
    }
    await scheduleReminders(deps, { accountId: row.accountId, documentId });
  },
} as const;

export const deliveryFailure = {
  name: 'delivery-failure',
  on: ['DocumentSendNotDelivered', 'ReminderNotDelivered'],
  async handle(deps: Deps, row: EventRow): Promise<void> {
    if (row.payload.outcome !== 'failed') return;
    const documentId = documentIdOf(row);
    const loaded = await loadStream(deps.store, documentStreamId(documentId), documentDecider, { accountId: row.accountId, notFound: 'Invoice or quote not found' });
    const reference = loaded.state.status === 'none' ? '' : loaded.state.reference;
    const at = loaded.events.find((e) => e.eventId === row.eventId)?.meta.at ?? deps.clock.now().toISOString();
    await recordFailure(deps.store.db, {
      id: row.eventId,
      accountId: row.accountId,
      documentId,
      reference,
      kind: row.eventType === 'ReminderNotDelivered' ? 'reminder' : 'document',
      recipients: ['to', 'cc', 'bcc'].flatMap((k) => (Array.isArray(row.payload[k]) ? (row.payload[k] as unknown[]).map(String) : [])),
      detail: String(row.payload.detail ?? ''),
      at,
    });
  },
} as const;
