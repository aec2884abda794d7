// Pieces both report tabs use: summary boxes, a table that scrolls inside itself when it must,
// the error banner and the Download CSV button.
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ExportLinkInput } from '@tradie/contracts';
import { formatNzd, toCents } from '@tradie/domain';
import { api, errorDetail, isApiError } from '../../api/client.ts';
import { downloadThroughSignedLink } from './download.ts';
import { createExportLink } from './queries.ts';

/** An API amount (a number already rounded to cents) as '$1,234.50', exactly. */
export const money = (amount: number): string => formatNzd(toCents(amount));

/** Read failures that a second try can't fix (a 4xx) are not retried. */
export const retryOnce = (failureCount: number, error: unknown): boolean =>
  failureCount < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500);

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

export function ReportError({ title, error }: { title: string; error: unknown }) {
  const detail = errorDetail(error);
  return (
    <div className="callout callout--error report-banner" role="alert">
      <strong>{title}</strong>
      {detail && <span className="callout__detail">{detail}</span>}
    </div>
  );
}

/** '📥 Download CSV': a signed link for this export, opened in a new tab. */
export function DownloadCsvButton({ input, what }: { input: ExportLinkInput; what: string }) {
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
        Opens in a new tab. One row per invoice, with totals, for your accountant or spreadsheet.
      </p>
      {error && (
        <p className="callout callout--error report-banner" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * What a report left out or took off, said under its figures: draft invoices dated in the period
 * (never issued, so not counted — with a link to them), and corrections made in the period (invoices
 * voided, payments removed), which are already in the totals as negative amounts.
 */
export function ReportNotes({ draftsLeftOut, corrections, correctionWhat, range }: {
  draftsLeftOut: number;
  corrections: { count: number; amount: number };
  correctionWhat: 'voided' | 'removed';
  range: { start: string; end: string };
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
        <p>
          Includes {plural(corrections.count, correctionWhat === 'voided' ? 'invoice voided' : 'payment removed', correctionWhat === 'voided' ? 'invoices voided' : 'payments removed')} in
          this period: {money(corrections.amount)}. A correction counts in the period it is made; earlier periods stay as they were.
        </p>
      )}
    </div>
  );
}
