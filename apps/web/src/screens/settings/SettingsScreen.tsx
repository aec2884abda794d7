import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function SettingsScreen() {
  return <NotBuiltYet title="Settings" purpose="Manage your account, business details, and invoice preferences." />;
}
