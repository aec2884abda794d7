// @vitest-environment jsdom
// The invoice detail's Reminders part against a mocked fetch: when it shows, where 'paused' comes
// from, Pause / Resume, and Send reminder now in honest words.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentDetail, DocumentTimeline, OverdueSummary } from '@tradie/contracts';
import { createHarness, json, noContent } from '../shared/testKit.tsx';
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
const noHistory: DocumentTimeline = { entries: [] };
const history = (...kinds: ('reminders_paused' | 'reminders_resumed')[]): DocumentTimeline => ({
  entries: kinds.map((kind, n) => ({ kind, at: `2026-11-2${n}T01:00:00.000Z`, text: kind === 'reminders_paused' ? 'Payment reminders paused' : 'Payment reminders resumed' })),
});

/** GET /reminders/overdue and GET /invoices/d1/timeline; anything else goes to `other`. */
function serveParts(overdueNow: () => OverdueSummary, timelineNow: () => DocumentTimeline, other: (method: string, path: string, body: unknown) => Response = () => json({}, 404)) {
  h.serve((method, path, body) => {
    if (method === 'GET' && path === '/reminders/overdue') return json(overdueNow());
    if (method === 'GET' && path === '/invoices/d1/timeline') return json(timelineNow());
    return other(method, path, body);
  });
}

describe('Invoice detail → Reminders', () => {
  it('is for an issued or sent invoice with money owing only', () => {
    expect(hasReminders(doc())).toBe(true);
    expect(hasReminders(doc({ status: 'issued' }))).toBe(true);
    expect(hasReminders(doc({ status: 'draft' }))).toBe(false);
    expect(hasReminders(doc({ status: 'paid', balance: 0 }))).toBe(false);
    expect(hasReminders(doc({ type: 'quote' }))).toBe(false);
    expect(hasReminders(doc({ status: 'void' }))).toBe(false);
  });

  it('paused: the detail says first, then the last pause or resume in the timeline, then the Overdue item, else nobody says', () => {
    expect(pausedFromServer(doc({ reminders_paused: true } as Partial<DocumentDetail>), noHistory, overdue(false))).toBe(true);
    expect(pausedFromServer(doc(), history('reminders_paused'), overdue(false))).toBe(true);
    expect(pausedFromServer(doc(), history('reminders_paused', 'reminders_resumed'), overdue(true))).toBe(false);
    expect(pausedFromServer(doc(), noHistory, overdue(true))).toBe(true);
    expect(pausedFromServer(doc(), noHistory, empty)).toBeNull();
    expect(pausedFromServer(doc(), undefined, undefined)).toBeNull();
  });

  it('shows nothing for a draft', async () => {
    serveParts(() => empty, () => noHistory);
    h.render(<RemindersPart doc={doc({ status: 'draft' })} />);
    expect(h.text()).toBe('');
  });

  it('not overdue and nobody says: on by default; Pause sends paused and the part says so', async () => {
    serveParts(() => empty, () => noHistory, () => noContent());
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.onForInvoice));
    h.click(h.button(REMINDER_TEXT.pause));
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.pausedForInvoice));
    expect(h.calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/reminders/invoices/d1/paused', body: { paused: true } });
    h.click(h.button(REMINDER_TEXT.resume));
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.onForInvoice));
    expect(h.calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ paused: false });
  });

  it('paused in its timeline, though the Overdue item says otherwise: offers Resume, and keeps it after Resume', async () => {
    let timeline = history('reminders_paused');
    serveParts(() => overdue(false), () => timeline, () => {
      timeline = history('reminders_paused', 'reminders_resumed');
      return noContent();
    });
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.pausedForInvoice));
    h.click(h.button(REMINDER_TEXT.resume));
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.onForInvoice));
    await h.until(() => expect(h.calls.filter((c) => c.path === '/invoices/d1/timeline')).toHaveLength(2));
    expect(h.text()).toContain(REMINDER_TEXT.onForInvoice);
  });

  it("Send reminder now, kept in the outbox: the API's detail, not 'sent'", async () => {
    serveParts(() => empty, () => noHistory, () => json({ outcome: 'saved_not_delivered', to: ['jo@example.com'], detail: 'Saved to the outbox — email is not set up on this server' }));
    h.render(<RemindersPart doc={doc()} />);
    await h.until(() => expect(h.text()).toContain(REMINDER_TEXT.sendNow));
    h.click(h.button(REMINDER_TEXT.sendNow));
    await h.until(() => expect(h.text()).toContain('Saved to the outbox — email is not set up on this server'));
    expect(h.text()).not.toContain('Reminder sent');
  });
});
