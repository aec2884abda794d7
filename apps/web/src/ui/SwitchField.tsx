import type { ReactNode } from 'react';
import { ErrorAlert } from './Status.tsx';

interface SwitchFieldProps {
  label: ReactNode;
  /** The hint's id: the switch is described by it. */
  hintId: string;
  /** Said under the switch: what its state means now. */
  hint: ReactNode;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  /** Why the last change failed, if it did. */
  error?: ReactNode;
}

/** An on/off setting that saves as it is switched: the switch, a hint for its state, and a failed save's message. */
export function SwitchField({ label, hintId, hint, checked, disabled, onChange, error }: SwitchFieldProps) {
  return (
    <div className="switch-field">
      <label className="switch">
        <input type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} aria-describedby={hintId} />
        <span className="switch__track" aria-hidden="true" />
        <span className="switch__label">{label}</span>
      </label>
      <p id={hintId} className="field__hint">
        {hint}
      </p>
      <ErrorAlert message={error} />
    </div>
  );
}
