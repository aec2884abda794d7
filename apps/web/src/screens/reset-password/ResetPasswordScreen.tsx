import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function ResetPasswordScreen() {
  return <NotBuiltYet title="Reset password" purpose="Choose a new password using the link from your email." />;
}
