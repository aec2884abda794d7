// The Annual Summary tab of Tax Reports: a Tax Year select (the current NZ tax year and the
// three before it), Generate Report, and the summary: boxes, Top 10 Clients by Revenue, a monthly
// chart, the Monthly Breakdown table and the CSV download.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { AnnualReportResponse } from '@tradie/contracts';
import { formatMonth, toCents } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { BarChart } from './BarChart.tsx';
import { DownloadCsvButton, money, ReportError, ReportNotes, retryOnce, ScrollTable, SummaryBoxes } from './parts.tsx';
import { rangeText, taxYearOptions } from './periods.ts';
import { annualReportQuery } from './queries.ts';

export function AnnualSummaryTab({ today }: { today: string }) {
  const options = taxYearOptions(today);
  const [year, setYear] = useState<number>(() => options[0]?.year ?? 0);
  const [submitted, setSubmitted] = useState<number | null>(null);
  const report = useQuery({ ...annualReportQuery(api, submitted ?? 0), enabled: submitted !== null, retry: retryOnce });

  const resultsRef = useRef<HTMLHeadingElement>(null);
  const [wantFocus, setWantFocus] = useState(false);
  const ready = report.isSuccess && !report.isFetching;
  useEffect(() => {
    if (wantFocus && ready) {
      resultsRef.current?.focus();
      setWantFocus(false);
    }
    if (wantFocus && report.isError) setWantFocus(false);
  }, [wantFocus, ready, report.isError]);

  const generate = (e: FormEvent) => {
    e.preventDefault();
    setWantFocus(true);
    if (submitted === year) void report.refetch();
    else setSubmitted(year);
  };

  return (
    <>
      <form className="card report-card" aria-labelledby="annual-card-title" onSubmit={generate} noValidate>
        <h2 id="annual-card-title" className="card__title">
          Annual Summary
        </h2>
        <div className="field">
          <label className="field__label" htmlFor="annual-tax-year">
            Tax Year
          </label>
          <select id="annual-tax-year" className="input" value={String(year)} onChange={(e) => setYear(Number(e.target.value))} aria-describedby="annual-tax-year-hint">
            {options.map((o) => (
              <option key={o.year} value={String(o.year)}>
                {o.label}
              </option>
            ))}
          </select>
          <p id="annual-tax-year-hint" className="field__hint">
            NZ tax years run 1 April to 31 March. Revenue is before GST, for your income tax return.
          </p>
        </div>
        <button type="submit" className="button button--accent report-generate">
          Generate Report
        </button>
      </form>

      {report.isFetching && (
        <p className="loading-row report-status" role="status">
          <span className="spinner spinner--small" aria-hidden="true" /> Generating report...
        </p>
      )}
      {report.isError && !report.isFetching && <ReportError title="Failed to load annual report" error={report.error} />}
      {report.data && !report.isError && submitted !== null && <AnnualResults report={report.data} headingRef={resultsRef} />}
    </>
  );
}

function AnnualResults({ report, headingRef }: { report: AnnualReportResponse; headingRef: RefObject<HTMLHeadingElement | null> }) {
  const rows = report.monthly_breakdown;
  return (
    <section className="report-results" aria-labelledby="annual-results-title">
      <h2 id="annual-results-title" ref={headingRef} tabIndex={-1} className="report-results__title">
        {report.label} Annual Summary
      </h2>
      <p className="report-results__meta">{rangeText({ start: report.start_date, end: report.end_date })}</p>

      <SummaryBoxes
        label="Annual summary"
        items={[
          { label: 'Total Revenue', value: money(report.total_revenue), testId: 'annual-total-revenue' },
          { label: 'Total GST', value: money(report.total_gst), testId: 'annual-total-gst' },
          { label: 'Paid Revenue', value: money(report.paid_revenue), testId: 'annual-paid-revenue' },
          { label: 'Unpaid Revenue', value: money(report.unpaid_revenue), testId: 'annual-unpaid-revenue' },
        ]}
      />
      <p className="callout callout--warning report-note">Revenue is shown before GST (the income for your tax return); GST is beside it.</p>
      <ReportNotes
        draftsLeftOut={report.drafts_left_out}
        corrections={{ count: report.corrections.count, amount: report.corrections.revenue }}
        correctionWhat="voided"
        range={{ start: report.start_date, end: report.end_date }}
      />

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

      {rows.length > 0 && (
        <section className="report-monthly" aria-labelledby="annual-monthly-title">
          <h3 id="annual-monthly-title" className="report-section__title">
            Monthly Breakdown
          </h3>
          <BarChart title="Monthly revenue and GST" mainLabel="Revenue" rows={rows.map((r) => ({ month: r.month, main: toCents(r.revenue), gst: toCents(r.gst) }))} />
          <ScrollTable label="Monthly Breakdown">
            <table className="report-table__table">
              <caption className="visually-hidden">Monthly Breakdown: revenue, GST, invoices and paid invoices for each month</caption>
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">Revenue</th>
                  <th scope="col">GST</th>
                  <th scope="col">Invoices</th>
                  <th scope="col">Paid</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.month}>
                    <th scope="row">{formatMonth(r.month)}</th>
                    <td>{money(r.revenue)}</td>
                    <td>{money(r.gst)}</td>
                    <td>{r.count}</td>
                    <td>{r.paid_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        </section>
      )}

      <DownloadCsvButton what="annual" input={{ kind: 'annual-csv', year: report.year }} />
    </section>
  );
}
