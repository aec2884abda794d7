import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { AUTH_MESSAGES } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { AuthCard, FormAlert, SubmitButton, TextField } from '../login/AuthCard.tsx';
import { resetErrorMessage } from '../login/messages.ts';
import { CheckIcon } from '../../ui/icons.tsx';
import { validateReset } from './validate.ts';

/** After a reset, the screen goes to /login on its own after this long. */
export const RESET_REDIRECT_MS = 3000;

/** /reset-password?token=…: choose a new password, then 'Password Reset!' and /login. */
export function ResetPasswordScreen() {
  const { token } = useSearch({ from: '/guest/reset-password' });
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const doneHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!done) return;
    doneHeading.current?.focus();
    const timer = setTimeout(() => void navigate({ to: '/login' }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const problem = validateReset(token, password, confirm);
    setError(problem);
    if (problem || !token) return;
    setBusy(true);
    try {
      await api.post('/auth/reset-password', { token, new_password: password }, { noRefresh: true });
      setDone(true);
    } catch (err) {
      setError(resetErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <section className="card auth-card auth-success" aria-labelledby="reset-done-title">
        <span className="auth-success__icon">
          <CheckIcon />
        </span>
        <h1 id="reset-done-title" className="auth-card__title" tabIndex={-1} ref={doneHeading}>
          Password Reset!
        </h1>
        <p>Your password has been changed. Taking you to the sign-in page…</p>
        <Link to="/login" className="button button--primary button--block">
          Go to Login
        </Link>
      </section>
    );
  }

  const noToken = !token;
  const describedBy = ['reset-rules', error ? 'reset-error' : null].filter(Boolean).join(' ');
  return (
    <AuthCard
      title="Reset password"
      subtitle="Choose a new password for your account."
      footer={
        <p>
          <Link to="/forgot-password" className="auth-link">
            Request a new reset link
          </Link>
        </p>
      }
    >
      {noToken ? (
        <p className="callout callout--warning auth-notice" role="alert">
          {AUTH_MESSAGES.invalidResetLinkLong}
        </p>
      ) : null}
      <form className="auth-form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <FormAlert id="reset-error" message={error} />
        <TextField id="new_password" label="New Password" type="password" autoComplete="new-password" value={password} onChange={setPassword} disabled={noToken} describedBy={describedBy} />
        <TextField id="confirm_password" label="Confirm Password" type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} disabled={noToken} describedBy={describedBy} />
        <div id="reset-rules" className="callout auth-rules">
          <p>Your new password needs:</p>
          <ul>
            <li>at least 8 characters</li>
            <li>both fields must match</li>
          </ul>
        </div>
        <SubmitButton busy={busy} busyText="Resetting..." disabled={noToken}>
          Reset Password
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
