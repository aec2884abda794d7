// The Profit tab of Reports: what the work made, for the tradie only. A period (start and end days,
// the tax year so far to start), rows by month, quarter or tax year, Generate Report; then quoted
// profit of the quotes accepted and invoiced profit of the invoices issued (net of credit notes and
// voids on their days), and actual-cost profit (what jobs were invoiced less the costs and hours
// recorded against them), per client and per category, and the CSV. Every figure is the API's,
// worked by the same functions as the quote, invoice and job screens' profit.
import { useQuery } from '@tanstack/react-query';
import { useState, type RefObject } from 'react';
import type { ProfitReportResponse, ProfitReportRow } from '@tradie/contracts';
import { type ProfitGrouping, taxYearOf, taxYearRange } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { FormField } from '../../ui/FormField.tsx';
import { shownOfRecord } from '../shared/profitShown.ts';
import { DateRangeFields, ReportForm, retryOnce, useGenerate } from './ReportForm.tsx';
import { DownloadCsvButton, ReportResults, ReportStatus, ScrollTable, SummaryBoxes } from './ReportResults.tsx';
import { rangeText } from './periods.ts';
import { type ProfitParams, profitReportQuery } from './queries.ts';

const GROUPINGS: readonly { value: ProfitGrouping; label: string }[] = [
  { value: 'month', label: 'Month' },
  { value: 'quarter', label: 'Quarter' },
  { value: 'tax_year', label: 'Tax year' },
];

export function ProfitTab({ today }: { today: string }) {
  const [start, setStart] = useState(() => taxYearRange(taxYearOf(today)).start);
  const [end, setEnd] = useState(today);
  const [group, setGroup] = useState<ProfitGrouping>('month');
  const [submitted, setSubmitted] = useState<ProfitParams | null>(null);
  const report = useQuery({ ...profitReportQuery(api, submitted ?? { start_date: '', end_date: '', group: 'month' }), enabled: submitted !== null, retry: retryOnce });
  const { headingRef, generate } = useGenerate(report, submitted, setSubmitted, (a, b) => a.start_date === b.start_date && a.end_date === b.end_date && a.group === b.group);

  return (
    <>
      <ReportForm id="profit-card-title" title="Profit" onSubmit={() => generate({ start_date: start, end_date: end, group })}>
        <DateRangeFields id="profit" labels={['Start Date', 'End Date']} start={start} end={end} onStart={setStart} onEnd={setEnd} />
        <FormField id="profit-group" label="Show by" hint="Quotes count on the day they were accepted, invoices on the day they were issued. Excluding GST.">
          {(describedBy) => (
            <select id="profit-group" className="input" value={group} aria-describedby={describedBy} onChange={(e) => setGroup(e.target.value as ProfitGrouping)}>
              {GROUPINGS.map((g) => (
                <option key={g.value} value={g.value}>
                  {g.label}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <button type="submit" className="button button--accent report-generate">
          Generate Report
        </button>
      </ReportForm>

      <ReportStatus report={report} errorTitle="Failed to load the profit report" />
      {report.data && !report.isError && submitted !== null && <ProfitResults report={report.data} headingRef={headingRef} />}
    </>
  );
}

const pct = (n: number | null): string => (n === null ? '—' : `${n.toFixed(1)}%`);

function ProfitResults({ report, headingRef }: { report: ProfitReportResponse; headingRef: RefObject<HTMLHeadingElement | null> }) {
  const invoiced = shownOfRecord(report.total.invoiced);
  const quoted = shownOfRecord(report.total.quoted);
  const uncosted = report.total.invoiced.uncosted_sell !== 0 || report.total.quoted.uncosted_sell !== 0;
  return (
    <ReportResults id="profit-results-title" headingRef={headingRef} title={<>Profit</>} meta={rangeText({ start: report.start_date, end: report.end_date })}>
      <SummaryBoxes
        label="Profit"
        items={[
          { label: 'Invoiced sales', value: invoiced.sell, testId: 'profit-invoiced-sell' },
          { label: 'Invoiced cost', value: invoiced.cost, testId: 'profit-invoiced-cost' },
          { label: 'Invoiced gross profit', value: invoiced.grossProfit, testId: 'profit-invoiced-gross' },
          { label: 'Quoted gross profit', value: quoted.grossProfit, testId: 'profit-quoted-gross' },
          { label: 'Actual job costs', value: report.total.actual.formatted.cost, testId: 'profit-actual-cost' },
          { label: 'Actual-cost profit', value: report.total.actual.formatted.profit, testId: 'profit-actual' },
        ]}
      />
      <p className="field__hint" data-testid="profit-actual-note">
        Actual-cost profit: {report.total.actual.formatted.sell} invoiced from jobs, less {report.total.actual.formatted.cost} of receipts, bills and hours recorded against them, each on its own day. Invoices not made from a quote have no job costs and are left out of it.
      </p>
      <p className={uncosted ? 'callout callout--warning report-note' : 'field__hint'} data-testid="profit-uncosted">
        {uncosted
          ? `Cost not recorded: ${invoiced.uncostedSell} of invoiced sales (and ${quoted.uncostedSell} quoted) are on lines with no cost. They are left out of gross profit and margin, never counted as costing nothing.`
          : 'Every line in this period has a cost recorded.'}
        {' '}Credit notes and voids count on the day they were made.
      </p>
      <ProfitTable id="profit-periods" title="By period" rows={report.periods} counts />
      <ProfitTable id="profit-clients" title="By client" rows={report.clients} counts empty="No quotes accepted or invoices issued in this period." />
      <ProfitTable id="profit-categories" title="By category" rows={report.categories} empty="Nothing to show by category in this period." />
      <DownloadCsvButton what="profit" note="A row per period, client and category, then the total, excluding GST." input={{ kind: 'profit-csv', start_date: report.start_date, end_date: report.end_date, group: report.group }} />
    </ReportResults>
  );
}

function ProfitTable({ id, title, rows, counts = false, empty }: { id: string; title: string; rows: readonly ProfitReportRow[]; counts?: boolean; empty?: string }) {
  const titleId = `${id}-title`;
  return (
    <section className="report-monthly" aria-labelledby={titleId}>
      <h3 id={titleId} className="report-section__title">
        {title}
      </h3>
      {rows.length === 0 ? (
        <p className="report-empty">{empty}</p>
      ) : (
        <ScrollTable label={title}>
          <table className="report-table__table" data-testid={id}>
            <caption className="visually-hidden">
              {title}: quoted gross profit, invoiced sales, cost, gross profit and margin, sales with no cost recorded, and the actual costs recorded against jobs with the profit after them
            </caption>
            <thead>
              <tr>
                <th scope="col">{title.replace('By ', '').replace(/^./, (c) => c.toUpperCase())}</th>
                {counts && <th scope="col">Quotes accepted</th>}
                <th scope="col">Quoted profit</th>
                {counts && <th scope="col">Invoices</th>}
                <th scope="col">Invoiced sales</th>
                <th scope="col">Cost</th>
                <th scope="col">Gross profit</th>
                <th scope="col">Margin</th>
                <th scope="col">No cost recorded</th>
                <th scope="col">Job costs</th>
                <th scope="col">Actual-cost profit</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.label}</th>
                  {counts && <td>{r.quotes}</td>}
                  <td>{r.quoted.formatted.gross_profit}</td>
                  {counts && <td>{r.invoices}</td>}
                  <td>{r.invoiced.formatted.sell}</td>
                  <td>{r.invoiced.formatted.cost}</td>
                  <td>{r.invoiced.formatted.gross_profit}</td>
                  <td>{pct(r.invoiced.margin_percent)}</td>
                  <td>{r.invoiced.formatted.uncosted_sell}</td>
                  <td>{r.actual.formatted.cost}</td>
                  <td>{r.actual.formatted.profit}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
    </section>
  );
}
