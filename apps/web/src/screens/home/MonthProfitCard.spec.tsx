// @vitest-environment jsdom
// The home screen's 'This month' against a mocked fetch: the API's invoiced sales and gross profit,
// sales with no cost recorded said apart; nothing at all when the figures cannot be had.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MonthProfitResponse } from '@tradie/contracts';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { MonthProfitCard } from './MonthProfitCard.tsx';

vi.mock('@tanstack/react-router', async () => ({ Link: (await import('../shared/testLink.tsx')).TestLink }));

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const figures = (sell: number, gross: number, uncosted: number) => ({
  sell, costed_sell: sell - uncosted, cost: sell - uncosted - gross, gross_profit: gross, margin_percent: 25.9, markup_percent: 35, costed_lines: 2, uncosted_lines: uncosted ? 1 : 0, uncosted_sell: uncosted,
  formatted: { sell: `$${sell.toLocaleString('en-NZ', { minimumFractionDigits: 2 })}`, cost: '', gross_profit: `$${gross.toFixed(2)}`, uncosted_sell: `$${uncosted.toFixed(2)}` },
});

describe("This month's profit on the home screen", () => {
  it("shows the month's invoiced sales and gross profit, and the sales with no cost recorded", async () => {
    const month: MonthProfitResponse = { month: '2026-06', label: 'Jun 2026', invoices: 2, invoiced: figures(2361.88, 602.5, 39.38) };
    h.serve(() => json(month));
    h.render(<MonthProfitCard />);
    await h.until(() => expect(h.text()).toContain('This month (Jun 2026)'));
    expect(h.container.querySelector('[data-testid="home-month-sales"]')?.textContent).toBe('$2,361.88');
    expect(h.container.querySelector('[data-testid="home-month-profit-value"]')?.textContent).toBe('$602.50');
    expect(h.text()).toContain('2 invoices issued, excluding GST; a 25.9% margin.');
    expect(h.text()).toContain('$39.38 of sales have no cost recorded and are left out of the profit.');
    expect(h.calls.map((c) => c.path)).toEqual(['/reports/profit/this-month']);
  });

  it('shows nothing when the figures cannot be loaded', async () => {
    h.serve(() => problem(500, 'Something went wrong'));
    h.render(<MonthProfitCard />);
    await h.until(() => expect(h.calls.length).toBe(1));
    expect(h.container.textContent).toBe('');
  });
});
