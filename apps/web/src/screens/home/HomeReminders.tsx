// The home screen's reminder parts: the one-time 'reminders are on' notice, the emails a mail server
// refused (until dismissed), and the Overdue card with a one-tap reminder for each of the oldest.
import './home-reminders.css';
import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatNzDate } from '@tradie/domain';
import type { ReminderSettingsRecord } from '@tradie/contracts';
import { useEffect } from 'react';
import { api } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { Chip } from '../../ui/Chip.tsx';
import { useCommand } from '../shared/command.ts';
import { ReminderSendButton } from '../shared/ReminderSendButton.tsx';
import { AttentionBanner, useListUntilDone } from './AttentionBanner.tsx';
import { daysOverdue, deliveryFailuresQuery, dismissFailure, noticeSeen, overdueQuery, reminderKeys, reminderSettingsQuery } from '../shared/reminders.ts';

/** How many of the oldest overdue invoices the card lists. */
export const OVERDUE_SHOWN = 3;

export const HOME_REMINDER_TEXT = {
  gotIt: 'Got it',
  openSettings: 'Reminder settings',
  dismiss: 'Dismiss',
  overdueTitle: 'Overdue',
} as const;

/** The notice the server shows once (null once read): 'Got it' or following the link marks it read. */
export function RemindersNotice() {
  const queryClient = useQueryClient();
  const settings = useQuery(reminderSettingsQuery(api));
  const seen = useCommand({
    run: () => noticeSeen(api),
    onStart: () => queryClient.setQueryData<ReminderSettingsRecord>(reminderKeys.settings(), (prev) => (prev ? { ...prev, notice: null } : prev)),
    onFailed: () => void queryClient.invalidateQueries({ queryKey: reminderKeys.settings() }),
  });
  const notice = settings.data?.notice;
  if (!notice) return null;
  return (
    <section className="callout home-notice" aria-labelledby="home-notice-title" data-testid="reminders-notice">
      <h2 id="home-notice-title" className="visually-hidden">
        Payment reminders
      </h2>
      <p className="home-notice__text">{notice}</p>
      <div className="home-notice__actions">
        <button type="button" className="button button--primary button--compact" onClick={() => seen.run()}>
          {HOME_REMINDER_TEXT.gotIt}
        </button>
        <Link to="/app/settings" search={{ tab: 'reminders' }} className="button button--ghost button--compact" onClick={() => seen.run()}>
          {HOME_REMINDER_TEXT.openSettings}
        </Link>
      </div>
    </section>
  );
}

/** Emails a mail server refused for good: what failed, the invoice, and Dismiss. */
export function DeliveryFailuresBanner() {
  const { items, act, busyId, error } = useListUntilDone(deliveryFailuresQuery(api), (id) => dismissFailure(api, id));
  return (
    <AttentionBanner
      name="failures"
      title={items.length === 1 ? 'An email was not delivered' : `${items.length} emails were not delivered`}
      items={items.map((f) => ({ id: f.id, text: f.text, documentId: f.document_id, reference: f.reference }))}
      action={HOME_REMINDER_TEXT.dismiss}
      actionFor={(f) => `the failure for ${f.reference}`}
      onAction={act}
      busyId={busyId}
      error={error}
      failed="Could not dismiss it"
    />
  );
}

/** Overdue invoices: how many, what they come to, and the oldest few — shown only when there are some. */
export function OverdueCard() {
  const overdue = useQuery(overdueQuery(api));
  const error = overdue.error;
  useEffect(() => {
    if (error) console.error('Could not load the overdue invoices', error);
  }, [error]);
  const data = overdue.data;
  if (!data || data.count === 0) return null;
  return (
    <Card titleId="home-overdue-title" title={HOME_REMINDER_TEXT.overdueTitle} className="home-overdue" data-testid="overdue-card">
      <p className="list-entry__top home-overdue__summary">
        <span className="home-overdue__count">
          {data.count} invoice{data.count === 1 ? '' : 's'}
        </span>
        <span className="home-overdue__total">
          <span className="visually-hidden">owing </span>
          {data.formatted_total_owed}
        </span>
      </p>
      <ul className="home-overdue__list">
        {data.items.slice(0, OVERDUE_SHOWN).map((item) => (
          <li key={item.document_id} className="home-overdue__item">
            <Link to="/app/invoices/$id" params={{ id: item.document_id }} className="home-overdue__link">
              <span className="list-entry__top">
                <span className="home-overdue__ref">{item.reference}</span>
                <span className="list-entry__money">{item.formatted_balance}</span>
              </span>
              <span className="list-entry__meta">
                {item.client_name} · {daysOverdue(item.days_overdue)} · due {formatNzDate(item.due_date)}
              </span>
            </Link>
            {item.reminders_paused && <Chip tone="muted">Reminders paused</Chip>}
            <ReminderSendButton documentId={item.document_id} reference={item.reference} />
          </li>
        ))}
      </ul>
      {data.count > OVERDUE_SHOWN && (
        <Link to="/app/invoices" search={{ tab: 'invoices' }} className="home-overdue__more">
          All invoices
        </Link>
      )}
    </Card>
  );
}
