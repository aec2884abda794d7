import type { DocumentDetail } from '@tradie/contracts';

/** Subtotal, GST and total; for an invoice also what is paid and the balance. */
export function TotalsList({ doc, isQuote }: { doc: DocumentDetail; isQuote: boolean }) {
  return (
    <dl className="figures detail__figures">
      <div className="figures__row">
        <dt>Subtotal</dt>
        <dd data-testid="detail-subtotal">{doc.formatted.subtotal}</dd>
      </div>
      <div className="figures__row">
        <dt>GST</dt>
        <dd data-testid="detail-gst">{doc.formatted.gst}</dd>
      </div>
      <div className="figures__row figures__row--total">
        <dt>Total {doc.gst === 0 ? '(excl. GST)' : '(incl. GST)'}</dt>
        <dd>{doc.formatted.total}</dd>
      </div>
      {!isQuote && (
        <>
          <div className="figures__row">
            <dt>Paid</dt>
            <dd data-testid="detail-paid">{doc.formatted.paid}</dd>
          </div>
          <div className="figures__row figures__row--total">
            <dt>Balance</dt>
            <dd>{doc.formatted.balance}</dd>
          </div>
        </>
      )}
    </dl>
  );
}
