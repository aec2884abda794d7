import type { DocumentDetail } from '@tradie/contracts';
import { TotalsList } from './TotalsList.tsx';
import { Card } from '../../ui/Card.tsx';
import { LineItemsList } from '../shared/LineItemsList.tsx';

/** The lines, the figures under them, and the document's notes. */
export function LineItemsCard({ doc, isQuote }: { doc: DocumentDetail; isQuote: boolean }) {
  return (
    <Card titleId="detail-lines-title" title="Line items">
      <LineItemsList lines={doc.line_items} gstRegistered={doc.gst_registered} />
      <TotalsList doc={doc} isQuote={isQuote} />
      {doc.notes && <p className="detail__notes">{doc.notes}</p>}
    </Card>
  );
}
