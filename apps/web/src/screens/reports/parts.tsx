// Pieces both report tabs use: summary boxes, a table that scrolls inside itself when it must,
// the error banner and the Download CSV button.
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
