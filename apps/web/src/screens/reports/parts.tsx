// Pieces both report tabs use: focusing the results once they arrive, the generating/error status,
// summary boxes, the Monthly Breakdown (chart and table), a table that scrolls inside itself when it
// must, the error banner and the Download CSV button.
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ExportLinkInput } from '@tradie/contracts';
import { formatMonth, formatNzd, toCents } from '@tradie/domain';
import { api, errorDetail, isApiError } from '../../api/client.ts';
import { FormField } from '../../ui/FormField.tsx';
import { ErrorAlert, LoadingLine } from '../../ui/Status.tsx';
import { BarChart } from './BarChart.tsx';
import { correctionWords, type CorrectionKinds } from './corrections.ts';
import { downloadThroughSignedLink } from './download.ts';
import { createExportLink } from './queries.ts';

/** An API amount (a number already rounded to cents) as '$1,234.50', exactly. */
export const money = (amount: number): string => formatNzd(toCents(amount));

/** Read failures that a second try can't fix (a 4xx) are not retried. */
export const retryOnce = (failureCount: number, error: unknown): boolean =>
  failureCount < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500);

/**
 * After Generate Report, brings the answer into view (on a phone it is below the fold): call
 * `focusWhenReady()` on submit and the results heading (`headingRef`) takes focus once the report has
 * arrived; an error cancels the wish.
 */
function useFocusResults(report: UseQueryResult<unknown>) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [wantFocus, setWantFocus] = useState(false);
  const ready = report.isSuccess && !report.isFetching;
  useEffect(() => {
    if (wantFocus && ready) {
      headingRef.current?.focus();
      setWantFocus(false);
    }
    if (wantFocus && report.isError) setWantFocus(false);
  }, [wantFocus, ready, report.isError]);
  return { headingRef, focusWhenReady: () => setWantFocus(true) };
}

/**
 * Generate Report for `next`: the same parameters as last time fetch the report again (it may have
 * changed since), new ones start a new report; either way the results heading (`headingRef`) takes
 * focus once the answer is in.
 */
export function useGenerate<P>(report: UseQueryResult<unknown>, submitted: P | null, setSubmitted: (next: P) => void, same: (a: P, b: P) => boolean) {
  const { headingRef, focusWhenReady } = useFocusResults(report);
  const generate = (next: P) => {
    focusWhenReady();
    if (submitted !== null && same(submitted, next)) void report.refetch();
    else setSubmitted(next);
  };
  return { headingRef, generate };
}

/** The card with the report's choices: a form under its title (`id`), submitted by its button. */
export function ReportForm({ id, title, onSubmit, className, describedBy, children }: {
  id: string;
  title: string;
  onSubmit: () => void;
  /** Extra classes on the card. */
  className?: string;
  /** The id of what describes the form. */
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <form
      className={className ? `card report-card ${className}` : 'card report-card'}
      aria-labelledby={id}
      aria-describedby={describedBy}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      <h2 id={id} className="card__title">
        {title}
      </h2>
      {children}
    </form>
  );
}

/** A select of NZ tax years (`options`, labelled), showing `year`. */
export function TaxYearSelect({ id, label, hint, options, year, onChange }: {
  id: string;
  label: string;
  hint: string;
  options: readonly { year: number; label: string }[];
  year: number;
  onChange: (year: number) => void;
}) {
  return (
    <FormField id={id} label={label} hint={hint}>
      {(describedBy) => (
        <select id={id} className="input" value={String(year)} onChange={(e) => onChange(Number(e.target.value))} aria-describedby={describedBy}>
          {options.map((o) => (
            <option key={o.year} value={String(o.year)}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** A first and a last day, side by side: `${id}-start` and `${id}-end`, labelled `labels`. */
export function DateRangeFields({ id, labels, start, end, onStart, onEnd }: {
  id: string;
  labels: readonly [string, string];
  start: string;
  end: string;
  onStart: (date: string) => void;
  onEnd: (date: string) => void;
}) {
  return (
    <div className="report-dates">
      <FormField id={`${id}-start`} label={labels[0]}>
        {() => <input id={`${id}-start`} className="input" type="date" value={start} onChange={(e) => onStart(e.target.value)} />}
      </FormField>
      <FormField id={`${id}-end`} label={labels[1]}>
        {() => <input id={`${id}-end`} className="input" type="date" value={end} onChange={(e) => onEnd(e.target.value)} />}
      </FormField>
    </div>
  );
}

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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onClick = () => {
    setError(null);
    setBusy(true);
    // The tab is opened inside this click (popup blockers), then sent to the link.
    downloadThroughSignedLink(window, () => createExportLink(api, input))
      .catch((e: unknown) => setError(`Couldn't download the CSV: ${errorDetail(e) ?? 'Request failed'}`))
      .finally(() => setBusy(false));
  };
  return (
    <div className="report-download">
      <button type="button" className="button button--secondary report-download__button" onClick={onClick} disabled={busy} aria-describedby={`${what}-csv-note`}>
        <span aria-hidden="true">📥</span> Download CSV
      </button>
      <p id={`${what}-csv-note`} className="report-download__note">
        Opens in a new tab. {note}
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
