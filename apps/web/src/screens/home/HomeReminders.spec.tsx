// @vitest-environment jsdom
// The home screen's reminder parts against a mocked fetch: the Overdue card (absent with nothing
// overdue), Send reminder now in honest words, the delivery failures with Dismiss, and the one-time
// notice with Got it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REMINDER_MESSAGES, REMINDER_PLACEHOLDERS, type DeliveryFailures, type OverdueSummary } from '@tradie/contracts';
import { createHarness, json, noContent, problem } from '../shared/testKit.tsx';
import { DeliveryFailuresBanner, HOME_REMINDER_TEXT, OVERDUE_SHOWN, OverdueCard, RemindersNotice } from './HomeReminders.tsx';

vi.mock('@tanstack/react-router', async () => ({ Link: (await import('../shared/testLink.tsx')).TestLink }));

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const item = (n: number, over: Partial<OverdueSummary['items'][number]> = {}): OverdueSummary['items'][number] => ({
  document_id: `d${n}`,
  reference: `INV-000${n}`,
  client_name: `Client ${n}`,
  due_date: '2026-10-01',
  days_overdue: 10 + n,
  balance: 100 * n,
  formatted_balance: `$${100 * n}.00`,
  last_reminder_at: null,
  reminders_paused: false,
  ...over,
});
const summary = (items: OverdueSummary['items']): OverdueSummary => ({
  count: items.length,
  total_owed: items.reduce((t, i) => t + i.balance, 0),
  formatted_total_owed: `$${items.reduce((t, i) => t + i.balance, 0)}.00`,
  items,
});

describe('Overdue card', () => {
  it('is absent when nothing is overdue', async () => {
    h.serve(() => json(summary([])));
    h.render(<OverdueCard />);
    await h.until(() => expect(h.calls).toHaveLength(1));
    await h.until(() => expect(h.text()).toBe(''));
  });

  it('shows the count, the total owed and the oldest few, each linking to its invoice', async () => {
    const items = [1, 2, 3, 4].map((n) => item(n));
    h.serve(() => json(summary(items)));
    h.render(<OverdueCard />);
    await h.until(() => expect(h.text()).toContain('4 invoices'));
    expect(h.text()).toContain('$1000.00');
    expect(h.container.querySelectorAll('.home-overdue__item')).toHaveLength(OVERDUE_SHOWN);
    const first = h.container.querySelector('.home-overdue__item');
    expect(first?.textContent).toContain('INV-0001');
    expect(first?.textContent).toContain('Client 1');
    expect(first?.textContent).toContain('11 days overdue');
    expect(first?.textContent).toContain('$100.00');
    expect(first?.querySelector('a')?.getAttribute('href')).toBe('/app/invoices/d1');
  });

  it("Send reminder now, kept in the outbox: says what the API says, never 'sent'", async () => {
    const detail = 'Saved to the outbox — email is not set up on this server';
    h.serve((method, path) => {
      if (method === 'POST' && path === '/reminders/invoices/d1/send-now') return json({ outcome: 'saved_not_delivered', to: ['jo@example.com'], detail });
      return json(summary([item(1)]));
    });
    h.render(<OverdueCard />);
    await h.until(() => expect(h.text()).toContain('INV-0001'));
    h.click(h.button('Send reminder now'));
    await h.until(() => expect(h.text()).toContain(detail));
    expect(h.text()).not.toContain('Reminder sent');
  });

  it("Send reminder now, delivered: 'Reminder sent to …'", async () => {
    h.serve((method, path) => {
      if (method === 'POST' && path === '/reminders/invoices/d1/send-now') return json({ outcome: 'delivered', to: ['jo@example.com'], detail: null });
      return json(summary([item(1)]));
    });
    h.render(<OverdueCard />);
    await h.until(() => expect(h.text()).toContain('INV-0001'));
    h.click(h.button('Send reminder now'));
    await h.until(() => expect(h.text()).toContain('Reminder sent to jo@example.com'));
  });

  it("a 503 or a 409 shows the API's detail", async () => {
    let answer = problem(503, "We couldn't send the email right now. Please try again in a few minutes.");
    h.serve((method) => (method === 'POST' ? answer : json(summary([item(1)]))));
    h.render(<OverdueCard />);
    await h.until(() => expect(h.text()).toContain('INV-0001'));
    h.click(h.button('Send reminder now'));
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe("We couldn't send the email right now. Please try again in a few minutes."));
    answer = problem(409, REMINDER_MESSAGES.notEmailed);
    h.click(h.button('Send reminder now'));
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe(REMINDER_MESSAGES.notEmailed));
    expect(h.text()).not.toContain('Reminder sent');
  });
});

describe('Delivery failures', () => {
  const failures: DeliveryFailures = {
    items: [{ id: 'f1', document_id: 'd9', reference: 'INV-0009', kind: 'reminder', recipient: 'jo@example.com', detail: 'mailbox unavailable', at: '2026-11-25T01:00:00.000Z', text: 'Reminder to jo@example.com failed: mailbox unavailable' }],
  };

  it('shows each failure with a link to its invoice; Dismiss hides it', async () => {
    h.serve((method) => (method === 'POST' ? new Response(null, { status: 204 }) : json(failures)));
    h.render(<DeliveryFailuresBanner />);
    await h.until(() => expect(h.text()).toContain('Reminder to jo@example.com failed: mailbox unavailable'));
    expect(h.container.querySelector('a')?.getAttribute('href')).toBe('/app/invoices/d9');
    h.click(h.button(HOME_REMINDER_TEXT.dismiss));
    await h.until(() => expect(h.text()).toBe(''));
    expect(h.calls.find((c) => c.method === 'POST')?.path).toBe('/mail/failures/f1/dismiss');
  });

  it('is absent when there are none', async () => {
    h.serve(() => json({ items: [] }));
    h.render(<DeliveryFailuresBanner />);
    await h.until(() => expect(h.calls).toHaveLength(1));
    expect(h.text()).toBe('');
  });
});

describe('The one-time notice', () => {
  const settings = (notice: string | null) => ({ enabled: true, steps: [], minimum_balance: 0, notice, placeholders: [...REMINDER_PLACEHOLDERS] });

  it('shows the notice with a link to Settings → Reminders; Got it marks it read and hides it', async () => {
    h.serve((method) => (method === 'POST' ? noContent() : json(settings(REMINDER_MESSAGES.noticeOn))));
    h.render(<RemindersNotice />);
    await h.until(() => expect(h.text()).toContain(REMINDER_MESSAGES.noticeOn));
    expect(h.container.querySelector('a')?.getAttribute('href')).toBe('/app/settings');
    h.click(h.button(HOME_REMINDER_TEXT.gotIt));
    await h.until(() => expect(h.text()).toBe(''));
    expect(h.calls.some((c) => c.method === 'POST' && c.path === '/reminders/settings/notice-seen')).toBe(true);
  });

  it('shows nothing once it has been read', async () => {
    h.serve(() => json(settings(null)));
    h.render(<RemindersNotice />);
    await h.until(() => expect(h.calls).toHaveLength(1));
    expect(h.text()).toBe('');
  });
});
