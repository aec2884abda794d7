import type { ProfitView } from './profitShown.ts';
import { uncostedText } from './profitShown.ts';

/**
 * Cost, sell, gross profit, margin on price and markup on cost for a document and per category —
 * the tradie's own figures (the calculator, the quote and invoice screens), never the client's.
 */
export function ProfitSummary({ profit, idPrefix }: { profit: ProfitView; idPrefix: string }) {
  const note = uncostedText(profit);
  return (
    <div className="profit-summary" data-testid={`${idPrefix}-profit`}>
      <dl className="figures">
        <div className="figures__row">
          <dt>Cost</dt>
          <dd data-testid={`${idPrefix}-profit-cost`}>{profit.costedLines === 0 ? 'Cost not recorded' : profit.cost}</dd>
        </div>
        <div className="figures__row">
          <dt>Sell (excl. GST)</dt>
          <dd data-testid={`${idPrefix}-profit-sell`}>{profit.sell}</dd>
        </div>
        <div className="figures__row figures__row--total">
          <dt>Gross profit</dt>
          <dd data-testid={`${idPrefix}-profit-gross`}>{profit.costedLines === 0 ? '—' : profit.grossProfit}</dd>
        </div>
        <div className="figures__row">
          <dt>Margin on price</dt>
          <dd data-testid={`${idPrefix}-profit-margin`}>{profit.margin ?? '—'}</dd>
        </div>
        <div className="figures__row">
          <dt>Markup on cost</dt>
          <dd data-testid={`${idPrefix}-profit-markup`}>{profit.markup ?? '—'}</dd>
        </div>
      </dl>
      {note && (
        <p className="field__hint" data-testid={`${idPrefix}-profit-uncosted`}>
          {note}
        </p>
      )}
      {profit.categories.length > 1 && (
        <table className="profit-summary__categories" data-testid={`${idPrefix}-profit-categories`}>
          <caption className="visually-hidden">Profit by category</caption>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Cost</th>
              <th scope="col">Sell</th>
              <th scope="col">Profit</th>
              <th scope="col">Margin</th>
            </tr>
          </thead>
          <tbody>
            {profit.categories.map((c) => (
              <tr key={c.category}>
                <th scope="row">{c.name}</th>
                <td>{c.costedLines === 0 ? 'Not recorded' : c.cost}</td>
                <td>{c.sell}</td>
                <td>{c.costedLines === 0 ? '—' : c.grossProfit}</td>
                <td>{c.margin ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
