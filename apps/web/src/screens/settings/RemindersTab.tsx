// Settings → Reminders: automatic payment reminders. On or off, the steps (when each goes, its subject
// and message), the smallest balance worth chasing, and what will go in the next 7 days.
import './reminders.css';
import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { REMINDER_LIMITS, REMINDER_PLACEHOLDERS, type ReminderSettingsRecord, type ReminderStepRecord } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { fieldErrorsOf, useCommand } from '../shared/command.ts';
import { errorAria, FormField } from '../../ui/FormField.tsx';
import { ErrorAlert, LoadingLine, RetryAlert } from '../../ui/Status.tsx';
import {
  invalidateReminders,
  nzDateTime,
  REMINDER_TEXT,
  reminderKeys,
  reminderSettingsQuery,
  saveReminderSettings,
  stepWhen,
  upcomingRemindersQuery,
} from '../shared/reminders.ts';

export const REMINDERS_TAB_TEXT = {
  saved: 'Reminder settings saved',
  saveFailed: 'Error saving the reminder settings',
  checkFields: 'Error saving the reminder settings: check the boxes marked below',
  on: 'Send payment reminders automatically',
  add: 'Add reminder',
  remove: 'Remove',
} as const;

/** The days a new step can go on, in the order they are offered: 3 days before the due date first. */
export const STEP_CHOICES = [-3, -7, -1, 0, 1, 3, 7, 14, 21, 30, 45, 60, 90] as const;

interface Props {
  /** The screen's banner: a message, and whether it is a failure (its colour follows the word 'Error' in it). */
  onMessage: (text: string, failure: boolean) => void;
}

export function RemindersTab({ onMessage }: Props) {
  const query = useQuery(reminderSettingsQuery(api));
  if (query.isPending) return <LoadingLine>Loading reminder settings...</LoadingLine>;
  if (query.isError) return <RetryAlert onRetry={() => void query.refetch()}>{errorDetail(query.error) ?? 'Could not load the reminder settings'}</RetryAlert>;
  return (
    <>
      <RemindersForm key={JSON.stringify([query.data.enabled, query.data.steps, query.data.minimum_balance])} settings={query.data} onMessage={onMessage} />
      <UpcomingCard steps={query.data.steps} />
    </>
  );
}

/** A fresh step's words: before the due date a gentle nudge, after it a plain reminder. */
export function newStep(offsetDays: number, taken: readonly string[] = []): ReminderStepRecord {
  let id = `step-${offsetDays < 0 ? 'b' : 'a'}${Math.abs(offsetDays)}`;
  for (let n = 2; taken.includes(id); n++) id = `step-${offsetDays < 0 ? 'b' : 'a'}${Math.abs(offsetDays)}-${n}`;
  const before = offsetDays < 0;
  const on = offsetDays === 0;
  return {
    id,
    offset_days: offsetDays,
    subject: before || on ? 'Invoice [Invoice Number] is due on [Due Date]' : 'Invoice [Invoice Number] is [Days Overdue] days overdue',
    message: [
      'Hi [Client Name],',
      '',
      before || on
        ? 'A friendly reminder that invoice [Invoice Number] for [Balance] is due on [Due Date].'
        : 'Invoice [Invoice Number] for [Balance] was due on [Due Date] and is now [Days Overdue] days overdue.',
      'You can pay it here: [Pay Link]',
      '',
      'Thanks,',
      '[Your Name]',
      '[Business Name]',
    ].join('\n'),
  };
}

/** The first day on offer that no step uses yet (null when every choice is taken). */
export const nextChoice = (steps: readonly { offset_days: number }[]): number | null => STEP_CHOICES.find((d) => !steps.some((s) => s.offset_days === d)) ?? null;

/** Why the save refused a step's subject or message, under it (the field is described by it). */
function StepFieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="callout callout--error reminder-step__error">
      {message}
    </p>
  );
}

function RemindersForm({ settings, onMessage }: { settings: ReminderSettingsRecord; onMessage: Props['onMessage'] }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(settings.enabled);
  const [steps, setSteps] = useState<ReminderStepRecord[]>(settings.steps);
  const [minimum, setMinimum] = useState(String(settings.minimum_balance));
  const [adding, setAdding] = useState<number | null>(() => nextChoice(settings.steps));
  // A step just added (it is sorted into its place, maybe far up the list): brought into view.
  const [added, setAdded] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (added) box.current?.querySelector(`#reminder-step-${added}-subject`)?.closest('li')?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }, [added]);
  const save = useCommand({
    run: () =>
      saveReminderSettings(api, {
        enabled,
        steps: [...steps].sort((a, b) => a.offset_days - b.offset_days),
        minimum_balance: minimum.trim() === '' ? 0 : Number(minimum.replace(/[$,\s]/g, '')),
      }),
    failed: 'please try again',
    onDone: (saved) => {
      queryClient.setQueryData(reminderKeys.settings(), saved);
      void invalidateReminders(queryClient);
      onMessage(REMINDERS_TAB_TEXT.saved, false);
    },
    // Said once: under the field it is about when the server named one, otherwise here and above the button.
    onFailed: (detail, error) => onMessage(Object.keys(fieldErrorsOf(error)).length > 0 ? REMINDERS_TAB_TEXT.checkFields : `${REMINDERS_TAB_TEXT.saveFailed}: ${detail}`, true),
  });
  // A refused save: the first field it names comes into view.
  const refused = save.failure;
  useEffect(() => {
    if (refused) box.current?.querySelector('[aria-invalid="true"]')?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }, [refused]);
  const submit = () => save.run();
  // The tab sits inside the Settings form: Enter in a box here saves the reminders, not the business.
  const onEnter = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Enter' || !(e.target instanceof HTMLInputElement)) return;
    e.preventDefault();
    submit();
  };

  const change = (id: string, patch: Partial<ReminderStepRecord>) => setSteps((all) => all.map((s) => (s.id === id ? { ...s, ...patch } : s)));
  const remove = (id: string) => {
    const left = steps.filter((s) => s.id !== id);
    setSteps(left);
    if (adding === null) setAdding(nextChoice(left));
  };
  const add = () => {
    if (adding === null) return;
    const step = newStep(adding, steps.map((s) => s.id));
    const next = [...steps, step].sort((a, b) => a.offset_days - b.offset_days);
    setSteps(next);
    setAdded(step.id);
    setAdding(nextChoice(next));
  };
  const fields = save.fieldErrors;
  const stepsError = fields.steps;
  const placeholders = settings.placeholders.length > 0 ? settings.placeholders : [...REMINDER_PLACEHOLDERS];
  const full = steps.length >= REMINDER_LIMITS.maxSteps;

  return (
    <div onKeyDown={onEnter} ref={box}>
      <Card titleId="settings-reminders-title" title="Payment reminders">
        <p className="card__intro">Overdue invoices chase themselves: each reminder is emailed to the client on its day, between 8 am and 6 pm on a business day.</p>
        <label className="switch">
          <input type="checkbox" role="switch" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          <span className="switch__track" aria-hidden="true" />
          <span className="switch__label">{REMINDERS_TAB_TEXT.on}</span>
        </label>
      </Card>

      <Card titleId="settings-reminder-steps-title" title="Reminders">
        {steps.length === 0 && <p className="field__hint">No reminders yet. Add one below.</p>}
        <ol className="reminder-steps">
          {steps.map((step) => {
            const i = steps.indexOf(step);
            const base = `reminder-step-${step.id}`;
            const subjectError = fields[`steps.${i}.subject`];
            const messageError = fields[`steps.${i}.message`];
            return (
              <li key={step.id} className="reminder-step">
                <fieldset className="reminder-step__fields">
                  <legend className="reminder-step__when">{stepWhen(step.offset_days)}</legend>
                  <FormField id={`${base}-when`} label="When">
                    {(describedBy) => (
                      <select
                        id={`${base}-when`}
                        className="input"
                        value={step.offset_days}
                        aria-describedby={describedBy}
                        onChange={(e) => change(step.id, { offset_days: Number(e.target.value) })}
                      >
                        {[...new Set([step.offset_days, ...STEP_CHOICES])]
                          .sort((a, b) => a - b)
                          .filter((d) => d === step.offset_days || !steps.some((s) => s.offset_days === d))
                          .map((d) => (
                            <option key={d} value={d}>
                              {stepWhen(d)}
                            </option>
                          ))}
                      </select>
                    )}
                  </FormField>
                  <FormField id={`${base}-subject`} label="Subject">
                    {(describedBy) => (
                      <input
                        id={`${base}-subject`}
                        className="input"
                        type="text"
                        maxLength={REMINDER_LIMITS.subject}
                        value={step.subject}
                        onChange={(e) => change(step.id, { subject: e.target.value })}
                        {...errorAria(describedBy, subjectError, `${base}-subject-error`)}
                      />
                    )}
                  </FormField>
                  <StepFieldError id={`${base}-subject-error`} message={subjectError} />
                  <FormField id={`${base}-message`} label="Message">
                    {(describedBy) => (
                      <textarea
                        id={`${base}-message`}
                        className="input reminder-step__message"
                        rows={7}
                        maxLength={REMINDER_LIMITS.message}
                        value={step.message}
                        onChange={(e) => change(step.id, { message: e.target.value })}
                        {...errorAria(describedBy, messageError, `${base}-message-error`)}
                      />
                    )}
                  </FormField>
                  <StepFieldError id={`${base}-message-error`} message={messageError} />
                  <button type="button" className="button button--ghost reminder-step__remove" onClick={() => remove(step.id)}>
                    {REMINDERS_TAB_TEXT.remove}
                    <span className="visually-hidden"> the reminder {stepWhen(step.offset_days).toLowerCase()}</span>
                  </button>
                </fieldset>
              </li>
            );
          })}
        </ol>
        {stepsError && <p className="callout callout--error">{stepsError}</p>}

        {!full && adding !== null && (
          <div className="reminder-add">
            <FormField id="reminder-add-when" label="New reminder">
              {(describedBy) => (
                <select id="reminder-add-when" className="input" value={adding} aria-describedby={describedBy} onChange={(e) => setAdding(Number(e.target.value))}>
                  {STEP_CHOICES.filter((d) => !steps.some((s) => s.offset_days === d)).map((d) => (
                    <option key={d} value={d}>
                      {stepWhen(d)}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <button type="button" className="button button--secondary reminder-add__button" onClick={add}>
              {REMINDERS_TAB_TEXT.add}
            </button>
          </div>
        )}
        {full && <p className="field__hint">At most {REMINDER_LIMITS.maxSteps} reminders.</p>}

        <p className="reminder-placeholders" id="reminder-placeholders">
          You can use {placeholders.map((p, n) => (
            <span key={p}>
              {n > 0 && (n === placeholders.length - 1 ? ' and ' : ', ')}
              <code>{p}</code>
            </span>
          ))}{' '}
          in a subject or message: each is filled in when the reminder goes.
        </p>
      </Card>

      <Card titleId="settings-reminder-minimum-title" title="Minimum balance">
        <FormField id="reminder-minimum" label="Only remind when the balance owing is at least" hint="In dollars. 0 reminds about any balance.">
          {(describedBy) => (
            <span className="input-affix">
              <span className="input-affix__prefix" aria-hidden="true">
                $
              </span>
              <input
                id="reminder-minimum"
                className="input input--short input--number"
                type="text"
                inputMode="decimal"
                value={minimum}
                onChange={(e) => setMinimum(e.target.value)}
                {...errorAria(describedBy, fields.minimum_balance, 'reminder-minimum-error')}
              />
            </span>
          )}
        </FormField>
        {fields.minimum_balance && (
          <p id="reminder-minimum-error" className="callout callout--error">
            {fields.minimum_balance}
          </p>
        )}
      </Card>

      <ErrorAlert message={Object.keys(fields).length > 0 ? null : save.error} testId="reminders-save-error" />
      <button type="button" className="button button--accent button--block reminders-save" onClick={submit} disabled={save.pending} aria-busy={save.pending}>
        {save.pending ? 'Saving...' : 'Save reminders'}
      </button>
    </div>
  );
}

/** What will go in the next 7 days, as the server works it out now (nothing is sent by asking). */
function UpcomingCard({ steps }: { steps: readonly ReminderStepRecord[] }) {
  const query = useQuery(upcomingRemindersQuery(api));
  return (
    <Card titleId="settings-reminders-upcoming-title" title="Next reminders" className="reminders-upcoming">
      {query.isPending && <LoadingLine>Loading the next reminders...</LoadingLine>}
      {query.isError && <RetryAlert onRetry={() => void query.refetch()}>{errorDetail(query.error) ?? 'Could not load the next reminders'}</RetryAlert>}
      {query.data && query.data.items.length === 0 && <p className="field__hint">{REMINDER_TEXT.nothingUpcoming}</p>}
      {query.data && query.data.items.length > 0 && (
        <ul className="reminder-list">
          {query.data.items.map((item) => {
            const step = steps.find((s) => s.id === item.step_id);
            return (
              <li key={`${item.document_id}-${item.step_id}`} className="reminder-row">
                <span className="list-entry__top">
                  <Link to="/app/invoices/$id" params={{ id: item.document_id }} className="reminder-row__ref">
                    {item.reference}
                  </Link>
                  <span className="list-entry__money">{item.formatted_balance}</span>
                </span>
                <span className="list-entry__meta">{item.client_name}</span>
                <span className="list-entry__meta">
                  <time dateTime={item.at}>{nzDateTime(item.at)}</time>
                  {step && ` · ${stepWhen(step.offset_days)}`}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
