/**
 * The pieces the four auth screens share: a card with a heading, labelled fields, one alert for
 * the form's problem, and a submit button that says what it is doing.
 */
import type { ChangeEvent, ReactNode, Ref } from 'react';
import { Link, type LinkProps } from '@tanstack/react-router';
import './auth.css';

export function AuthCard({ title, subtitle, children, footer, titleId = 'auth-title' }: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  titleId?: string;
}) {
  return (
    <section className="card auth-card" aria-labelledby={titleId}>
      <h1 id={titleId} className="auth-card__title" tabIndex={-1}>
        {title}
      </h1>
      {subtitle ? <p className="auth-card__subtitle">{subtitle}</p> : null}
      {children}
      {footer ? <div className="auth-card__footer">{footer}</div> : null}
    </section>
  );
}

/** The card's footer line: 'New here? Start your free trial', the link after an optional lead-in. */
export function AuthFooterLink({ lead, to, children }: { lead?: string; to: LinkProps['to']; children: string }) {
  return (
    <p>
      {lead && (
        <>
          {lead}{' '}
        </>
      )}
      <Link to={to} className="auth-link">
        {children}
      </Link>
    </p>
  );
}

/**
 * The card that replaces a form once it has done its job: an icon, the heading (focused by the
 * screen through `headingRef`, so it is announced), what happened, and the one way on.
 */
export function AuthSuccess({ titleId, title, icon, headingRef, action, children }: {
  titleId: string;
  title: string;
  icon: ReactNode;
  headingRef: Ref<HTMLHeadingElement>;
  action: { to: LinkProps['to']; label: string };
  children: ReactNode;
}) {
  return (
    <section className="card auth-card auth-success" aria-labelledby={titleId}>
      <span className="auth-success__icon">{icon}</span>
      <h1 id={titleId} className="auth-card__title" tabIndex={-1} ref={headingRef}>
        {title}
      </h1>
      {children}
      <Link to={action.to} className="button button--primary button--block">
        {action.label}
      </Link>
    </section>
  );
}

export function TextField({ id, label, value, onChange, type = 'text', autoComplete, required = true, disabled, describedBy, labelAside, inputMode }: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  autoComplete: string;
  required?: boolean;
  disabled?: boolean;
  describedBy?: string;
  labelAside?: ReactNode;
  inputMode?: 'email' | 'text';
}) {
  return (
    <div className="field">
      <div className="auth-field__label-row">
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        {labelAside}
      </div>
      <input
        id={id}
        name={id}
        className="input"
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        required={required}
        disabled={disabled}
        value={value}
        aria-describedby={describedBy}
        autoCapitalize={type === 'text' ? undefined : 'none'}
        spellCheck={type === 'text' ? undefined : false}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      />
    </div>
  );
}

/** The form's one problem, announced when it appears. Always in the DOM so screen readers hear it. */
export function FormAlert({ id, message }: { id: string; message: string | null }) {
  return (
    <div id={id} role="alert" className={message ? 'callout callout--error auth-alert' : 'auth-alert auth-alert--empty'}>
      {message}
    </div>
  );
}

export function SubmitButton({ busy, busyText, children, disabled }: { busy: boolean; busyText: string; children: string; disabled?: boolean }) {
  return (
    <button type="submit" className="button button--primary button--block button--large auth-submit" disabled={busy || disabled} aria-disabled={busy || disabled}>
      {busy ? (
        <>
          <span className="spinner spinner--small spinner--on-dark" aria-hidden="true" />
          {busyText}
        </>
      ) : (
        children
      )}
    </button>
  );
}
