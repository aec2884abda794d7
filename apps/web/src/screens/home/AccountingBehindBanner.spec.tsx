// @vitest-environment jsdom
// The home screen's invoices Xero is behind on, against a mocked fetch: each with Xero's reason,
// when the app tries again and a link to the invoice; Try again pushes it and takes it off once
// Xero has it; a Try again Xero refuses says why and keeps it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountingPushFailures } from '@tradie/contracts';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { AccountingBehindBanner, BEHIND_TEXT } from './AccountingBehindBanner.tsx';

vi.mock('@tanstack/react-router', async () => ({ Link: (await import('../shared/testLink.tsx')).TestLink }));

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const behind: AccountingPushFailures = {
  items: [
    { id: 'd2', document_id: 'd2', reference: 'INV-0002', last_error: 'Xero is not available right now. Please try again.', retry_at: '2026-11-26T01:42:00.000Z', direction: 'to_xero' },
    { id: 'd1', document_id: 'd1', reference: 'INV-0001', last_error: 'Xero said: The account 090 is archived', retry_at: null, direction: 'to_xero' },
  ],
};

describe('Invoices Xero is behind on', () => {
  it('an invoice whose changes in Xero could not be read back says so', () => {
    expect(BEHIND_TEXT.item('INV-0003', 'Xero is not available right now. Please try again.', null, 'from_xero')).toBe(
      "INV-0003: couldn't be checked in Xero for payments made there. Xero is not available right now. Please try again.",
    );
  });

  it('says which, why and when it is tried again, links to each; Try again takes one off once Xero has it', async () => {
    h.serve((method) => (method === 'POST' ? json({ xero_invoice_id: 'x1', pushed: [] }) : json(behind)));
    h.render(<AccountingBehindBanner />);
    await h.until(() => expect(h.text()).toContain(BEHIND_TEXT.title(2)));
    expect(BEHIND_TEXT.title(2)).toBe("2 invoices aren't up to date in Xero");
    // 01:42 UTC is 2:42 pm in New Zealand daylight time.
    expect(h.text()).toContain("INV-0002: Xero is not available right now. Please try again. We'll try again at 26 Nov 2026, 2:42 pm.");
    expect(h.text()).toContain('INV-0001: Xero said: The account 090 is archived');
    expect([...h.container.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Open INV-0002', '/app/invoices/d2'],
      ['Open INV-0001', '/app/invoices/d1'],
    ]);
    const buttons = [...h.container.querySelectorAll('button')];
    expect(buttons.map((b) => b.textContent)).toEqual(['Try again sending INV-0002 to Xero', 'Try again sending INV-0001 to Xero']);
    h.click(buttons[1]!);
    await h.until(() => expect(h.text()).toContain("An invoice isn't up to date in Xero"));
    expect(h.text()).not.toContain('INV-0001');
    expect(h.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/integrations/xero/push/d1']);
  });

  it('keeps the invoice and says why when Xero refuses again', async () => {
    h.serve((method) => (method === 'POST' ? problem(422, 'Xero said: The account 090 is archived') : json({ items: [behind.items[1]!] })));
    h.render(<AccountingBehindBanner />);
    await h.until(() => expect(h.text()).toContain(BEHIND_TEXT.title(1)));
    h.click(h.button(BEHIND_TEXT.tryAgain));
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe('Xero said: The account 090 is archived'));
    expect(h.text()).toContain('INV-0001');
  });

  it('is absent when Xero has everything', async () => {
    h.serve(() => json({ items: [] }));
    h.render(<AccountingBehindBanner />);
    await h.until(() => expect(h.calls).toHaveLength(1));
    expect(h.text()).toBe('');
  });
});
