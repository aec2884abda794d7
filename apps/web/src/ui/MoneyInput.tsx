import type { InputHTMLAttributes } from 'react';

type MoneyInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'className' | 'value' | 'onChange'> & {
  value: string;
  /** The text as typed (the caller parses it). */
  onValueChange: (value: string) => void;
};

/**
 * An amount of money: a '$' before a decimal text field (.input-affix), so a phone shows the number
 * keyboard. Other attributes (id, required, aria-*) go to the input.
 */
export function MoneyInput({ value, onValueChange, ...input }: MoneyInputProps) {
  return (
    <div className="input-affix">
      <span className="input-affix__prefix" aria-hidden="true">
        $
      </span>
      <input className="input input--number" type="text" inputMode="decimal" autoComplete="off" {...input} value={value} onChange={(e) => onValueChange(e.target.value)} />
    </div>
  );
}
