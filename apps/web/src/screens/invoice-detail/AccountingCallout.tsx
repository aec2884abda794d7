import type { DocumentDetail } from '@tradie/contracts';
import { PROVIDER_NAME } from '../shared/documents.ts';

/** When the synced invoice's figures in Xero differ from ours: say so, and where to look. Nothing otherwise. */
export function AccountingCallout({ doc }: { doc: Pick<DocumentDetail, 'accounting'> }) {
  if (!doc.accounting?.difference) return null;
  return (
    <p className="callout callout--warning detail__note" role="status" data-testid="accounting-difference">
      {doc.accounting.difference}. Check the invoice in {PROVIDER_NAME} before you rely on either figure.
    </p>
  );
}
