import type { ReactNode } from 'react';

interface FormFieldProps {
  /** The control's id: the label points at it, and the hint and warning ids start with it. */
  id: string;
  label: ReactNode;
  /** Said under the control (id `${id}-hint`). */
  hint?: ReactNode;
  /** A soft warning under the hint (id `${id}-warning`). */
  warning?: string | undefined;
  /** Spans both columns of a .form-grid. */
  wide?: boolean;
  /** Extra classes on the field (e.g. 'field--spaced'). */
  className?: string;
  /** The control, given the ids of the hint and warning it is described by (undefined when neither shows). */
  children: (describedBy: string | undefined) => ReactNode;
}

/**
 * A labelled form control (.field): the label, the control, then its hint and soft warning when it
 * has them, both tied to the control for screen readers.
 */
export function FormField({ id, label, hint, warning, wide, className, children }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const warningId = warning ? `${id}-warning` : undefined;
  const describedBy = [hintId, warningId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', wide ? 'field--wide' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children(describedBy)}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {warning && (
        <p id={warningId} className="callout callout--warning field__warning">
          {warning}
        </p>
      )}
    </div>
  );
}

/**
 * The aria attributes of a control whose value was refused: marked invalid while `error` shows, and
 * described by the error (at `errorId`) as well as by its field's hint.
 */
export function errorAria(describedBy: string | undefined, error: unknown, errorId: string) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [describedBy, error ? errorId : ''].filter(Boolean).join(' ') || undefined,
  };
}
