// @vitest-environment jsdom
// The invoice detail's Reminders part against a mocked fetch: when it shows, where 'paused' comes
// from, Pause / Resume, and Send reminder now in honest words.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentDetail, OverdueSummary } from '@tradie/contracts';
import { createHarness, json, noContent } from '../shared/reminderTestKit.tsx';
import { REMINDER_TEXT } from '../shared/reminders.ts';
import { hasReminders, pausedFromServer, RemindersPart } from './RemindersPart.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const doc = (over: Partial<DocumentDetail> = {}) => ({ id: 'd1', type: 'invoice', status: 'sent', balance: 230, reference: 'INV-0001', ...over }) as DocumentDetail;
const overdue = (paused: boolean): OverdueSummary => ({
  count: 1,
  total_owed: 230,
  formatted_total_owed: '$230.00',
  items: [{ document_id: 'd1', reference: 'INV-0001', client_name: 'Jo', due_date: '2026-10-01', days_overdue: 5, balance: 230, formatted_balance: '$230.00', last_reminder_at: null, reminders_paused: paused }],
});
const empty: OverdueSummary = { count: 0, total_owed: 0, formatted_total_owed: '$0.00', items: [] };

describe('Invoice detail → Reminders', () => {
  it('is for an issued or sent invoice with money owing only', () => {
    expect(hasReminders(doc())).toBe(true);
    expect(hasReminders(doc({ status: 'issued' }))).toBe(true);
    expect(hasReminders(doc({ status: 'draft' }))).toBe(false);
    expect(hasReminders(doc({ status: 'paid', balance: 0 }))).toBe(false);
    expect(hasReminders(doc({ type: 'quote' }))).toBe(false);
    expect(hasReminders(doc({ status: 'void' }))).toBe(false);
  });

  it('paused: the Overdue item says first, then the detail, else nobody says', () => {
    expect(pausedFromServer(doc(), overdue(true))).toBe(true);
    expect(pausedFromServer(doc({ reminders_paused: true } as Partial<DocumentDetail>), empty)).toBe(true);
    expect(pausedFromServer(doc(), empty)).toBeNull();
  });

  it('shows nothing for a draft', async () => {
    h.serve(() => json(empty));
    h.render(<RemindersPart doc={doc({ status: 'draft' })} />);
    expect(h.text()).toBe('');
  });

  it('not overdue and nobody says: on by default; Pause sends paused and the part says so', async () => {
    h.serve((method) => (method === 'PUT' ? noContent() : json(empty)));
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.onForInvoice));
    h.click(h.button(REMINDER_TEXT.pause));
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.pausedForInvoice));
    expect(h.calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/reminders/invoices/d1/paused', body: { paused: true } });
    h.click(h.button(REMINDER_TEXT.resume));
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.onForInvoice));
    expect(h.calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ paused: false });
  });

  it('overdue and paused: offers Resume', async () => {
    h.serve(() => json(overdue(true)));
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.pausedForInvoice));
    expect(h.button(REMINDER_TEXT.resume)).toBeTruthy();
  });

  it("Send reminder now, kept in the outbox: the API's detail, not 'sent'", async () => {
    h.serve((method) =>
      method === 'POST' ? json({ outcome: 'saved_not_delivered', to: ['jo@example.com'], detail: 'Saved to the outbox — email is not set up on this server' }) : json(empty),
    );
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.sendNow));
    h.click(h.button(REMINDER_TEXT.sendNow));
    await h.until(() => expect(h.text()).toContain('Saved to the outbox — email is not set up on this server'));
    expect(h.text()).not.toContain('Reminder sent');
  });
});
