import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { AUTH_MESSAGES } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { AuthCard, AuthFooterLink, AuthSuccess, FormAlert, SubmitButton, TextField } from '../login/AuthCard.tsx';
import { resetErrorMessage } from '../login/messages.ts';
import { resetPassword } from '../login/queries.ts';
import { useAuthSubmit } from '../login/useAuthSubmit.ts';
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
  const doneHeading = useRef<HTMLHeadingElement>(null);

  const { busy, error, submit, done } = useAuthSubmit({
    // No token is a problem too ('Invalid reset link').
    check: () => validateReset(token, password, confirm),
    send: async () => {
      await resetPassword(api, token ?? '', password);
      return { done: true };
    },
    failed: resetErrorMessage,
  });

  useEffect(() => {
    if (!done) return;
    doneHeading.current?.focus();
    const timer = setTimeout(() => void navigate({ to: '/login' }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  if (done) {
    return (
      <AuthSuccess titleId="reset-done-title" title="Password Reset!" icon={<CheckIcon />} headingRef={doneHeading} action={{ to: '/login', label: 'Go to Login' }}>
        <p>Your password has been changed. Taking you to the sign-in page…</p>
      </AuthSuccess>
    );
  }

  const noToken = !token;
  const describedBy = ['reset-rules', error ? 'reset-error' : null].filter(Boolean).join(' ');
  return (
    <AuthCard
      title="Reset password"
      subtitle="Choose a new password for your account."
      footer={<AuthFooterLink to="/forgot-password">Request a new reset link</AuthFooterLink>}
    >
      {noToken ? (
        <p className="callout callout--warning auth-notice" role="alert">
          {AUTH_MESSAGES.invalidResetLinkLong}
        </p>
      ) : null}
      <form className="auth-form" onSubmit={submit} aria-busy={busy}>
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
