// The report results' pieces: the results card, the generating/error status, summary boxes, the
// Monthly Breakdown (chart and table), a table that scrolls inside itself when it must, the notes
// under a report, the error banner and the Download CSV button.
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ExportLinkInput } from '@tradie/contracts';
import { formatMonth, formatNzd, toCents } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';
import { ErrorAlert, LoadingLine } from '../../ui/Status.tsx';
import { BarChart } from './BarChart.tsx';
import { correctionWords, type CorrectionKinds } from './corrections.ts';
import { downloadThroughSignedLink } from './download.ts';
import { createExportLink } from './queries.ts';


/** An API amount (a number already rounded to cents) as '$1,234.50', exactly. */
export const money = (amount: number): string => formatNzd(toCents(amount));

/** A generated report: its heading (focused once it arrives, through `headingRef`), a line under it, then the rest. */
export function ReportResults({ id, headingRef, title, meta, children }: {
  id: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  title: ReactNode;
  meta: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="report-results" aria-labelledby={id}>
      <h2 id={id} ref={headingRef} tabIndex={-1} className="report-results__title">
        {title}
      </h2>
      <p className="report-results__meta">{meta}</p>
      {children}
    </section>
  );
}

/** Under the form: 'Generating report...' while it loads, else the error banner when it failed. */
export function ReportStatus({ report, errorTitle }: { report: UseQueryResult<unknown>; errorTitle: string }) {
  if (report.isFetching) {
    return <LoadingLine className="report-status">Generating report...</LoadingLine>;
  }
  return report.isError ? <ReportError title={errorTitle} error={report.error} /> : null;
}

/** Longer than '$123,456.78': two boxes side by side no longer fit a phone. */
const LONG_VALUE = 11;

export function SummaryBoxes({ items, label }: { items: readonly { label: string; value: string; testId: string }[]; label: string }) {
  const long = items.some((i) => i.value.length > LONG_VALUE);
  return (
    <dl className={long ? 'stats report-boxes report-boxes--long' : 'stats report-boxes'} aria-label={label}>
      {items.map((item) => (
        <div key={item.label} className="stat">
          <dt className="stat__label">{item.label}</dt>
          <dd className="stat__value" data-testid={item.testId}>
            {item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A table in its own horizontal scroller. It fits a 360 px phone with ordinary figures; when very
 * large amounts make it wider, only the table scrolls (never the page), the scroller can be reached
 * and scrolled with the keyboard, and a hint says so.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setOverflowing(el.scrollWidth > el.clientWidth + 1);
    check();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(check);
    ro.observe(el);
    const table = el.firstElementChild;
    if (table) ro.observe(table);
    return () => ro.disconnect();
  }, []);
  return (
    <div className="report-table">
      {overflowing && (
        <p className="report-table__hint" aria-hidden="true">
          Swipe sideways to see every column →
        </p>
      )}
      <div
        ref={ref}
        className="report-table__scroller"
        data-scroll-x=""
        {...(overflowing ? { tabIndex: 0, role: 'region', 'aria-label': `${label} (scrolls sideways)` } : {})}
      >
        {children}
      </div>
    </div>
  );
}

/** A figure of a month's row: its column heading and how to read it from the row. */
export interface MonthFigure<Row> {
  label: string;
  of: (row: Row) => number;
}

/**
 * The Monthly Breakdown section: a bar chart of the main figure (sales or revenue) and GST, then the
 * table of every month: Month, the main figure and GST in dollars, then the counts. Nothing when the
 * report has no months.
 */
export function MonthlyBreakdown<Row extends { month: string; gst: number }>({ id, rows, main, counts, caption }: {
  /** Prefix of the section's ids ('gst', 'annual'). */
  id: string;
  rows: readonly Row[];
  /** 'Sales' or 'Revenue': the chart's main bars and the first column. */
  main: MonthFigure<Row>;
  /** Whole numbers after the amounts: invoices, paid invoices. */
  counts: readonly MonthFigure<Row>[];
  /** What the table holds, for screen readers. */
  caption: string;
}) {
  if (rows.length === 0) return null;
  const titleId = `${id}-monthly-title`;
  const columns: readonly { label: string; cell: (row: Row) => string | number }[] = [
    { label: main.label, cell: (r) => money(main.of(r)) },
    { label: 'GST', cell: (r) => money(r.gst) },
    ...counts.map((c) => ({ label: c.label, cell: c.of })),
  ];
  return (
    <section className="report-monthly" aria-labelledby={titleId}>
      <h3 id={titleId} className="report-section__title">
        Monthly Breakdown
      </h3>
      <BarChart
        title={`Monthly ${main.label.toLowerCase()} and GST`}
        mainLabel={main.label}
        rows={rows.map((r) => ({ month: r.month, main: toCents(main.of(r)), gst: toCents(r.gst) }))}
      />
      <ScrollTable label="Monthly Breakdown">
        <table className="report-table__table">
          <caption className="visually-hidden">Monthly Breakdown: {caption}</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              {columns.map((c) => (
                <th key={c.label} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.month}>
                <th scope="row">{formatMonth(r.month)}</th>
                {columns.map((c) => (
                  <td key={c.label}>{c.cell(r)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
    </section>
  );
}

export function ReportError({ title, error }: { title: string; error: unknown }) {
  const detail = errorDetail(error);
  return (
    <div className="callout callout--error report-banner" role="alert">
      <strong>{title}</strong>
      {detail && <span className="callout__detail">{detail}</span>}
    </div>
  );
}

/** '📥 Download CSV': a download link for this export, opened in a new tab. */
export function DownloadCsvButton({ input, what, note = 'One row per invoice, with totals, for your accountant or spreadsheet.' }: { input: ExportLinkInput; what: string; note?: string }) {
  // A download link first (the page can't send the bearer header on a navigation), then the file.
  const download = useCommand({ run: () => downloadThroughSignedLink(window, () => createExportLink(api, input)), failed: 'please try again' });
  const busy = download.pending;
  const error = download.error && `Couldn't download the CSV: ${download.error}`;
  const onClick = () => download.run();
  return (
    <div className="report-download">
      <button type="button" className="button button--secondary report-download__button" onClick={onClick} disabled={busy} aria-describedby={`${what}-csv-note`}>
        <span aria-hidden="true">📥</span> {busy ? 'Preparing your CSV…' : 'Download CSV'}
      </button>
      <p id={`${what}-csv-note`} className="report-download__note">
        {note}
      </p>
      <ErrorAlert message={error} className="report-banner" />
    </div>
  );
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * What a report left out or took off, said under its figures: draft invoices dated in the period
 * (never issued, so not counted — with a link to them), and corrections made in the period, each
 * named as what it is (invoices voided, credit notes, payments removed, refunds paid back), which are
 * already in the totals as negative amounts.
 */
export function ReportNotes({ draftsLeftOut, corrections, range, period = 'period' }: {
  draftsLeftOut: number;
  corrections: CorrectionKinds & { count: number; amount: number };
  range: { start: string; end: string };
  /** 'period' (GST report) or 'tax year' (annual summary). */
  period?: string;
}) {
  if (draftsLeftOut === 0 && corrections.count === 0) return null;
  return (
    <div className="callout report-note report-note--left-out" data-testid="report-left-out">
      {draftsLeftOut > 0 && (
        <p>
          {plural(draftsLeftOut, 'draft invoice')} dated in this period {draftsLeftOut === 1 ? 'is' : 'are'} not included: a draft counts once it is sent,
          marked issued or paid.{' '}
          <Link to="/app/invoices" search={{ tab: 'invoices', status: 'draft', from: range.start, to: range.end }}>
            See {draftsLeftOut === 1 ? 'the draft' : 'the drafts'}
          </Link>
        </p>
      )}
      {corrections.count > 0 && (
        <p data-testid="report-corrections">
          Includes {correctionWords(corrections)} in
          this {period}: {money(corrections.amount)}. A correction counts in the period it is made; earlier periods stay as they were.
        </p>
      )}
    </div>
  );
}
