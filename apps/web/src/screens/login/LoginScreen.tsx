import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useAuth } from '../../app/useAuth.ts';
import { AuthCard, AuthFooterLink, FormAlert, SubmitButton, TextField } from './AuthCard.tsx';
import { loginErrorMessage } from './messages.ts';
import { useAuthSubmit, useEnterApp } from './useAuthSubmit.ts';

/** /login: email and password, 'Sign In', then /app/home. */
export function LoginScreen() {
  const auth = useAuth();
  const enterApp = useEnterApp();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useAuthSubmit({
    send: () => enterApp(() => auth.login({ email: email.trim(), password })),
    failed: loginErrorMessage,
  });

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to your Tradie Quotes account."
      footer={<AuthFooterLink lead="New here?" to="/register">Start your free trial</AuthFooterLink>}
    >
      <form className="auth-form" onSubmit={submit} aria-busy={busy}>
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
