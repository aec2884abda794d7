import type { ReactNode } from 'react';

/** 'Loading...' with a spinner, centred in the space a list or screen will fill (a polite status). */
export function LoadingBlock({ largeSpinner }: { largeSpinner?: boolean }) {
  return (
    <div className="loading-row loading-row--centre" role="status">
      <span className={largeSpinner ? 'spinner' : 'spinner spinner--small'} aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}

/** A line of text after a small spinner: what is loading or being done (a polite status). */
export function LoadingLine({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p className={className ? `loading-row ${className}` : 'loading-row'} role="status">
      <span className="spinner spinner--small" aria-hidden="true" />
      {children}
    </p>
  );
}

/**
 * A load that failed: what went wrong and a Retry button (a link-style one, disabled while it
 * fetches again, when `link`; else a small ghost button).
 */
export function RetryAlert({ children, onRetry, link, busy }: { children: ReactNode; onRetry?: (() => void) | undefined; link?: boolean; busy?: boolean }) {
  return (
    <div className="callout callout--error callout--action" role="alert">
      <span>{children}</span>
      {link && onRetry && ' '}
      {onRetry && (
        <button type="button" className={link ? 'link-button' : 'button button--ghost button--compact'} onClick={onRetry} disabled={link ? busy : undefined}>
          Retry
        </button>
      )}
    </div>
  );
}

/** What went wrong, said at once (role alert); nothing when there is no message. */
export function ErrorAlert({ message, id, className, testId }: { message: ReactNode; id?: string; className?: string; testId?: string }) {
  if (!message) return null;
  return (
    <p id={id} className={className ? `callout callout--error ${className}` : 'callout callout--error'} role="alert" data-testid={testId}>
      {message}
    </p>
  );
}
