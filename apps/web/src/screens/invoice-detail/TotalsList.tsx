import type { DocumentDetail } from '@tradie/contracts';
import { FigureRow } from '../../ui/FigureRow.tsx';
import { money } from './view.ts';

/**
 * Subtotal, GST and total; for an invoice also what is paid, what credit notes credited and the
 * balance. A business not registered for GST when it was made charged none: only its total shows.
 */
export function TotalsList({ doc, isQuote }: { doc: DocumentDetail; isQuote: boolean }) {
  const noGst = doc.gst_registered === false;
  return (
    <dl className="figures detail__figures">
      {noGst ? (
        <FigureRow label="Total (no GST: not registered)" value={doc.formatted.total} total testId="detail-total-no-gst" />
      ) : (
        <>
          <FigureRow label={doc.gst === 0 ? 'Subtotal' : 'Subtotal (excl. GST)'} value={doc.formatted.subtotal} testId="detail-subtotal" />
          <FigureRow label="GST" value={doc.formatted.gst} testId="detail-gst" />
          <FigureRow label={`Total ${doc.gst === 0 ? '(excl. GST)' : '(incl. GST)'}`} value={doc.formatted.total} total />
        </>
      )}
      {!isQuote && (
        <>
          <FigureRow label="Paid" value={doc.formatted.paid} testId="detail-paid" />
          {doc.credited > 0 && <FigureRow label="Credited" value={money(doc.credited)} testId="detail-credited" />}
          {doc.to_refund > 0 && <FigureRow label="Owed back" value={money(doc.to_refund)} testId="detail-to-refund" />}
          <FigureRow label="Balance" value={doc.formatted.balance} total />
        </>
      )}
    </dl>
  );
}
