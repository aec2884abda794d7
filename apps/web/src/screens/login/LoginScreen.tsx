import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../app/useAuth.ts';
import { AuthCard, FormAlert, SubmitButton, TextField } from './AuthCard.tsx';
import { loginErrorMessage } from './messages.ts';

/** /login: email and password, 'Sign In', then /app/home. */
export function LoginScreen() {
  const auth = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    setBusy(true);
    try {
      await auth.login({ email: email.trim(), password });
      // Nothing cached from an earlier session may show for this one.
      queryClient.clear();
      await navigate({ to: '/app/home' });
    } catch (err) {
      setError(loginErrorMessage(err));
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to your Tradie Quotes account."
      footer={
        <p>
          New here?{' '}
          <Link to="/register" className="auth-link">
            Start your free trial
          </Link>
        </p>
      }
    >
      <form className="auth-form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <FormAlert id="login-error" message={error} />
        <TextField id="email" label="Email" type="email" inputMode="email" autoComplete="email" value={email} onChange={setEmail} describedBy={error ? 'login-error' : undefined} />
        <TextField
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          describedBy={error ? 'login-error' : undefined}
          labelAside={
            <Link to="/forgot-password" className="auth-link">
              Forgot password?
            </Link>
          }
        />
        <SubmitButton busy={busy} busyText="Signing in...">
          Sign In
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
