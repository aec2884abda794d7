// The price book has moved since this quote or invoice was priced: each line picked from it whose
// item costs something else now, as the API names it ('Copper pipe 15 mm is now $4.10, was $3.80'),
// with 'Update' on a draft to re-price that one line from the book's cost now. A sent, accepted or
// issued document keeps what it was priced at: the notice says so and offers nothing to press.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { applyDetailChange, priceBookMovesQuery, updateFromPriceBook } from './queries.ts';

export const PRICE_BOOK_MOVES_TEXT = {
  title: 'Price book changes',
  kept: (noun: string) => `This ${noun} keeps the prices it was made with. Make a new one to use today's prices.`,
  failed: "Couldn't update that line. Try again.",
} as const;

/** Asked only of a document with a line picked from the price book; shows nothing when nothing moved. */
export function PriceBookMovesCard({ doc, show }: { doc: Pick<DocumentDetail, 'id' | 'type' | 'version' | 'line_items'>; show: (message: string) => void }) {
  const picked = doc.line_items.some((l) => l.price_book_item_id !== null);
  const moves = useQuery({ ...priceBookMovesQuery(api, doc.id, doc.version), enabled: picked });
  const queryClient = useQueryClient();
  const update = useCommand({
    run: (line: { index: number; name: string; version: number }) => updateFromPriceBook(api, doc.id, line.index, line.version),
    failed: PRICE_BOOK_MOVES_TEXT.failed,
    onDone: (detail, line) => {
      applyDetailChange(queryClient, detail);
      show(`${line.name} updated to today's price`);
    },
  });
  const list = moves.data?.moves ?? [];
  if (!picked || list.length === 0) return null;
  const noun = doc.type === 'quote' ? 'quote' : 'invoice';

  return (
    <Card titleId="detail-price-book-title" title={PRICE_BOOK_MOVES_TEXT.title} className="price-moves">
      <ul className="price-moves__list">
        {list.map((m) => (
          <li key={m.line_index} className="price-moves__item">
            <span>
              Line {m.line_index + 1}: {m.message}
              {moves.data!.can_update ? ' — update?' : '.'}
            </span>
            {moves.data!.can_update && (
              <button type="button" className="button button--secondary button--compact" disabled={update.pending} aria-busy={update.input?.index === m.line_index || undefined} onClick={() => update.run({ index: m.line_index, name: m.name, version: moves.data!.version })}>
                Update<span className="visually-hidden"> line {m.line_index + 1}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {!moves.data!.can_update && <p className="field__hint">{PRICE_BOOK_MOVES_TEXT.kept(noun)}</p>}
      {update.error && <ErrorAlert message={update.error} />}
    </Card>
  );
}
