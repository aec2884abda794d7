import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function InvoicesScreen() {
  return <NotBuiltYet title="Invoices & Quotes" purpose="Your quotes, invoices and templates, with their status and payments." />;
}
