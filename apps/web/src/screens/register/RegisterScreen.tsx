import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function RegisterScreen() {
  return <NotBuiltYet title="Start your free trial" purpose="Create your account: 14 days free, no credit card." />;
}
