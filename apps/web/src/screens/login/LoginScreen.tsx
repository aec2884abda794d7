import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function LoginScreen() {
  return <NotBuiltYet title="Sign in" purpose="Sign in with your email and password." />;
}
