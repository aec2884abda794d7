import { useState } from 'react';
import { useAuth } from '../../app/useAuth.ts';
import { AuthCard, AuthFooterLink, FormAlert, SubmitButton, TextField } from '../login/AuthCard.tsx';
import { registerErrorMessage } from '../login/messages.ts';
import { useAuthSubmit, useEnterApp } from '../login/useAuthSubmit.ts';
import { validateRegister } from './validate.ts';

/** /register and /signup: sign up, sign in with the same details, then the first-run set-up (/app/setup). */
export function RegisterScreen() {
  const auth = useAuth();
  const enterApp = useEnterApp();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, submit } = useAuthSubmit({
    check: () => validateRegister({ full_name: fullName, email, password, confirm }),
    send: () => enterApp(() => auth.register({ full_name: fullName.trim(), email: email.trim(), password }), '/app/setup'),
    failed: registerErrorMessage,
  });

  const describedBy = error ? 'register-error' : undefined;
  return (
    <AuthCard
      title="Start your free trial"
      subtitle="14 days free, everything included. No credit card needed."
      footer={<AuthFooterLink lead="Already have an account?" to="/login">Sign in</AuthFooterLink>}
    >
      <form className="auth-form" onSubmit={submit} aria-busy={busy}>
        <FormAlert id="register-error" message={error} />
        <TextField id="full_name" label="Your Name" autoComplete="name" value={fullName} onChange={setFullName} describedBy={describedBy} />
        <TextField id="email" label="Email Address" type="email" inputMode="email" autoComplete="email" value={email} onChange={setEmail} describedBy={describedBy} />
        <TextField id="password" label="Password" type="password" autoComplete="new-password" value={password} onChange={setPassword} describedBy={describedBy} />
        <TextField id="confirm_password" label="Confirm Password" type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} describedBy={describedBy} />
        <SubmitButton busy={busy} busyText="Creating account...">
          Start Free Trial
        </SubmitButton>
        <p className="auth-terms">
          By signing up you agree to our <a href="/terms">Terms of Service</a> and <a href="/privacy">Privacy Policy</a>.
        </p>
      </form>
    </AuthCard>
  );
}
