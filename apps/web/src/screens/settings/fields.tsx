import type { ReactNode } from 'react';
import { BUSINESS_SETTINGS_LIMITS } from '@tradie/contracts';
import { errorAria, FormField } from '../../ui/FormField.tsx';
import type { SettingsField, SettingsFormValues } from './settingsForm.ts';

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange?: (value: string) => void;
  type?: 'text' | 'email' | 'tel';
  hint?: ReactNode;
  warning?: string | undefined;
  /** Why the last save refused this value; shown by the field, which is marked invalid. */
  error?: string | undefined;
  /** Shown under the error (e.g. the choice to keep the value as typed). */
  afterError?: ReactNode;
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  readOnly?: boolean;
  wide?: boolean;
  maxLength?: number;
}

/** A labelled input with an optional hint and a soft warning, both tied to it for screen readers. */
export function Field({ id, label, value, onChange, type = 'text', hint, warning, error, afterError, autoComplete, inputMode, readOnly, wide, maxLength }: FieldProps) {
  const errorId = `${id}-error`;
  return (
    <FormField id={id} label={label} hint={hint} warning={error ? undefined : warning} wide={wide}>
      {(describedBy) => (
        <>
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
            {...errorAria(describedBy, error, errorId)}
          />
          {error && (
            <p id={errorId} className="field__error">
              {error}
            </p>
          )}
          {error && afterError}
        </>
      )}
    </FormField>
  );
}

/**
 * The props that tie a Field to one setting of the form: its value, its change handler and its
 * length limit. `const bind = bindSettings(values, onChange)`, then `<Field ... {...bind('city')} />`.
 */
export function bindSettings(values: SettingsFormValues, onChange: (field: keyof SettingsFormValues, value: string) => void) {
  return (field: SettingsField) => ({ value: values[field], onChange: (v: string) => onChange(field, v), maxLength: BUSINESS_SETTINGS_LIMITS[field] });
}
