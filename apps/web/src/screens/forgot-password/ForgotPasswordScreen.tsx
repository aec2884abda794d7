import { useRef, useEffect, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { forgotPasswordInput } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { AuthCard, FormAlert, SubmitButton, TextField } from '../login/AuthCard.tsx';
import { forgotErrorMessage } from '../login/messages.ts';
import { SendIcon } from '../../ui/icons.tsx';

/** /forgot-password: ask for a reset link; the form gives way to 'Check Your Email'. */
export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const doneHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sentTo) doneHeading.current?.focus();
  }, [sentTo]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const parsed = forgotPasswordInput.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await api.post('/auth/forgot-password', { email: parsed.data.email }, { noRefresh: true });
      setSentTo(parsed.data.email);
    } catch (err) {
      setError(forgotErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <section className="card auth-card auth-success" aria-labelledby="forgot-done-title">
        <span className="auth-success__icon">
          <SendIcon />
        </span>
        <h1 id="forgot-done-title" className="auth-card__title" tabIndex={-1} ref={doneHeading}>
          Check Your Email
        </h1>
        <p>
          If an account exists for <strong className="auth-email">{sentTo}</strong>, you&apos;ll receive a password reset link shortly.
        </p>
        <Link to="/login" className="button button--primary button--block">
          Back to Login
        </Link>
      </section>
    );
  }

  return (
    <AuthCard
      title="Forgot password"
      subtitle="Enter the email you signed up with and we'll send you a link to choose a new one."
      footer={
        <p>
          Remembered it?{' '}
          <Link to="/login" className="auth-link">
            Back to Login
          </Link>
        </p>
      }
    >
      <form className="auth-form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <FormAlert id="forgot-error" message={error} />
        <TextField id="email" label="Email Address" type="email" inputMode="email" autoComplete="email" value={email} onChange={setEmail} describedBy={error ? 'forgot-error' : undefined} />
        <SubmitButton busy={busy} busyText="Sending...">
          Send Reset Link
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
