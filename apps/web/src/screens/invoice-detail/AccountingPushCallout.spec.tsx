// @vitest-environment jsdom
// The invoice detail's word on changes Xero does not have yet, against a mocked fetch: nothing for
// an invoice not in Xero or one Xero is up to date with; the reason and the retry time when a push
// failed; Try again sends the push and the warning goes once Xero has it, or shows Xero's refusal.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountingPushStatus } from '@tradie/contracts';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { AccountingPushCallout, PUSH_TEXT } from './AccountingPushCallout.tsx';
import { accountingPushKey } from './queries.ts';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const STATUS = '/integrations/xero/push/d1';
const upToDate: AccountingPushStatus = { synced: true, last_error: null, retry_at: null, direction: null };
const behind: AccountingPushStatus = { synced: true, last_error: 'Xero is not available right now. Please try again.', retry_at: '2026-11-26T01:42:00.000Z', direction: 'to_xero' };

describe('Invoice detail → changes Xero does not have', () => {
  it('asks nothing and shows nothing for an invoice not synced to Xero', async () => {
    h.serve(() => json(behind));
    h.render(<AccountingPushCallout doc={{ id: 'd1' }} synced={false} />);
    expect(h.text()).toBe('');
    expect(h.calls).toEqual([]);
  });

  it('shows nothing while Xero is up to date', async () => {
    h.serve(() => json(upToDate));
    const client = h.render(<AccountingPushCallout doc={{ id: 'd1' }} synced />);
    await h.until(() => expect(client.getQueryState(accountingPushKey('d1'))?.status).toBe('success'));
    expect(h.calls.map((c) => c.path)).toEqual([STATUS]);
    expect(h.text()).toBe('');
  });

  it("says what Xero lacks, why, and when it is tried again; Try again pushes and the warning goes once it's through", async () => {
    let now = behind;
    h.serve((method, path) => {
      if (method === 'GET' && path === STATUS) return json(now);
      if (method === 'POST' && path === STATUS) {
        now = upToDate;
        return json({ xero_invoice_id: 'x1', pushed: [{ type: 'payment', payment_id: 'p1', xero_payment_id: 'xp1' }] });
      }
      return json({}, 404);
    });
    h.render(<AccountingPushCallout doc={{ id: 'd1' }} synced />);
    await h.until(() => expect(h.text()).toContain(PUSH_TEXT.behind));
    // 01:42 UTC is 2:42 pm in New Zealand daylight time.
    expect(h.text()).toContain("Xero is not available right now. Please try again. We'll try again at 26 Nov 2026, 2:42 pm.");
    h.click(h.button(PUSH_TEXT.tryAgain));
    await h.until(() => expect(h.text()).toBe(''));
    expect(h.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([STATUS]);
  });

  it("Try again refused: Xero's reason in its words, and no retry time promised", async () => {
    const refusal = 'Xero needs you to connect again. Please connect Xero in Settings first';
    h.serve((method, path) => {
      if (method === 'GET' && path === STATUS) return json(behind);
      if (method === 'POST' && path === STATUS) return problem(400, refusal);
      return json({}, 404);
    });
    h.render(<AccountingPushCallout doc={{ id: 'd1' }} synced />);
    await h.until(() => expect(h.text()).toContain(PUSH_TEXT.behind));
    h.click(h.button(PUSH_TEXT.tryAgain));
    await h.until(() => expect(h.text()).toContain(refusal));
    expect(h.text()).not.toContain("We'll try again");
  });

  it("a read of Xero's changes that failed says so; Try again reads it back (POST /pull) and the warning goes", async () => {
    let now: AccountingPushStatus = { synced: true, last_error: 'Xero is not available right now. Please try again.', retry_at: null, direction: 'from_xero' };
    h.serve((method, path) => {
      if (method === 'GET' && path === STATUS) return json(now);
      if (method === 'POST' && path === '/integrations/xero/pull/d1') {
        now = upToDate;
        return json({ recorded: ['xero-p1'], removed: [], credited: [], voided_there: null });
      }
      return json({}, 404);
    });
    h.render(<AccountingPushCallout doc={{ id: 'd1' }} synced />);
    await h.until(() => expect(h.text()).toContain(PUSH_TEXT.notRead));
    h.click(h.button(PUSH_TEXT.tryAgain));
    await h.until(() => expect(h.text()).toBe(''));
    expect(h.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/integrations/xero/pull/d1']);
  });
});
