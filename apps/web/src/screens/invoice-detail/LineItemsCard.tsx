import type { DocumentDetail } from '@tradie/contracts';
import { formatNzdPrice } from '@tradie/domain';
import { TotalsList } from './TotalsList.tsx';
import { money } from './view.ts';
import { Card } from '../../ui/Card.tsx';

/** The lines, the figures under them, and the document's notes. */
export function LineItemsCard({ doc, isQuote }: { doc: DocumentDetail; isQuote: boolean }) {
  return (
    <Card titleId="detail-lines-title" title="Line items">
      <ul className="detail-lines">
        {doc.line_items.map((l, i) => (
          <li key={i} className="detail-lines__item">
            <span className="detail-lines__desc">{l.description}</span>
            <span className="detail-lines__calc">
              {String(l.qty)} × {formatNzdPrice(l.unit_price)}
              {l.tax_rate === 0 ? ' · no GST' : ''}
            </span>
            <span className="detail-lines__amount">{money(l.amount)}</span>
          </li>
        ))}
      </ul>
      <TotalsList doc={doc} isQuote={isQuote} />
      {doc.notes && <p className="detail__notes">{doc.notes}</p>}
    </Card>
  );
}
