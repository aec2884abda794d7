import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { PaymentTerms } from '@tradie/domain';
import { FormField } from '../../ui/FormField.tsx';
import { PaymentTermsControl } from '../shared/PaymentTermsControl.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { CLIENT_FIELDS, labelOf, leftWhenEditing, type ClientField, type ClientFormSection } from './clientFields.ts';
import { formWarnings, type ClientFormValues } from './clientForm.ts';

export interface ClientFormProps {
  id: string;
  mode: 'adding' | 'editing';
  initial: ClientFormValues;
  saving: boolean;
  /** 'Error saving client: …' when the last save failed. */
  error: string | null;
  onSubmit: (values: ClientFormValues) => void;
  onCancel: () => void;
}

/**
 * Add or edit one client. The values are the component's own state; the parent remounts it (by key)
 * to reset it. The fields come from CLIENT_FIELDS (clientFields.ts), one loop per block. Check-digit
 * warnings show under their field once it has been left, and never block.
 */
export function ClientForm({ id, mode, initial, saving, error, onSubmit, onCancel }: ClientFormProps) {
  const [values, setValues] = useState<ClientFormValues>(initial);
  const [left, setLeft] = useState<Record<string, boolean>>(() => (mode === 'editing' ? leftWhenEditing() : {}));
  // Another number of days typed that is not one (the box says why): nothing is saved until it is.
  const [termsInvalid, setTermsInvalid] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const uid = useId();
  const f = (name: string) => `${uid}-${name}`;

  // Opening the form (or switching to another client) brings it into view and announces its title,
  // without popping up a phone's keyboard.
  useEffect(() => {
    headingRef.current?.scrollIntoView({ block: 'start' });
    headingRef.current?.focus({ preventScroll: true });
  }, []);

  const set = <K extends keyof ClientFormValues>(key: K, value: ClientFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const leave = (key: string) => setLeft((l) => (l[key] ? l : { ...l, [key]: true }));
  const business = values.is_business === 'true';
  const warnings = formWarnings(values).filter((w) => left[w.field]);
  const warningOf = (field: string) => warnings.find((w) => w.field === field)?.message;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (termsInvalid) {
      document.getElementById(f('terms-days'))?.focus();
      return;
    }
    if (!saving) onSubmit(values);
  };

  const title = mode === 'editing' ? 'Edit Client' : 'Add New Client';

  const fieldsOf = (section: ClientFormSection): ReactNode => (
    <div className="form-grid">
      {CLIENT_FIELDS.filter((field) => field.section === section).map((field) => (
        <FieldBlock
          key={field.name}
          field={field}
          values={values}
          fieldId={f}
          warning={field.control === 'input' && field.warning ? warningOf(field.name) : undefined}
          onChange={(value) => set(field.name, value as ClientFormValues[typeof field.name])}
          onTerms={(terms) => {
            setTermsInvalid(terms === null);
            if (terms) set('default_payment_terms', terms);
          }}
          onLeave={() => leave(field.name)}
        />
      ))}
    </div>
  );

  return (
    <section id={id} className="card card--emphasis client-form" aria-labelledby={f('title')}>
      <h2 id={f('title')} ref={headingRef} tabIndex={-1} className="card__title client-form__title">
        {title}
      </h2>
      <form onSubmit={submit} aria-labelledby={f('title')} aria-busy={saving}>
        <fieldset className="choice-group client-form__type">
          <legend className="field__label">Client Type</legend>
          <div className="client-type">
            <label className="choice client-type__option">
              <input
                type="radio"
                name={f('type')}
                value="false"
                checked={!business}
                onChange={() => set('is_business', 'false')}
              />
              <span>Individual</span>
            </label>
            <label className="choice client-type__option">
              <input type="radio" name={f('type')} value="true" checked={business} onChange={() => set('is_business', 'true')} />
              <span>Business</span>
            </label>
          </div>
        </fieldset>

        {fieldsOf('contact')}

        {business && (
          <fieldset className="client-form__business">
            <legend>Business Details</legend>
            {fieldsOf('business')}
          </fieldset>
        )}

        {fieldsOf('more')}

        <ErrorAlert message={error} className="client-form__error" />

        <div className="client-form__actions">
          <button type="button" className="button button--ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={saving}>
            {mode === 'editing' ? 'Update Client' : 'Save Client'}
          </button>
        </div>
      </form>
    </section>
  );
}

interface FieldBlockProps {
  field: ClientField;
  values: ClientFormValues;
  /** The form's ids: `${useId()}-${suffix}`. */
  fieldId: (suffix: string) => string;
  /** The check-digit warning to show under it, if any. */
  warning: string | undefined;
  onChange: (value: string) => void;
  /** Payment terms chosen, or null while the days typed are not a number of days. */
  onTerms: (terms: PaymentTerms | null) => void;
  onLeave: () => void;
}

/** One field: its label, its control, and under it its hint and warning when it has them. */
function FieldBlock({ field, values, fieldId, warning, onChange, onTerms, onLeave }: FieldBlockProps) {
  const id = fieldId(field.id ?? field.name);
  const value = values[field.name];
  const common = { id, className: 'input client-input', name: field.name, value };
  return (
    <FormField id={id} label={labelOf(field, values)} hint={field.hint} warning={warning} wide={field.width === 'wide'}>
      {(describedBy) => {
        switch (field.control) {
          case 'input':
            return (
              <input
                {...common}
                type={field.type}
                inputMode={field.inputMode}
                required={field.required}
                maxLength={field.maxLength}
                autoComplete={field.autoComplete}
                aria-describedby={describedBy}
                onChange={(e) => onChange(e.target.value)}
                onBlur={field.warning ? onLeave : undefined}
              />
            );
          case 'textarea':
            return <textarea {...common} rows={field.rows} maxLength={field.maxLength} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)} />;
          case 'terms':
            return <PaymentTermsControl id={id} name={field.name} className={common.className} value={values.default_payment_terms} describedBy={describedBy} onChange={onTerms} />;
        }
      }}
    </FormField>
  );
}
