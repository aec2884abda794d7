import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function ReportsScreen() {
  return <NotBuiltYet title="Tax Reports" purpose="GST reports and annual summaries for tax time." />;
}
