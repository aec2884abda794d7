// Payment terms in a form: the usual terms in a list, or another number of days typed in a box that
// appears under it, and the due date the terms give an invoice issued today (termsChoice.ts).
import { nzDateOf, PAYMENT_TERMS, type PaymentTerms } from '@tradie/domain';
import { useState } from 'react';
import { errorAria } from '../../ui/FormField.tsx';
import { choiceOfTerms, daysOfTerms, dueDateLine, OTHER_DAYS, TERMS_TEXT, termsFromDays, type TermsChoice } from './termsChoice.ts';

interface Props {
  /** The list's id (its label points at it); the days box and the lines under it start with it. */
  id: string;
  name?: string;
  className?: string;
  value: PaymentTerms;
  describedBy: string | undefined;
  /** New terms, or null while the days typed are not a number of days (the form must not save then). */
  onChange: (terms: PaymentTerms | null) => void;
  /** Today in New Zealand (injected by tests). */
  today?: string;
}

export function PaymentTermsControl({ id, name, className = 'input', value, describedBy, onChange, today = nzDateOf(new Date()) }: Props) {
  const [choice, setChoice] = useState<TermsChoice>(() => choiceOfTerms(value));
  const [days, setDays] = useState(() => daysOfTerms(value));
  const [left, setLeft] = useState(false);
  const typed = choice === OTHER_DAYS ? termsFromDays(days) : null;
  const shown: PaymentTerms | null = choice === OTHER_DAYS ? typed : choice;
  const daysError = choice === OTHER_DAYS && typed === null && (left || days.trim() !== '') ? TERMS_TEXT.daysInvalid : null;
  const dueId = `${id}-due`;

  const pick = (next: TermsChoice) => {
    setChoice(next);
    onChange(next === OTHER_DAYS ? termsFromDays(days) : next);
  };
  const type = (text: string) => {
    setDays(text);
    onChange(termsFromDays(text));
  };

  return (
    <>
      <select
        id={id}
        name={name}
        className={className}
        value={choice}
        aria-describedby={[describedBy, shown ? dueId : ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => pick(e.target.value as TermsChoice)}
      >
        {PAYMENT_TERMS.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
        <option value={OTHER_DAYS}>{TERMS_TEXT.otherDays}</option>
      </select>
      {choice === OTHER_DAYS && (
        <div className="terms-days">
          <label className="field__label" htmlFor={`${id}-days`}>
            {TERMS_TEXT.daysLabel}
          </label>
          <input
            id={`${id}-days`}
            className="input input--short input--number"
            type="text"
            inputMode="numeric"
            maxLength={3}
            autoComplete="off"
            value={days}
            onChange={(e) => type(e.target.value)}
            onBlur={() => setLeft(true)}
            {...errorAria(undefined, daysError, `${id}-days-error`)}
          />
          {daysError && (
            <p id={`${id}-days-error`} className="callout callout--error">
              {daysError}
            </p>
          )}
        </div>
      )}
      {shown && (
        <p id={dueId} className="field__hint">
          {dueDateLine(shown, today)}
        </p>
      )}
    </>
  );
}
