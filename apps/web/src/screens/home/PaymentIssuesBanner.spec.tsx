// @vitest-environment jsdom
// The home screen's card payments to sort out in Stripe, against a mocked fetch: each with its
// invoice and the right Stripe page; Done takes it off; a Done that fails says so and keeps it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentIssues } from '@tradie/contracts';
import { createHarness, json, noContent, problem } from '../shared/testKit.tsx';
import { PaymentIssuesBanner } from './PaymentIssuesBanner.tsx';

vi.mock('@tanstack/react-router', async () => ({ Link: (await import('../shared/testLink.tsx')).TestLink }));

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const issues: PaymentIssues = {
  items: [
    { id: '7', kind: 'dispute', document_id: 'd1', reference: 'INV-0001', amount: 115, detail: 'The client disputed a card payment of $115.00 (fraudulent). Answer it in your Stripe dashboard before Stripe\'s deadline.', at: '2026-11-25T01:00:00.000Z' },
    { id: '5', kind: 'overpaid', document_id: null, reference: null, amount: 15, detail: 'The invoice was paid some other way while the client paid by card: $15.00 more than was owed. Refund the difference in Stripe.', at: '2026-11-24T01:00:00.000Z' },
  ],
};

describe('Card payments to look at', () => {
  it('says what happened with the invoice, links to it and to the right Stripe page; Done takes one off', async () => {
    h.serve((method) => (method === 'POST' ? noContent() : json(issues)));
    h.render(<PaymentIssuesBanner />);
    await h.until(() => expect(h.text()).toContain('2 card payments need you in Stripe'));
    expect(h.text()).toContain('INV-0001: The client disputed a card payment of $115.00 (fraudulent).');
    const links = [...h.container.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Open INV-0001', '/app/invoices/d1'],
      ['Open Stripe (opens in a new tab)', 'https://dashboard.stripe.com/disputes'],
      ['Open Stripe (opens in a new tab)', 'https://dashboard.stripe.com/payments'],
    ]);
    h.click(h.button('Done'));
    await h.until(() => expect(h.text()).toContain('A card payment needs you in Stripe'));
    expect(h.text()).not.toContain('INV-0001');
    expect(h.calls.find((c) => c.method === 'POST')?.path).toBe('/payments/issues/7/done');
  });

  it('keeps the issue and says why when Done fails', async () => {
    h.serve((method) => (method === 'POST' ? problem(404, 'No such payment issue') : json({ items: [issues.items[0]!] })));
    h.render(<PaymentIssuesBanner />);
    await h.until(() => expect(h.text()).toContain('A card payment needs you in Stripe'));
    h.click(h.button('Done'));
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe('No such payment issue'));
    expect(h.text()).toContain('INV-0001');
  });

  it('is absent when there are none', async () => {
    h.serve(() => json({ items: [] }));
    h.render(<PaymentIssuesBanner />);
    await h.until(() => expect(h.calls).toHaveLength(1));
    expect(h.text()).toBe('');
  });
});
