// The job's real profit on an accepted quote: what it was quoted at, what it has cost so far
// (receipts, bills and hours recorded against it under Costs), what has been invoiced after credit
// notes, and the profit so far, with a warning for each category over its quoted cost. The figures
// are the API's (GET /jobs/{id}/profit, the domain's jobProfit); only the tradie sees them.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { DocumentDetail } from '@tradie/contracts';
import { formatNzdPrice } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { FigureRow } from '../../ui/FigureRow.tsx';
import { ErrorAlert, LoadingBlock } from '../../ui/Status.tsx';
import { jobProfitQuery } from '../costs/queries.ts';

const categoryWords = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);

/** A quote is a job once accepted (and stays one when made an invoice). */
export const isJob = (doc: Pick<DocumentDetail, 'type' | 'status'>): boolean => doc.type === 'quote' && (doc.status === 'accepted' || doc.status === 'converted');

export function JobProfitCard({ doc }: { doc: Pick<DocumentDetail, 'id' | 'type' | 'status'> }) {
  const job = useQuery({ ...jobProfitQuery(api, doc.id), enabled: isJob(doc) });
  if (!isJob(doc)) return null;
  return (
    <Card titleId="job-profit-title" title="Job profit so far">
      {job.isPending && <LoadingBlock />}
      {job.isError && <ErrorAlert message={errorDetail(job.error) ?? "Couldn't load the job's costs. Try again."} />}
      {job.isSuccess && (
        <>
          {job.data.warnings.length > 0 && (
            <div className="callout callout--warning" role="status" data-testid="job-warnings">
              {job.data.warnings.map((w) => (
                <p key={w}>{w}</p>
              ))}
            </div>
          )}
          <dl className="figures">
            <FigureRow label="Quoted price (excl. GST)" value={formatNzdPrice(job.data.quoted_sell)} testId="job-quoted-sell" />
            <FigureRow label="Quoted cost" value={formatNzdPrice(job.data.quoted_cost)} testId="job-quoted-cost" />
            <FigureRow label="Costs so far" value={formatNzdPrice(job.data.actual_cost)} testId="job-actual-cost" />
            {job.data.actual_by_category.map((c) => (
              <FigureRow key={c.category} label={`· ${categoryWords(c.category)}`} value={formatNzdPrice(c.cost)} testId={`job-actual-${c.category}`} />
            ))}
            <FigureRow label="Invoiced so far (after credits, excl. GST)" value={formatNzdPrice(job.data.invoiced_net)} testId="job-invoiced" />
            <FigureRow label="Profit so far" value={formatNzdPrice(job.data.profit_so_far)} total testId="job-profit" />
          </dl>
          <div className="job-profit__actions">
            <Link to="/app/costs" search={{ record: 'cost', job: doc.id }} className="button button--secondary">
              Record a cost
            </Link>
            <Link to="/app/costs" search={{ record: 'hours', job: doc.id }} className="button button--secondary">
              Record hours
            </Link>
          </div>
          <p className="field__hint">
            Costs are the receipts, bills and hours you record against this job under <Link to="/app/costs">Costs</Link>. Only you see this.
          </p>
        </>
      )}
    </Card>
  );
}
