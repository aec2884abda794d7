// The report forms' pieces: the card with its Generate button, the tax year and date range fields,
// Generate itself (the same parameters fetch again, and the results take focus once they arrive)
// and the retry rule for a report's query.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { isApiError } from '../../api/client.ts';
import { FormField } from '../../ui/FormField.tsx';


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
