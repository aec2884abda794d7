import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../app/useAuth.ts';
import { AuthCard, AuthFooterLink, FormAlert, SubmitButton, TextField } from './AuthCard.tsx';
import { loginErrorMessage } from './messages.ts';
import { useAuthSubmit } from './useAuthSubmit.ts';

/** /login: email and password, 'Sign In', then /app/home. */
export function LoginScreen() {
  const auth = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useAuthSubmit({
    send: async () => {
      await auth.login({ email: email.trim(), password });
      // Nothing cached from an earlier session may show for this one.
      queryClient.clear();
      await navigate({ to: '/app/home' });
      return 'leaving';
    },
    failed: loginErrorMessage,
  });

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to your Tradie Quotes account."
      footer={<AuthFooterLink lead="New here?" to="/register">Start your free trial</AuthFooterLink>}
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
