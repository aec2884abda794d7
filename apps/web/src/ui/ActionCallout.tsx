import type { ReactNode } from 'react';

interface ActionCalloutProps {
  testId: string;
  /** What happened, in words. */
  children: ReactNode;
  /** Why the action failed, under the words; null when it did not. */
  error: string | null;
  /** The button's words, and its words while the action runs. */
  label: string;
  pendingLabel: string;
  pending: boolean;
  onAction(): void;
}

/** A warning callout with one action beside its words (a button that says when it is busy, and why it failed). */
export function ActionCallout({ testId, children, error, label, pendingLabel, pending, onAction }: ActionCalloutProps) {
  return (
    <div className="callout callout--warning callout--action detail__note" role="status" data-testid={testId}>
      <span>
        {children}
        {error && <span className="callout__detail">{error}</span>}
      </span>
      <button type="button" className="button button--ghost button--compact" onClick={onAction} disabled={pending} aria-busy={pending}>
        {pending ? pendingLabel : label}
      </button>
    </div>
  );
}
