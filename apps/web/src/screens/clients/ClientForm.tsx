import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { PAYMENT_TERMS, formWarnings, nameLabel, type ClientFormValues } from './clientForm.ts';

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
 * to reset it. Check-digit warnings show under their field once it has been left, and never block.
 */
export function ClientForm({ id, mode, initial, saving, error, onSubmit, onCancel }: ClientFormProps) {
  const [values, setValues] = useState<ClientFormValues>(initial);
  const [left, setLeft] = useState<Record<string, boolean>>(mode === 'editing' ? { gst_number: true, company_number: true } : {});
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
    if (!saving) onSubmit(values);
  };

  const gstWarning = warningOf('gst_number');
  const nzbnWarning = warningOf('company_number');
  const title = mode === 'editing' ? 'Edit Client' : 'Add New Client';

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

        <div className="form-grid">
          <div className="field field--wide">
            <label className="field__label" htmlFor={f('name')}>
              {nameLabel(values.is_business)}
            </label>
            <input
              id={f('name')}
              className="input client-input"
              name="name"
              type="text"
              required
              maxLength={200}
              autoComplete="off"
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={f('email')}>
              Email
            </label>
            <input
              id={f('email')}
              className="input client-input"
              name="email"
              type="email"
              maxLength={254}
              autoComplete="off"
              value={values.email}
              onChange={(e) => set('email', e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={f('phone')}>
              Phone
            </label>
            <input
              id={f('phone')}
              className="input client-input"
              name="phone"
              type="tel"
              maxLength={50}
              autoComplete="off"
              value={values.phone}
              onChange={(e) => set('phone', e.target.value)}
            />
          </div>
        </div>

        {business && (
          <fieldset className="client-form__business">
            <legend>Business Details</legend>
            <div className="form-grid">
              <div className="field field--wide">
                <label className="field__label" htmlFor={f('business_name')}>
                  Business/Trading Name
                </label>
                <input
                  id={f('business_name')}
                  className="input client-input"
                  name="business_name"
                  type="text"
                  maxLength={200}
                  autoComplete="off"
                  value={values.business_name}
                  onChange={(e) => set('business_name', e.target.value)}
                />
              </div>
              <div className="field">
                <label className="field__label" htmlFor={f('company_number')}>
                  NZBN / Company Number
                </label>
                <input
                  id={f('company_number')}
                  className="input client-input"
                  name="company_number"
                  type="text"
                  maxLength={50}
                  autoComplete="off"
                  value={values.company_number}
                  aria-describedby={nzbnWarning ? f('company_number-warning') : undefined}
                  onChange={(e) => set('company_number', e.target.value)}
                  onBlur={() => leave('company_number')}
                />
                {nzbnWarning && (
                  <p id={f('company_number-warning')} className="callout callout--warning field__warning">
                    {nzbnWarning}
                  </p>
                )}
              </div>
              <div className="field">
                <label className="field__label" htmlFor={f('gst_number')}>
                  GST Number
                </label>
                <input
                  id={f('gst_number')}
                  className="input client-input"
                  name="gst_number"
                  type="text"
                  maxLength={50}
                  autoComplete="off"
                  value={values.gst_number}
                  aria-describedby={gstWarning ? f('gst_number-warning') : undefined}
                  onChange={(e) => set('gst_number', e.target.value)}
                  onBlur={() => leave('gst_number')}
                />
                {gstWarning && (
                  <p id={f('gst_number-warning')} className="callout callout--warning field__warning">
                    {gstWarning}
                  </p>
                )}
              </div>
            </div>
          </fieldset>
        )}

        <div className="form-grid">
          <div className="field field--wide">
            <label className="field__label" htmlFor={f('address')}>
              Address
            </label>
            <textarea
              id={f('address')}
              className="input client-input"
              name="address"
              rows={3}
              maxLength={1000}
              value={values.address}
              onChange={(e) => set('address', e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={f('terms')}>
              Default Payment Terms
            </label>
            <select
              id={f('terms')}
              className="input client-input"
              name="default_payment_terms"
              value={values.default_payment_terms}
              onChange={(e) => set('default_payment_terms', e.target.value as ClientFormValues['default_payment_terms'])}
            >
              {PAYMENT_TERMS.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <div className="field field--wide">
            <label className="field__label" htmlFor={f('notes')}>
              Notes (Internal)
            </label>
            <textarea
              id={f('notes')}
              className="input client-input"
              name="notes"
              rows={3}
              maxLength={5000}
              value={values.notes}
              onChange={(e) => set('notes', e.target.value)}
            />
          </div>
        </div>

        {error && (
          <p className="callout callout--error client-form__error" role="alert">
            {error}
          </p>
        )}

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
