import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function ClientsScreen() {
  return <NotBuiltYet title="Clients" purpose="Manage your customers and business contacts." />;
}
