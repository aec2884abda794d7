// The Invoices & Quotes screen's address: /app/invoices?tab=invoices&status=draft&from=…&to=….
// A link can open a tab already filtered — the reports link to the draft invoices they left out.
import { isLocalDate, STATUS_LABELS, formatNzDate, type DocumentStatus } from '@tradie/domain';

export type ListTab = 'quotes' | 'invoices' | 'templates';

export interface InvoicesSearch {
  tab?: ListTab;
  /** Only documents with this status. */
  status?: DocumentStatus;
  /** Issue dates from / to (inclusive), YYYY-MM-DD. */
  from?: string;
  to?: string;
}

export interface ListFilter {
  status?: DocumentStatus;
  from?: string;
  to?: string;
}

const TABS: readonly ListTab[] = ['quotes', 'invoices', 'templates'];
const STATUSES = Object.keys(STATUS_LABELS).filter((s) => s !== 'deleted') as DocumentStatus[];

/** Unknown values are dropped: the screen then opens as it would without them. */
export function validateInvoicesSearch(search: Record<string, unknown>): InvoicesSearch {
  const out: InvoicesSearch = {};
  if (TABS.includes(search.tab as ListTab)) out.tab = search.tab as ListTab;
  if (STATUSES.includes(search.status as DocumentStatus)) out.status = search.status as DocumentStatus;
  if (isLocalDate(search.from)) out.from = search.from;
  if (isLocalDate(search.to)) out.to = search.to;
  return out;
}

/** Where the screen remembers the tab last open in this browser tab (sessionStorage). */
export const TAB_STORAGE_KEY = 'invoicesTab';

/** The tab last open in this browser tab, so Back from a detail returns to it. */
export function initialTab(): ListTab {
  try {
    const saved = window.sessionStorage.getItem(TAB_STORAGE_KEY);
    return TABS.includes(saved as ListTab) ? (saved as ListTab) : 'quotes';
  } catch {
    return 'quotes';
  }
}

export const filterOf = (s: InvoicesSearch): ListFilter => ({
  ...(s.status ? { status: s.status } : {}),
  ...(s.from ? { from: s.from } : {}),
  ...(s.to ? { to: s.to } : {}),
});

export const hasFilter = (f: ListFilter): boolean => Boolean(f.status || f.from || f.to);

/** 'Draft invoices dated 1/04/2026 – 30/06/2026', for the banner above a filtered list. */
export function describeFilter(f: ListFilter, noun: 'quotes' | 'invoices'): string {
  const what = f.status ? `${STATUS_LABELS[f.status]} ${noun}` : noun.charAt(0).toUpperCase() + noun.slice(1);
  if (f.from && f.to) return `${what} dated ${formatNzDate(f.from)} – ${formatNzDate(f.to)}`;
  if (f.from) return `${what} dated from ${formatNzDate(f.from)}`;
  if (f.to) return `${what} dated up to ${formatNzDate(f.to)}`;
  return what;
}
