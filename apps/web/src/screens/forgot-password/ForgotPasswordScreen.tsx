import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function ForgotPasswordScreen() {
  return <NotBuiltYet title="Forgot password" purpose="Request a link to reset your password." />;
}
