// The home screen's 'This month': invoiced sales and gross profit of the month so far (excl. GST),
// from the same function as the profit report and the invoice screens. Sales on lines with no cost
// recorded are said apart, never counted as costing nothing. Nothing while loading or on failure:
// the home screen is not held up by it.
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { monthProfitQuery } from '../reports/queries.ts';

export function MonthProfitCard() {
  const month = useQuery({ ...monthProfitQuery(api), retry: false });
  if (!month.data) return null;
  const { label, invoices, invoiced } = month.data;
  return (
    <section className="card month-profit" aria-labelledby="home-month-profit-title" data-testid="home-month-profit">
      <h2 id="home-month-profit-title" className="card__title">
        This month ({label})
      </h2>
      <dl className="stats">
        <div className="stat">
          <dt className="stat__label">Invoiced sales</dt>
          <dd className="stat__value" data-testid="home-month-sales">
            {invoiced.formatted.sell}
          </dd>
        </div>
        <div className="stat">
          <dt className="stat__label">Gross profit</dt>
          <dd className="stat__value" data-testid="home-month-profit-value">
            {invoiced.formatted.gross_profit}
          </dd>
        </div>
      </dl>
      <p className="field__hint">
        {invoices === 1 ? '1 invoice' : `${invoices} invoices`} issued, excluding GST
        {invoiced.margin_percent === null ? '' : `; a ${invoiced.margin_percent.toFixed(1)}% margin`}.
        {invoiced.uncosted_sell !== 0 ? ` ${invoiced.formatted.uncosted_sell} of sales have no cost recorded and are left out of the profit.` : ''}{' '}
        <Link to="/app/reports">See the profit report</Link>
      </p>
    </section>
  );
}
