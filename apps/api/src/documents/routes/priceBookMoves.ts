// What moved in the price book since a quote or invoice was priced (docs/api/price-book.md). A line
// picked from the book keeps the item's id and the cost it was priced at; these routes compare it
// with the book today ('Copper pipe 15 mm is now $4.10, was $3.80') and, on a draft only, re-price
// one line from the book's cost now. A sent, signed or issued document never changes: the revision
// goes through the same ReviseDocument decision as every edit, which refuses anything but a draft.
import { documentDetail, priceBookMoveUpdateInput, priceBookMoves } from '@tradie/contracts';
import { type DocumentView, formatNzdPrice, priceBookMoves as movesOf, repricedFromBook, storedLine } from '@tradie/domain';
import type { Hono } from 'hono';
import { actorOf } from '../../auth/middleware.ts';
import { requireActiveSubscription } from '../../billing/access.ts';
import type { AppDeps } from '../../deps.ts';
import { Conflict } from '../../errors.ts';
import type { AppEnv } from '../../http/env.ts';
import { describe } from '../../openapi/describe.ts';
import { bookPrices } from '../../priceBook/repository.ts';
import { loadPricing } from '../../settings/pricing.ts';
import type { Sql } from '@tradie/store';
import { reviseDocument } from '../commands/revise.ts';
import { loadDocument } from '../repository.ts';
import { documentIdOf, readDocumentBody, reply, TAG } from './http.ts';

/** The document's moved lines against the account's book today. */
async function movesFor(sql: Sql, accountId: string, d: Pick<DocumentView, 'lines'>) {
  const ids = d.lines.flatMap((l) => (l.price_book_item_id === undefined ? [] : [l.price_book_item_id]));
  const book = await bookPrices(sql, accountId, ids);
  return { book, moves: movesOf(d.lines, book) };
}

export function documentPriceBookRoutes(r: Hono<AppEnv>, deps: AppDeps): void {
  r.get(
    '/:id/price-book-moves',
    describe({ tag: TAG, summary: 'The lines picked from the price book whose item costs something else now, and whether the document can take the new prices (a draft only)', response: { status: 200, schema: priceBookMoves }, errors: [404] }),
    async (c) => {
      const accountId = c.get('accountId');
      const loaded = await loadDocument(deps.store, accountId, documentIdOf(c));
      const d = loaded.state;
      const { moves } = await movesFor(deps.store.db, accountId, d);
      return c.json({
        moves: moves.map((m) => ({
          line_index: m.lineIndex, item_id: m.itemId, name: m.name, was_cost: m.wasCost, now_cost: m.nowCost,
          message: `${m.name} is now ${formatNzdPrice(m.nowCost)}, was ${formatNzdPrice(m.wasCost)}`,
        })),
        can_update: d.status === 'draft' && d.payments.length === 0 && !d.sync,
        version: loaded.version,
      });
    },
  );

  r.post(
    '/:id/price-book-moves/update',
    describe({
      tag: TAG,
      summary: "Re-price one line of a draft from the price book's cost now (its sell override, or the cost priced by 'Price from cost'); 409 when the line has not moved or the document is not a draft",
      body: priceBookMoveUpdateInput,
      response: { status: 200, schema: documentDetail },
      errors: [402, 404, 409, 422],
    }),
    requireActiveSubscription(deps),
    async (c) => {
      const input = await readDocumentBody(c, priceBookMoveUpdateInput);
      const accountId = c.get('accountId');
      const id = documentIdOf(c);
      const loaded = await loadDocument(deps.store, accountId, id);
      const d = loaded.state;
      if (loaded.version !== input.version) throw new Conflict('This document was changed somewhere else since you opened it. Reload it and try again.');
      const { book, moves } = await movesFor(deps.store.db, accountId, d);
      const move = moves.find((m) => m.lineIndex === input.line_index);
      if (!move) throw new Conflict("That line's price book item hasn't moved since it was priced. Reload to see what has.");
      const pricing = await loadPricing(deps.store.db, accountId);
      const lines = d.lines.map((l, i) => storedLine(i === move.lineIndex ? repricedFromBook(l, book.get(move.itemId)!, pricing) : l));
      // The same revision as any edit: only a draft takes it, at the version read above.
      return reply(c, await reviseDocument(deps, actorOf(c), id, { line_items: lines, version: input.version }));
    },
  );
}
