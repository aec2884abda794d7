// Payment reminders (docs/api/reminders.md): the server data the Settings tab, the home screen, the
// invoice detail and a client's page read, and the words they use for it. The api client arrives as
// an argument, so tests can hand in their own.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { DeliveryFailures, InvoiceReminders, OverdueSummary, ReminderSendResult, ReminderSettingsInput, ReminderSettingsRecord, UpcomingReminders } from '@tradie/contracts';
import type { Api } from './queries.ts';

export const reminderKeys = {
  all: ['reminders'] as const,
  settings: () => [...reminderKeys.all, 'settings'] as const,
  upcoming: () => [...reminderKeys.all, 'upcoming'] as const,
  overdue: () => [...reminderKeys.all, 'overdue'] as const,
  client: (id: string) => [...reminderKeys.all, 'client', id] as const,
  invoice: (id: string) => [...reminderKeys.all, 'invoice', id] as const,
  failures: ['mail', 'failures'] as const,
};

const enc = encodeURIComponent;

export const reminderSettingsQuery = (api: Api) =>
  queryOptions({ queryKey: reminderKeys.settings(), queryFn: ({ signal }) => api.get<ReminderSettingsRecord>('/reminders/settings', { signal }) });

export const upcomingRemindersQuery = (api: Api) =>
  queryOptions({ queryKey: reminderKeys.upcoming(), queryFn: ({ signal }) => api.get<UpcomingReminders>('/reminders/upcoming', { signal }) });

export const overdueQuery = (api: Api) =>
  queryOptions({ queryKey: reminderKeys.overdue(), queryFn: ({ signal }) => api.get<OverdueSummary>('/reminders/overdue', { signal }) });

export const deliveryFailuresQuery = (api: Api) =>
  queryOptions({ queryKey: reminderKeys.failures, queryFn: ({ signal }) => api.get<DeliveryFailures>('/mail/failures', { signal }) });

export const clientRemindersQuery = (api: Api, clientId: string) =>
  queryOptions({ queryKey: reminderKeys.client(clientId), queryFn: ({ signal }) => api.get<{ no_reminders: boolean }>(`/reminders/clients/${enc(clientId)}`, { signal }) });

/** What the reminders will do for one invoice, and whether one can be sent now (and why not). */
export const invoiceRemindersQuery = (api: Api, documentId: string) =>
  queryOptions({ queryKey: reminderKeys.invoice(documentId), queryFn: ({ signal }) => api.get<InvoiceReminders>(`/reminders/invoices/${enc(documentId)}`, { signal }) });

export const saveReminderSettings = (api: Api, body: ReminderSettingsInput) => api.put<ReminderSettingsRecord>('/reminders/settings', body);
export const noticeSeen = (api: Api) => api.post<void>('/reminders/settings/notice-seen');
export const sendReminderNow = (api: Api, documentId: string) => api.post<ReminderSendResult>(`/reminders/invoices/${enc(documentId)}/send-now`);
export const setRemindersPaused = (api: Api, documentId: string, paused: boolean) => api.put<void>(`/reminders/invoices/${enc(documentId)}/paused`, { paused });
export const setClientNoReminders = (api: Api, clientId: string, noReminders: boolean) =>
  api.put<void>(`/reminders/clients/${enc(clientId)}`, { no_reminders: noReminders });
export const dismissFailure = (api: Api, id: string) => api.post<void>(`/mail/failures/${enc(id)}/dismiss`);

/** After a reminder went (or a setting changed): the cards and lists that show reminders reload. */
export const invalidateReminders = (queryClient: QueryClient) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: reminderKeys.all }), queryClient.invalidateQueries({ queryKey: reminderKeys.failures })]);

export const REMINDER_TEXT = {
  pausedForInvoice: 'Reminders are paused for this invoice: none will go, automatic or sent by you, until you resume them.',
  resumedForInvoice: 'Resumed: reminders for this invoice follow your reminder settings again.',
  offForAccount: 'Automatic reminders are off, so none will go for this invoice unless you send one. You can turn them on in Settings → Reminders.',
  clientNoReminders: 'This client is set to get no reminders, so none will go for this invoice.',
  notEmailed: 'Automatic reminders go only for invoices emailed from the app. You can send one yourself.',
  belowMinimum: 'This invoice owes less than your minimum for reminders, so none will go automatically.',
  allSent: 'Every reminder in your schedule has gone for this invoice. You can still send one yourself.',
  nothingOwing: 'Nothing is owing on this invoice, so no reminders will go.',
  pause: 'Pause reminders',
  resume: 'Resume reminders',
  sendNow: 'Send reminder now',
  willBeHeaded: (subject: string) => `It will be headed “${subject}”.`,
  sending: 'Sending...',
  nothingUpcoming: 'Nothing due in the next 7 days',
  savedToOutbox: 'Saved to the outbox — email is not set up on this server',
  noReminders: 'No reminders for this client',
} as const;

/** When a step goes, in words: '3 days before the due date', 'On the due date', '7 days overdue'. */
export function stepWhen(offsetDays: number): string {
  if (offsetDays === 0) return 'On the due date';
  const n = Math.abs(offsetDays);
  const days = `${n} day${n === 1 ? '' : 's'}`;
  return offsetDays < 0 ? `${days} before the due date` : `${days} overdue`;
}

/** What the automatic reminders will actually do for an invoice, in words. */
export function automaticReminderText(a: InvoiceReminders['automatic']): string {
  switch (a.state) {
    case 'planned':
      return `Next automatic reminder: ${a.next_at === null ? 'soon' : nzDateTime(a.next_at)}${a.next_offset_days === null ? '' : ` (${stepWhen(a.next_offset_days).toLowerCase()})`}.`;
    case 'off':
      return REMINDER_TEXT.offForAccount;
    case 'paused':
      return REMINDER_TEXT.pausedForInvoice;
    case 'client_no_reminders':
      return REMINDER_TEXT.clientNoReminders;
    case 'not_emailed':
      return REMINDER_TEXT.notEmailed;
    case 'below_minimum':
      return REMINDER_TEXT.belowMinimum;
    case 'all_sent':
      return REMINDER_TEXT.allSent;
    case 'nothing_owing':
      return REMINDER_TEXT.nothingOwing;
  }
}

/**
 * What a reminder sent now did, in words: 'sent' only when a mail server took it; otherwise the
 * API's own account of where it went (the outbox).
 */
export function sendOutcomeText(result: ReminderSendResult): { text: string; delivered: boolean } {
  if (result.outcome === 'delivered') return { text: `Reminder sent to ${result.to.join(', ')}`, delivered: true };
  return { text: result.detail ?? REMINDER_TEXT.savedToOutbox, delivered: false };
}

const nzDateTimeFormat = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});

/** An instant as New Zealand sees it: 'Thu, 27 Nov, 8:00 am'. */
export const nzDateTime = (instant: string): string => nzDateTimeFormat.format(new Date(instant));

/** 'Due today' never reaches here (overdue starts the day after): '1 day overdue', '12 days overdue'. */
export const daysOverdue = (n: number): string => `${n} day${n === 1 ? '' : 's'} overdue`;
