import { formatNzd, formatNzdPrice } from '@tradie/domain';
import { centsOf } from './documents.ts';

interface Line {
  description: string;
  qty: number;
  unit_price: number;
  tax_rate: number;
  amount: number;
}

/**
 * A document's lines (.line-items): the description and amount on one row, quantity × price under
 * the description. A line without GST says so, unless the whole document carries none
 * (`gstRegistered` false: the business was not registered for GST).
 */
export function LineItemsList({ lines, gstRegistered = null }: { lines: readonly Line[]; gstRegistered?: boolean | null }) {
  return (
    <ul className="line-items">
      {lines.map((l, i) => (
        <li key={i} className="line-items__item">
          <span className="line-items__desc">{l.description}</span>
          <span className="line-items__calc">
            {String(l.qty)} × {formatNzdPrice(l.unit_price)}
            {l.tax_rate === 0 && gstRegistered !== false ? ' · no GST' : ''}
          </span>
          <span className="line-items__amount">{formatNzd(centsOf(l.amount))}</span>
        </li>
      ))}
    </ul>
  );
}
