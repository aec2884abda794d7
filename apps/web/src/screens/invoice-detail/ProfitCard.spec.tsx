// @vitest-environment jsdom
// The quote and invoice screens' profit card: the API's figures for the document and per category,
// 'cost not recorded' where a line has none, and the same figures the calculator shows for the same
// lines (both from the domain's documentProfit).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentProfitRecord } from '@tradie/contracts';
import { documentProfit, type Line } from '@tradie/domain';
import { createHarness } from '../shared/testKit.tsx';
import { profitViewOf, profitViewOfRecord } from '../shared/profitShown.ts';
import { PROFIT_CARD_TEXT, ProfitCard } from './ProfitCard.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const figures = (sell: number, cost: number, gp: number, over: Partial<DocumentProfitRecord> = {}) => ({
  sell, costed_sell: sell, cost, gross_profit: gp, margin_percent: null, markup_percent: null, costed_lines: 1, uncosted_lines: 0, uncosted_sell: 0,
  formatted: { sell: `$${sell.toFixed(2)}`, cost: `$${cost.toFixed(2)}`, gross_profit: `$${gp.toFixed(2)}`, uncosted_sell: '$0.00' },
  ...over,
});

/** The Rinnai job as the API answers it: sell $2,531.88, cost $1,810.00, profit $682.50; the fittings' cost not recorded. */
const PROFIT: DocumentProfitRecord = {
  ...figures(2531.88, 1810, 682.5, { costed_sell: 2492.5, margin_percent: 27.4, markup_percent: 37.7, costed_lines: 2, uncosted_lines: 1, uncosted_sell: 39.38, formatted: { sell: '$2,531.88', cost: '$1,810.00', gross_profit: '$682.50', uncosted_sell: '$39.38' } }),
  categories: [
    { ...figures(1812.5, 1450, 362.5, { margin_percent: 20, markup_percent: 25, formatted: { sell: '$1,812.50', cost: '$1,450.00', gross_profit: '$362.50', uncosted_sell: '$0.00' } }), category: 'materials' },
    { ...figures(680, 360, 320, { margin_percent: 47.1, markup_percent: 88.9 }), category: 'labour' },
    { ...figures(39.38, 0, 0, { costed_sell: 0, costed_lines: 0, uncosted_lines: 1, uncosted_sell: 39.38, formatted: { sell: '$39.38', cost: '$0.00', gross_profit: '$0.00', uncosted_sell: '$39.38' } }), category: 'other' },
  ],
};

const cell = (testId: string) => h.container.querySelector(`[data-testid="${testId}"]`)?.textContent;

describe('the profit card', () => {
  it('shows cost, sell, gross profit, margin and markup, per category, and says which lines have no cost', () => {
    h.render(<ProfitCard doc={{ profit: PROFIT, credited: 0 }} />);
    expect([cell('detail-profit-cost'), cell('detail-profit-sell'), cell('detail-profit-gross'), cell('detail-profit-margin'), cell('detail-profit-markup')]).toEqual(['$1,810.00', '$2,531.88', '$682.50', '27.4%', '37.7%']);
    expect(cell('detail-profit-uncosted')).toBe('Cost not recorded on 1 line ($39.38 of sell): not counted in the profit.');
    const rows = [...h.container.querySelectorAll('[data-testid="detail-profit-categories"] tbody tr')].map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Materials', '$1,450.00', '$1,812.50', '$362.50', '20.0%'],
      ['Labour', '$360.00', '$680.00', '$320.00', '47.1%'],
      ['Other', 'Not recorded', '$39.38', '—', '—'],
    ]);
    expect(h.text()).toContain(PROFIT_CARD_TEXT.privacy);
  });

  it('with no cost on any line, never shows a profit of the whole price: cost not recorded', () => {
    h.render(<ProfitCard doc={{ profit: { ...figures(100, 0, 0, { costed_sell: 0, costed_lines: 0, uncosted_lines: 1, uncosted_sell: 100 }), categories: [] }, credited: 0 }} />);
    expect([cell('detail-profit-cost'), cell('detail-profit-gross'), cell('detail-profit-margin')]).toEqual(['Cost not recorded', '—', '—']);
  });

  it('reads the same as the calculator’s figures for the same lines', () => {
    const line = (qty: string, unit_price: string, cost: string | null, category: string): Line => ({ description: 'x', qty, unit_price, tax_included: false, tax_rate: '0.15', cost, category });
    const calc = profitViewOf(documentProfit([line('1', '1812.50', '1450', 'materials'), line('8', '85', '45', 'labour'), line('1', '39.38', null, 'other')], 'total'));
    const api = profitViewOfRecord(PROFIT);
    expect(calc).toEqual(api);
  });
});
