import type { LineRecord } from '@tradie/contracts';

type Line = Pick<LineRecord, 'description' | 'qty' | 'tax_rate' | 'formatted'>;

/**
 * A document's lines (.line-items): the description and amount on one row, quantity × price under
 * the description. Price and amount are the API's, as the PDF prints them: without GST, so the
 * amounts add up to the subtotal under them. A line without GST says so, unless the whole
 * document carries none (`gstRegistered` false: the business was not registered for GST).
 */
export function LineItemsList({ lines, gstRegistered = null }: { lines: readonly Line[]; gstRegistered?: boolean | null }) {
  return (
    <ul className="line-items">
      {lines.map((l, i) => (
        <li key={i} className="line-items__item" data-testid="line-item">
          <span className="line-items__desc">{l.description}</span>
          <span className="line-items__calc">
            {String(l.qty)} × {l.formatted.unit_price}
            {l.tax_rate === 0 && gstRegistered !== false ? ' · no GST' : ''}
          </span>
          <span className="line-items__amount" data-testid="line-item-amount">
            {l.formatted.amount}
          </span>
        </li>
      ))}
    </ul>
  );
}
