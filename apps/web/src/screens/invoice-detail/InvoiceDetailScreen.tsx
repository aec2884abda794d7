import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function InvoiceDetailScreen() {
  return <NotBuiltYet title="Invoice Detail" purpose="One quote or invoice in full." />;
}
