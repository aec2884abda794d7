// @vitest-environment jsdom
// The price book notice on a quote or invoice against a mocked fetch: each moved line named as the
// API words it, 'Update' on a draft re-pricing that line (and the notice asked again), no button on
// a document that can't change, and nothing asked at all of a document with no picked line.
import type { DocumentDetail, PriceBookMoves } from '@tradie/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { PRICE_BOOK_MOVES_TEXT, PriceBookMovesCard } from './PriceBookMovesCard.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

type Doc = Pick<DocumentDetail, 'id' | 'type' | 'version' | 'line_items'>;
const doc = (picked: boolean, version = 2): Doc =>
  ({ id: 'q1', type: 'quote', version, line_items: [{ description: 'Copper pipe 15 mm', price_book_item_id: picked ? 'i1' : null }, { description: 'Labour', price_book_item_id: null }] }) as unknown as Doc;
const MOVED: PriceBookMoves = {
  moves: [{ line_index: 0, item_id: 'i1', name: 'Copper pipe 15 mm', was_cost: '3.8', now_cost: '4.1', message: 'Copper pipe 15 mm is now $4.10, was $3.80' }],
  can_update: true,
  version: 2,
};

describe('the price book notice', () => {
  it('names each moved line and re-prices it on Update', async () => {
    let updated = false;
    h.serve((method) => {
      if (method === 'POST') {
        updated = true;
        return json({ id: 'q1', version: 3 });
      }
      return json(updated ? { ...MOVED, moves: [], version: 3 } : MOVED);
    });
    const shown: string[] = [];
    h.render(<PriceBookMovesCard doc={doc(true)} show={(m) => shown.push(m)} />);
    await h.until(() => expect(h.text()).toContain('Line 1: Copper pipe 15 mm is now $4.10, was $3.80 — update?'));
    expect(h.calls[0]).toMatchObject({ method: 'GET', path: '/invoices/q1/price-book-moves' });
    h.click(h.button('Update'));
    await h.until(() => expect(shown).toEqual(["Copper pipe 15 mm updated to today's price"]));
    expect(h.calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/invoices/q1/price-book-moves/update', body: { line_index: 0, version: 2 } });
  });

  it('offers no Update on a document that keeps its prices, and shows the API detail when an update is refused', async () => {
    h.serve(() => json({ ...MOVED, can_update: false }));
    h.render(<PriceBookMovesCard doc={doc(true)} show={() => {}} />);
    await h.until(() => expect(h.text()).toContain('Line 1: Copper pipe 15 mm is now $4.10, was $3.80.'));
    expect(h.text()).toContain(PRICE_BOOK_MOVES_TEXT.kept('quote'));
    expect(h.container.querySelector('button')).toBeNull();

    h.tearDown();
    h.setUp();
    h.serve((method) => (method === 'POST' ? problem(409, "This quote has been sent, so it can't be changed. Create a new quote instead.") : json(MOVED)));
    h.render(<PriceBookMovesCard doc={doc(true)} show={() => {}} />);
    await h.until(() => expect(h.text()).toContain('— update?'));
    h.click(h.button('Update'));
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe("This quote has been sent, so it can't be changed. Create a new quote instead."));
  });

  it('asks nothing of a document with no line from the price book', () => {
    h.serve(() => json(MOVED));
    h.render(<PriceBookMovesCard doc={doc(false)} show={() => {}} />);
    expect(h.calls).toEqual([]);
    expect(h.text()).toBe('');
  });
});
