import { useRef, useEffect, useState } from 'react';
import { forgotPasswordInput } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { AuthCard, AuthFooterLink, AuthSuccess, FormAlert, SubmitButton, TextField } from '../login/AuthCard.tsx';
import { forgotErrorMessage } from '../login/messages.ts';
import { requestPasswordReset } from '../login/queries.ts';
import { useAuthSubmit } from '../login/useAuthSubmit.ts';
import { SendIcon } from '../../ui/icons.tsx';

/**
 * /forgot-password: ask for a reset link; the form gives way to 'Check Your Email', or — on a server
 * with no mail server set up, where the link only goes to its outbox — to the API's own words saying so.
 */
export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const doneHeading = useRef<HTMLHeadingElement>(null);

  const { busy, error, submit, done: sentTo } = useAuthSubmit({
    check: () => {
      const parsed = forgotPasswordInput.safeParse({ email });
      return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Enter a valid email address');
    },
    send: async () => {
      const address = forgotPasswordInput.parse({ email }).email;
      const answer = await requestPasswordReset(api, address);
      return { done: { address, savedToOutbox: answer.saved_to_outbox, detail: answer.detail } };
    },
    failed: forgotErrorMessage,
  });

  useEffect(() => {
    if (sentTo) doneHeading.current?.focus();
  }, [sentTo]);

  if (sentTo?.savedToOutbox) {
    return (
      <AuthSuccess titleId="forgot-done-title" title="Reset Link Not Sent" icon={<SendIcon />} headingRef={doneHeading} action={{ to: '/login', label: 'Back to Login' }}>
        <p className="callout callout--warning" role="status">
          {sentTo.detail}
        </p>
      </AuthSuccess>
    );
  }

  if (sentTo) {
    return (
      <AuthSuccess titleId="forgot-done-title" title="Check Your Email" icon={<SendIcon />} headingRef={doneHeading} action={{ to: '/login', label: 'Back to Login' }}>
        <p>
          If an account exists for <strong className="auth-email">{sentTo.address}</strong>, you&apos;ll receive a password reset link shortly.
        </p>
      </AuthSuccess>
    );
  }

  return (
    <AuthCard
      title="Forgot password"
      subtitle="Enter the email you signed up with and we'll send you a link to choose a new one."
      footer={<AuthFooterLink lead="Remembered it?" to="/login">Back to Login</AuthFooterLink>}
    >
      <form className="auth-form" onSubmit={submit} aria-busy={busy}>
        <FormAlert id="forgot-error" message={error} />
        <TextField id="email" label="Email Address" type="email" inputMode="email" autoComplete="email" value={email} onChange={setEmail} describedBy={error ? 'forgot-error' : undefined} />
        <SubmitButton busy={busy} busyText="Sending...">
          Send Reset Link
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
