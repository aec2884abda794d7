import type { ReactNode } from 'react';

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange?: (value: string) => void;
  type?: 'text' | 'email' | 'tel';
  hint?: ReactNode;
  warning?: string | undefined;
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  readOnly?: boolean;
  wide?: boolean;
  maxLength?: number;
}

/** A labelled input with an optional hint and a soft warning, both tied to it for screen readers. */
export function Field({ id, label, value, onChange, type = 'text', hint, warning, autoComplete, inputMode, readOnly, wide, maxLength }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const warningId = warning ? `${id}-warning` : undefined;
  const describedBy = [hintId, warningId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${wide ? ' field--wide' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        type={type}
        value={value}
        onChange={onChange ? (e) => onChange(e.target.value) : undefined}
        readOnly={readOnly}
        autoComplete={autoComplete ?? 'off'}
        inputMode={inputMode}
        maxLength={maxLength}
        aria-describedby={describedBy}
      />
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
