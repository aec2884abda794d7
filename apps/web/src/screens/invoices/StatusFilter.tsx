// The list's status filter: a row of chips under the tabs. 'All' is every document but the voided
// ones, which are listed under their own chip ('Voided') and never counted with the rest.
import './status-filter.css';
import { Link } from '@tanstack/react-router';
import type { DocumentStatus } from '@tradie/domain';
import type { DocumentType } from '../shared/documents.ts';
import type { ListFilter } from './search.ts';

interface Chip {
  label: string;
  status: DocumentStatus | undefined;
}

/** A tab's chips: All and Draft, the tab's own, then Voided. */
const chips = (...own: Chip[]): readonly Chip[] => [{ label: 'All', status: undefined }, { label: 'Draft', status: 'draft' }, ...own, { label: 'Voided', status: 'void' }];

/** The chips of each tab, in order; a status reached another way (a report's link) shows in the banner instead. */
export const FILTER_CHIPS: Record<DocumentType, readonly Chip[]> = {
  quote: chips({ label: 'Sent', status: 'sent' }, { label: 'Accepted', status: 'accepted' }),
  invoice: chips({ label: 'Overdue', status: 'overdue' }, { label: 'Paid', status: 'paid' }),
};

/** True when the filter is one chip of the tab (no dates, and a status the chips offer or none). */
export const isChipFilter = (type: DocumentType, f: ListFilter): boolean => !f.from && !f.to && FILTER_CHIPS[type].some((c) => c.status === f.status);

/** Voided documents are left out of 'All' (they are under 'Voided'); any status asked for is shown as it is. */
export const showsInList = (f: ListFilter, status: string): boolean => f.status !== undefined || status !== 'void';

export function StatusFilter({ type, filter }: { type: DocumentType; filter: ListFilter }) {
  const tab = type === 'quote' ? 'quotes' : 'invoices';
  const noun = type === 'quote' ? 'quotes' : 'invoices';
  return (
    <nav className="status-filter" aria-label={`Filter ${noun}`}>
      <ul className="status-filter__list">
        {FILTER_CHIPS[type].map((c) => {
          // The chip of the filter shown is the current page. The router marks its link so when the
          // address names the tab; the screen also opens on a tab the address leaves out.
          const active = !filter.from && !filter.to && filter.status === c.status;
          return (
            <li key={c.label}>
              <Link
                to="/app/invoices"
                search={c.status ? { tab, status: c.status } : { tab }}
                activeOptions={{ exact: true, includeSearch: true }}
                aria-current={active ? 'page' : undefined}
                className="status-filter__chip"
                aria-label={c.status === undefined ? `All ${noun} (not voided)` : `${c.label} ${noun}`}
              >
                {c.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
