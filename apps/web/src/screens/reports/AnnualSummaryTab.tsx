// The Annual Summary tab of Tax Reports: a Tax Year select (the current NZ tax year and the
// three before it), Generate Report, and the summary: boxes, Top 10 Clients by Revenue, a monthly
// chart, the Monthly Breakdown table and the CSV download.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type RefObject } from 'react';
import type { AnnualReportResponse } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { FigureRow } from '../../ui/FigureRow.tsx';
import { ErrorAlert, LoadingBlock } from '../../ui/Status.tsx';
import { ReportForm, retryOnce, TaxYearSelect, useGenerate } from './ReportForm.tsx';
import { DownloadCsvButton, money, MonthlyBreakdown, ReportResults, ReportNotes, ReportStatus, SummaryBoxes } from './ReportResults.tsx';
import { rangeText, taxYearOptions } from './periods.ts';
import { annualReportQuery, expensesReportQuery } from './queries.ts';

export function AnnualSummaryTab({ today }: { today: string }) {
  const options = taxYearOptions(today);
  const [year, setYear] = useState<number>(() => options[0]?.year ?? 0);
  const [submitted, setSubmitted] = useState<number | null>(null);
  const report = useQuery({ ...annualReportQuery(api, submitted ?? 0), enabled: submitted !== null, retry: retryOnce });

  const { headingRef, generate } = useGenerate(report, submitted, setSubmitted, (a, b) => a === b);

  return (
    <>
      <ReportForm id="annual-card-title" title="Annual Summary" onSubmit={() => generate(year)}>
        <TaxYearSelect
          id="annual-tax-year"
          label="Tax Year"
          hint="NZ tax years run 1 April to 31 March. Revenue is before GST, for your income tax return."
          options={options}
          year={year}
          onChange={setYear}
        />
        <button type="submit" className="button button--accent report-generate">
          Generate Report
        </button>
      </ReportForm>

      <ReportStatus report={report} errorTitle="Failed to load annual report" />
      {report.data && !report.isError && submitted !== null && <AnnualResults report={report.data} headingRef={headingRef} />}
    </>
  );
}

function AnnualResults({ report, headingRef }: { report: AnnualReportResponse; headingRef: RefObject<HTMLHeadingElement | null> }) {
  return (
    <ReportResults
      id="annual-results-title"
      headingRef={headingRef}
      title={<>{report.label} Annual Summary</>}
      meta={rangeText({ start: report.start_date, end: report.end_date })}
    >

      <SummaryBoxes
        label="Annual summary"
        items={[
          { label: 'Total Revenue', value: money(report.total_revenue), testId: 'annual-total-revenue' },
          { label: 'Total GST', value: money(report.total_gst), testId: 'annual-total-gst' },
          { label: 'Paid Revenue', value: money(report.paid_revenue), testId: 'annual-paid-revenue' },
          { label: 'Unpaid Revenue', value: money(report.unpaid_revenue), testId: 'annual-unpaid-revenue' },
          ...(report.credited.count > 0 ? [{ label: 'Credited (credit notes)', value: money(report.credited.revenue), testId: 'annual-credited' }] : []),
          ...(report.refunded.count > 0 ? [{ label: 'Refunded (incl GST)', value: money(report.refunded.amount), testId: 'annual-refunded' }] : []),
        ]}
      />
      <p className="callout callout--warning report-note">
        Revenue is shown before GST (the income for your tax return); GST is beside it. Credit notes are taken off revenue in the month they are issued; paid
        revenue is on invoices paid in full, less their credit notes. Money paid back to clients is shown apart: it is not revenue.
      </p>
      <ReportNotes
        draftsLeftOut={report.drafts_left_out}
        corrections={{ count: report.corrections.count, amount: report.corrections.revenue, invoices_voided: report.voided.count, credit_notes: report.credited.count, payments_removed: 0, refunds: 0 }}
        range={{ start: report.start_date, end: report.end_date }}
        period="tax year"
      />

      <ExpensesAndNetProfit year={report.year} />

      <section className="report-top" aria-labelledby="annual-top-title">
        <h3 id="annual-top-title" className="report-section__title">
          Top 10 Clients by Revenue
        </h3>
        {report.top_clients.length === 0 ? (
          <p className="report-empty">No invoices to a client in this tax year.</p>
        ) : (
          <ol className="report-top__list" aria-labelledby="annual-top-title">
            {report.top_clients.map((c, i) => (
              <li key={`${i}-${c.name}`} className="report-top__item">
                <span className="report-top__rank" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="report-top__body">
                  <span className="report-top__name">{c.name}</span>
                  <span className="report-top__revenue">{money(c.revenue)}</span>
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>

      <MonthlyBreakdown
        id="annual"
        rows={report.monthly_breakdown}
        main={{ label: 'Revenue', of: (r) => r.revenue }}
        counts={[{ label: 'Invoices', of: (r) => r.count }, { label: 'Paid', of: (r) => r.paid_count }]}
        caption="revenue, GST, invoices and paid invoices for each month"
      />

      <DownloadCsvButton what="annual" input={{ kind: 'annual-csv', year: report.year }} />
    </ReportResults>
  );
}

const categoryWords = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);

/** The tax year's expenses recorded under Costs and the net profit before tax (GET /reports/expenses). */
function ExpensesAndNetProfit({ year }: { year: number }) {
  const expenses = useQuery({ ...expensesReportQuery(api, year), retry: retryOnce });
  return (
    <section className="card report-expenses" aria-labelledby="annual-expenses-title">
      <h3 id="annual-expenses-title" className="report-section__title">
        Expenses and net profit
      </h3>
      {expenses.isPending && <LoadingBlock />}
      {expenses.isError && <ErrorAlert message={errorDetail(expenses.error) ?? "Couldn't load the year's expenses. Try again."} />}
      {expenses.isSuccess && (
        <>
          <dl className="figures">
            <FigureRow label="Revenue (excl. GST)" value={money(expenses.data.revenue)} testId="annual-expenses-revenue" />
            <FigureRow label="Expenses" value={money(expenses.data.expenses)} testId="annual-expenses-total" />
            {expenses.data.by_category.map((c) => (
              <FigureRow key={c.category} label={`· ${categoryWords(c.category)}`} value={money(c.amount)} testId={`annual-expenses-${c.category}`} />
            ))}
            <FigureRow label="Net profit before tax" value={money(expenses.data.net_profit_before_tax)} total testId="annual-net-profit" />
          </dl>
          <p className="report-return__fine">
            Expenses are the receipts, bills and expenses you record under <Link to="/app/costs">Costs</Link>, dated in this tax year, without the GST you
            claim back. Hours are not counted: wages go through payroll. Your accountant may adjust for depreciation, private use and the like.
          </p>
        </>
      )}
    </section>
  );
}
