// @vitest-environment jsdom
// Settings → Reminders against a mocked fetch: the steps in words, adding the '3 days before' step,
// removing one, what Save sends, a 422's detail and field errors, and the next reminders.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REMINDER_MESSAGES, REMINDER_PLACEHOLDERS, type ReminderSettingsRecord, type UpcomingReminders } from '@tradie/contracts';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { nextChoice, newStep, REMINDERS_TAB_TEXT, RemindersTab } from './RemindersTab.tsx';

vi.mock('@tanstack/react-router', async () => ({ Link: (await import('../shared/testLink.tsx')).TestLink }));

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const step7 = { id: 'overdue-7', offset_days: 7, subject: 'Invoice [Invoice Number] is overdue', message: 'Hi [Client Name], please pay [Balance].' };
const record = (over: Partial<ReminderSettingsRecord> = {}): ReminderSettingsRecord => ({
  enabled: false,
  steps: [step7],
  minimum_balance: 0,
  notice: null,
  placeholders: [...REMINDER_PLACEHOLDERS],
  ...over,
});
const none: UpcomingReminders = { items: [] };

function serveSettings(settings: ReminderSettingsRecord, upcoming: UpcomingReminders = none, onPut?: (body: unknown) => Response) {
  h.serve((method, path, body) => {
    if (path === '/reminders/settings' && method === 'GET') return json(settings);
    if (path === '/reminders/settings' && method === 'PUT') return onPut ? onPut(body) : json({ ...settings, ...(body as object) });
    if (path === '/reminders/upcoming') return json(upcoming);
    return json({}, 404);
  });
}

describe('Settings → Reminders', () => {
  it('lists each step by when it goes, with its subject and message, and the placeholders', async () => {
    serveSettings(record());
    h.render(<RemindersTab onMessage={vi.fn()} />);
    await h.until(() => expect(h.text()).toContain('7 days overdue'));
    expect((h.container.querySelector('#reminder-step-overdue-7-subject') as HTMLInputElement).value).toBe(step7.subject);
    expect((h.container.querySelector('#reminder-step-overdue-7-message') as HTMLTextAreaElement).value).toBe(step7.message);
    for (const p of REMINDER_PLACEHOLDERS) expect(h.text()).toContain(p);
    await h.until(() => expect(h.text()).toContain('Nothing due in the next 7 days'));
  });

  it("offers '3 days before the due date' first, and Save sends the switch, the steps in order and the minimum", async () => {
    const onMessage = vi.fn();
    serveSettings(record());
    h.render(<RemindersTab onMessage={onMessage} />);
    await h.until(() => expect(h.text()).toContain(REMINDERS_TAB_TEXT.add));
    const choice = h.container.querySelector('#reminder-add-when') as HTMLSelectElement;
    expect(choice.options[0]?.textContent).toBe('3 days before the due date');
    h.click(h.container.querySelector('input[role="switch"]') as HTMLInputElement);
    h.click(h.button(REMINDERS_TAB_TEXT.add));
    expect(h.text()).toContain('3 days before the due date');
    h.type(h.container.querySelector('#reminder-minimum') as HTMLInputElement, '50');
    h.click(h.button('Save reminders'));
    await h.until(() => expect(onMessage).toHaveBeenCalledWith(REMINDERS_TAB_TEXT.saved, false));
    const put = h.calls.find((c) => c.method === 'PUT');
    const body = put?.body as { enabled: boolean; steps: { offset_days: number; id: string }[]; minimum_balance: number };
    expect(body.enabled).toBe(true);
    expect(body.minimum_balance).toBe(50);
    expect(body.steps.map((s) => s.offset_days)).toEqual([-3, 7]);
    expect(body.steps[0]?.id).toMatch(/^[a-z0-9-]{1,40}$/);
  });

  it('removes a step', async () => {
    serveSettings(record({ steps: [newStep(-3), step7] }));
    h.render(<RemindersTab onMessage={vi.fn()} />);
    await h.until(() => expect(h.text()).toContain('3 days before the due date'));
    expect(h.container.querySelectorAll('.reminder-step')).toHaveLength(2);
    h.click(h.button(REMINDERS_TAB_TEXT.remove));
    expect(h.container.querySelectorAll('.reminder-step')).toHaveLength(1);
  });

  it("a 422 that names a field says it once, under the field, and the banner points there", async () => {
    const onMessage = vi.fn();
    serveSettings(record(), none, () =>
      problem(422, 'Each reminder needs a subject', [{ field: 'steps.0.subject', message: 'Each reminder needs a subject' }]),
    );
    h.render(<RemindersTab onMessage={onMessage} />);
    await h.until(() => expect(h.container.querySelector('#reminder-step-overdue-7-subject')).not.toBeNull());
    h.type(h.container.querySelector('#reminder-step-overdue-7-subject') as HTMLInputElement, ' ');
    h.click(h.button('Save reminders'));
    await h.until(() => expect(h.container.querySelector('#reminder-step-overdue-7-subject-error')?.textContent).toBe('Each reminder needs a subject'));
    expect(h.container.querySelector('#reminder-step-overdue-7-subject')?.getAttribute('aria-invalid')).toBe('true');
    expect(h.container.querySelector('[data-testid="reminders-save-error"]')).toBeNull();
    expect(h.text().split('Each reminder needs a subject')).toHaveLength(2);
    expect(onMessage).toHaveBeenCalledWith(REMINDERS_TAB_TEXT.checkFields, true);
  });

  it("a refusal that names no field shows the server's detail above the button and in the banner", async () => {
    const onMessage = vi.fn();
    serveSettings(record(), none, () => problem(409, 'Someone else changed the reminders', []));
    h.render(<RemindersTab onMessage={onMessage} />);
    await h.until(() => expect(h.text()).toContain('Save reminders'));
    h.click(h.button('Save reminders'));
    await h.until(() => expect(h.container.querySelector('[data-testid="reminders-save-error"]')?.textContent).toBe('Someone else changed the reminders'));
    expect(onMessage).toHaveBeenCalledWith(`${REMINDERS_TAB_TEXT.saveFailed}: Someone else changed the reminders`, true);
  });

  it('a 422 about the steps as a whole shows under the list', async () => {
    serveSettings(record(), none, () => problem(422, REMINDER_MESSAGES.duplicateStep, [{ field: 'steps', message: REMINDER_MESSAGES.duplicateStep }]));
    h.render(<RemindersTab onMessage={vi.fn()} />);
    await h.until(() => expect(h.text()).toContain('Save reminders'));
    h.click(h.button('Save reminders'));
    await h.until(() => expect(h.container.querySelectorAll('.callout--error')).toHaveLength(1));
    expect(h.text().split(REMINDER_MESSAGES.duplicateStep)).toHaveLength(2);
  });

  it('lists the next reminders: when in NZ time, the invoice, the client and the balance', async () => {
    serveSettings(record({ enabled: true }), {
      items: [{ document_id: 'd1', reference: 'INV-0004', client_name: 'Hēmi Walker', step_id: 'overdue-7', at: '2026-11-26T19:00:00.000Z', formatted_balance: '$1,150.00' }],
    });
    h.render(<RemindersTab onMessage={vi.fn()} />);
    await h.until(() => expect(h.text()).toContain('INV-0004'));
    const row = h.container.querySelector('.reminder-row')?.textContent ?? '';
    expect(row).toContain('Hēmi Walker');
    expect(row).toContain('$1,150.00');
    // 19:00 UTC on 26 November is 8:00 am on Friday 27 November in New Zealand (NZDT).
    expect(row).toMatch(/Fri.*27 Nov.*8:00/);
    expect(row).toContain('7 days overdue');
  });

  it('offers the next free day once a choice is taken', () => {
    expect(nextChoice([])).toBe(-3);
    expect(nextChoice([{ offset_days: -3 }])).toBe(-7);
  });
});
