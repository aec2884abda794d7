import type { DocumentDetail } from '@tradie/contracts';
import { Card } from '../../ui/Card.tsx';
import { ProfitSummary } from '../shared/ProfitSummary.tsx';
import { profitViewOfRecord } from '../shared/profitShown.ts';

/** The words under the figures: whose figures they are. */
export const PROFIT_CARD_TEXT = {
  title: 'Your profit',
  privacy: 'Only you see this: it is never on the PDF, the client’s page, emails or Xero.',
  credited: 'After credit notes: a credited line gives back its sell and its cost.',
} as const;

/**
 * The tradie's cost, sell, gross profit, margin and markup on a quote or invoice, for the document
 * and per category, as the API works them out (an invoice's net of its credit notes).
 */
export function ProfitCard({ doc }: { doc: Pick<DocumentDetail, 'profit' | 'credited'> }) {
  const credited = doc.credited > 0;
  return (
    <Card titleId="detail-profit-title" title={PROFIT_CARD_TEXT.title}>
      <ProfitSummary profit={profitViewOfRecord(doc.profit)} idPrefix="detail" />
      {credited && <p className="field__hint">{PROFIT_CARD_TEXT.credited}</p>}
      <p className="field__hint">{PROFIT_CARD_TEXT.privacy}</p>
    </Card>
  );
}
