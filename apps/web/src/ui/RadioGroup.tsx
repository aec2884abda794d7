// One choice out of a few, as radio buttons in a fieldset with its legend. Three looks: 'segmented'
// (side by side, like a switch: Quote | Invoice), 'list' (one under the other, each with a line
// saying what it means) and 'choice' (one under the other, the label only).
import './radio-group.css';
import type { ReactNode } from 'react';

export interface RadioOption<T extends string> {
  value: T;
  label: ReactNode;
  /** A line under the label saying what choosing it means ('list' look). */
  detail?: ReactNode;
}

interface Props<T extends string> {
  /** The radio buttons' shared name (unique on the page). */
  name: string;
  legend: ReactNode;
  options: readonly RadioOption<T>[];
  /** The chosen value; none is checked while it is undefined (still loading). */
  value: T | undefined;
  onChange: (value: T) => void;
  look: 'segmented' | 'list' | 'choice';
  className?: string;
  /** Every option. */
  disabled?: boolean;
  /** Named by its legend as a radiogroup (the legend gets this id). */
  legendId?: string;
  'aria-describedby'?: string;
  'aria-busy'?: boolean;
}

export function RadioGroup<T extends string>({ name, legend, options, value, onChange, look, className, disabled, legendId, ...aria }: Props<T>) {
  const base = look === 'segmented' ? 'segmented' : look === 'list' ? 'choice-group choice-list' : 'choice-group';
  const buttons = options.map((o) => (
    <label key={o.value} className={look === 'segmented' ? 'segmented__option' : 'choice'}>
      <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} disabled={disabled} />
      {look === 'list' ? (
        <span className="choice-list__text">
          <span>{o.label}</span>
          {o.detail && <span className="choice-list__detail">{o.detail}</span>}
        </span>
      ) : (
        <span>{o.label}</span>
      )}
    </label>
  ));
  return (
    <fieldset
      className={className ? `${base} ${className}` : base}
      role={legendId ? 'radiogroup' : undefined}
      aria-labelledby={legendId}
      aria-describedby={aria['aria-describedby']} aria-busy={aria['aria-busy']}>
      <legend id={legendId} className="field__label">
        {legend}
      </legend>
      {look === 'list' ? <div className="choice-list__options">{buttons}</div> : buttons}
    </fieldset>
  );
}
