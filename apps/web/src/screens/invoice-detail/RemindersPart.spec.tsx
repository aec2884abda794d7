// @vitest-environment jsdom
// The invoice detail's Reminders part against a mocked fetch: when it shows, what it says the
// reminders will actually do (never 'on' when they are off), Pause / Resume, 'Send reminder now'
// off with the server's reason, and what a reminder sent now did, in honest words.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DocumentDetail, type InvoiceReminders, REMINDER_MESSAGES } from '@tradie/contracts';
import { createHarness, json, noContent } from '../shared/testKit.tsx';
import { REMINDER_TEXT } from '../shared/reminders.ts';
import { hasReminders, RemindersPart } from './RemindersPart.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const doc = (over: Partial<DocumentDetail> = {}) => ({ id: 'd1', type: 'invoice', status: 'sent', balance: 230, reference: 'INV-0001', extra_data: {}, ...over }) as DocumentDetail;

const status = (over: Partial<InvoiceReminders> = {}): InvoiceReminders => ({
  automatic: { state: 'off', next_at: null, next_offset_days: null },
  paused: false,
  client_no_reminders: false,
  send_now: { allowed: true, reason: null, subject: 'Invoice INV-0001 is overdue' },
  ...over,
});

/** GET /reminders/invoices/d1 answers `now()`; anything else goes to `other`. */
function serve(now: () => InvoiceReminders, other: (method: string, path: string, body: unknown) => Response = () => json({}, 404)) {
  h.serve((method, path, body) => (method === 'GET' && path === '/reminders/invoices/d1' ? json(now()) : other(method, path, body)));
}

describe('Invoice detail → Reminders', () => {
  it('is for an issued or sent invoice with money owing only', () => {
    expect(hasReminders(doc())).toBe(true);
    expect(hasReminders(doc({ status: 'issued' }))).toBe(true);
    expect(hasReminders(doc({ status: 'draft' }))).toBe(false);
    expect(hasReminders(doc({ status: 'paid', balance: 0 }))).toBe(false);
    expect(hasReminders(doc({ type: 'quote' }))).toBe(false);
    expect(hasReminders(doc({ status: 'void' }))).toBe(false);
    // Voided in Xero: nobody owes it, and no reminder goes (nor Send reminder).
    expect(hasReminders(doc({ extra_data: { xero_invoice_id: 'x1', voided_in: 'xero' } }))).toBe(false);
    expect(hasReminders(doc({ extra_data: { xero_invoice_id: 'x1' } }))).toBe(true);
  });

  it('shows nothing for a draft', async () => {
    serve(() => status());
    h.render(<RemindersPart doc={doc({ status: 'draft' })} />);
    expect(h.text()).toBe('');
  });

  it("automatic reminders off: says none will go unless you send one — never 'on' — and the button says what it will send", async () => {
    serve(() => status());
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.offForAccount));
    expect(h.text()).not.toMatch(/Reminders are on/);
    expect(h.button(REMINDER_TEXT.sendNow).disabled).toBe(false);
    expect(h.text()).toContain('It will be headed “Invoice INV-0001 is overdue”.');
  });

  it('planned: when the next automatic one goes, and which step', async () => {
    serve(() => status({ automatic: { state: 'planned', next_at: '2026-05-11T20:00:00.000Z', next_offset_days: 0 } }));
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain('Next automatic reminder: Tue, 12 May, 8:00 am (on the due date).'));
  });

  it("Pause: sends paused, says so, and the button is off with the server's reason; Resume brings it back", async () => {
    let paused = false;
    serve(
      () => (paused ? status({ paused: true, automatic: { state: 'paused', next_at: null, next_offset_days: null }, send_now: { allowed: false, reason: REMINDER_MESSAGES.paused, subject: null } }) : status()),
      (method, _path, body) => {
        if (method === 'PUT') paused = (body as { paused: boolean }).paused;
        return noContent();
      },
    );
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.offForAccount));
    h.click(h.button(REMINDER_TEXT.pause));
    await h.until(() => expect(h.text()).toContain(REMINDER_MESSAGES.paused));
    expect(h.text()).toContain(REMINDER_TEXT.pausedForInvoice);
    expect(h.calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/reminders/invoices/d1/paused', body: { paused: true } });
    const button = h.button(REMINDER_TEXT.sendNow);
    expect(button.disabled).toBe(true);
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(REMINDER_MESSAGES.paused);
    h.click(h.button(REMINDER_TEXT.resume));
    await h.until(() => expect(h.button(REMINDER_TEXT.sendNow).disabled).toBe(false));
    expect(h.calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ paused: false });
  });

  it("one a day: the button is off and says from when, in the server's words", async () => {
    const reason = REMINDER_MESSAGES.oncePerDay('Wed, 13 May, 8:00 am');
    serve(() => status({ automatic: { state: 'all_sent', next_at: null, next_offset_days: null }, send_now: { allowed: false, reason, subject: null } }));
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(reason));
    expect(h.text()).toContain(REMINDER_TEXT.allSent);
    expect(h.button(REMINDER_TEXT.sendNow).disabled).toBe(true);
  });

  it("Send reminder now, kept in the outbox: the API's detail, not 'sent'", async () => {
    serve(() => status(), () => json({ outcome: 'saved_not_delivered', to: ['jo@example.com'], detail: 'Saved to the outbox — email is not set up on this server' }));
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.button(REMINDER_TEXT.sendNow).disabled).toBe(false));
    h.click(h.button(REMINDER_TEXT.sendNow));
    await h.until(() => expect(h.text()).toContain('Saved to the outbox — email is not set up on this server'));
    expect(h.text()).not.toContain('Reminder sent');
  });
});
