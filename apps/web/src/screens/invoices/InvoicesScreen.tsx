import './invoices.css';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { DocumentListRecord } from '@tradie/contracts';
import { formatNzDate, formatNzdList } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import type { Template } from '../../templates/templateStore.ts';
import { useTemplates, useTemplateStore } from '../../templates/useTemplates.ts';
import { useMarkPaid, useSyncToAccounting } from '../shared/documentActions.ts';
import { centsOf, isSynced, PROVIDER_NAME, referenceOf, type DocumentType } from '../shared/documents.ts';
import { Notice, useNotice, type NoticeTone } from '../../ui/Toast.tsx';
import { PaymentBadge, StatusChip, SyncedBadge, TypeChip } from '../shared/parts.tsx';
import { documentCountsQuery, documentListQuery } from './queries.ts';
import { describeFilter, filterOf, hasFilter, type ListFilter, type ListTab } from './search.ts';

type Tab = ListTab;
const TABS: readonly Tab[] = ['quotes', 'invoices', 'templates'];
const TAB_STORAGE_KEY = 'invoicesTab';

const tabLabel = (tab: Tab, n: number | undefined): string => {
  const name = tab === 'quotes' ? 'Quotes' : tab === 'invoices' ? 'Invoices' : 'Templates';
  return `${name} (${n ?? '…'})`;
};

/** The tab last open in this browser tab, so Back from a detail returns to it. */
function initialTab(): Tab {
  try {
    const saved = window.sessionStorage.getItem(TAB_STORAGE_KEY);
    return TABS.includes(saved as Tab) ? (saved as Tab) : 'quotes';
  } catch {
    return 'quotes';
  }
}

export function InvoicesScreen() {
  const store = useTemplateStore();
  const templates = useTemplates(store);
  const counts = useQuery(documentCountsQuery(api));
  const search = useSearch({ from: '/app/invoices' });
  const filter = filterOf(search);
  const [tab, setTab] = useState<Tab>(() => search.tab ?? initialTab());
  const { notice, show, clear } = useNotice();
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ quotes: null, invoices: null, templates: null });

  const choose = (next: Tab, focus = false) => {
    setTab(next);
    try {
      window.sessionStorage.setItem(TAB_STORAGE_KEY, next);
    } catch {
      // Private mode: the tab is simply not remembered.
    }
    if (focus) tabRefs.current[next]?.focus();
  };

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.indexOf(tab);
    const to = e.key === 'ArrowRight' ? TABS[(i + 1) % TABS.length] : e.key === 'ArrowLeft' ? TABS[(i + TABS.length - 1) % TABS.length] : e.key === 'Home' ? TABS[0] : e.key === 'End' ? TABS[TABS.length - 1] : undefined;
    if (to) {
      e.preventDefault();
      choose(to, true);
    }
  };

  const countOf = (t: Tab): number | undefined => (t === 'templates' ? templates.length : t === 'quotes' ? counts.data?.quotes : counts.data?.invoices);

  return (
    <section className="screen docs" aria-labelledby="docs-title">
      <div className="screen-head">
        <h1 id="docs-title" className="screen-title">
          Invoices &amp; Quotes
        </h1>
        <Link to="/app/calculator" className="button button--accent screen-head__action">
          + New Quote/Invoice
        </Link>
      </div>

      <div className="tabs" role="tablist" aria-label="Quotes, invoices and templates">
        {TABS.map((t) => (
          <button
            key={t}
            ref={(el) => {
              tabRefs.current[t] = el;
            }}
            id={`docs-tab-${t}`}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === t}
            aria-controls={`docs-panel-${t}`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => choose(t)}
            onKeyDown={onTabKey}
          >
            {tabLabel(t, countOf(t))}
          </button>
        ))}
      </div>

      <div id={`docs-panel-${tab}`} role="tabpanel" aria-labelledby={`docs-tab-${tab}`} className="tab-panel">
        {tab === 'templates' ? <TemplatesTab templates={templates} onDelete={(t) => store.remove(t.id)} onUse={(t) => store.handOver(t)} /> : <DocumentsTab key={tab} type={tab === 'quotes' ? 'quote' : 'invoice'} filter={filter} show={show} />}
      </div>

      <Notice notice={notice} onClose={clear} />
    </section>
  );
}

// ---- quotes and invoices --------------------------------------------------------------------------

function DocumentsTab({ type, filter, show }: { type: DocumentType; filter: ListFilter; show: (text: string, tone?: NoticeTone) => void }) {
  const list = useInfiniteQuery(documentListQuery(api, type, filter));
  const markPaid = useMarkPaid(show);
  const sync = useSyncToAccounting(show);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // Load the next page as the end of the list scrolls into view (a little before it does).
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (list.isPending) {
    return (
      <div className="loading-row loading-row--centre" role="status">
        <span className="spinner spinner--small" aria-hidden="true" />
        <span>Loading...</span>
      </div>
    );
  }

  if (list.isError) {
    return (
      <div className="callout callout--error callout--action" role="alert">
        <span>{errorDetail(list.error) ?? `Failed to load ${type === 'quote' ? 'quotes' : 'invoices'}`}</span>
        <button type="button" className="button button--ghost button--compact" onClick={() => void list.refetch()}>
          Retry
        </button>
      </div>
    );
  }

  const records = list.data.pages.flatMap((p) => p.records);
  const filtered = hasFilter(filter);
  const banner = filtered && (
    <div className="callout callout--action docs__filter" role="status">
      <span>
        Showing {describeFilter(filter, type === 'quote' ? 'quotes' : 'invoices').replace(/^./, (c) => c.toLowerCase())}
        {list.data.pages[0]?.total != null ? ` (${list.data.pages[0].total})` : ''}
      </span>
      <Link to="/app/invoices" search={{ tab: type === 'quote' ? 'quotes' : 'invoices' }} className="button button--ghost button--compact">
        Show all
      </Link>
    </div>
  );
  if (records.length === 0) {
    if (!filtered) return <EmptyDocuments type={type} />;
    return (
      <>
        {banner}
        <p className="empty-state">Nothing matches.</p>
      </>
    );
  }

  return (
    <>
      {banner}
      <ul className="docs__list" aria-label={type === 'quote' ? 'Quotes' : 'Invoices'}>
        {records.map((d) =>
          d.type === 'quote' ? (
            <QuoteCard key={d.id} doc={d} />
          ) : (
            <InvoiceCard key={d.id} doc={d} markingPaid={markPaid.pendingId === d.id} syncing={sync.pendingId === d.id} onMarkPaid={markPaid.run} onSync={sync.run} />
          ),
        )}
      </ul>
      <div ref={sentinel} className="docs__more">
        {hasNextPage && (
          <button type="button" className="button button--ghost" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading...' : 'Load more'}
          </button>
        )}
      </div>
    </>
  );
}

function EmptyDocuments({ type }: { type: DocumentType }) {
  return type === 'quote' ? (
    <div className="empty-state">
      <p className="empty-state__title">No quotes yet</p>
      <p>Create a quote to send pricing to potential clients</p>
      <Link to="/app/calculator" className="button button--primary">
        Create Quote
      </Link>
    </div>
  ) : (
    <div className="empty-state">
      <p className="empty-state__title">No invoices yet</p>
      <p>Create an invoice to bill clients for completed work</p>
      <Link to="/app/calculator" className="button button--primary">
        Create Invoice
      </Link>
    </div>
  );
}

const QuoteCard = memo(function QuoteCard({ doc }: { doc: DocumentListRecord }) {
  return (
    <li className="card card--item doc-card">
      <div className="doc-card__top">
        <Link to="/app/invoices/$id" params={{ id: doc.id }} className="doc-card__ref doc-card__stretch">
          {referenceOf(doc)}
        </Link>
        <StatusChip status={doc.status} />
      </div>
      <p className="doc-card__client">{doc.client_name || 'No client'}</p>
      <div className="doc-card__bottom">
        <p className="doc-card__date">Issued {formatNzDate(doc.issue_date)}</p>
        <p className="doc-card__total">{formatNzdList(centsOf(doc.total))}</p>
      </div>
    </li>
  );
});

interface InvoiceCardProps {
  doc: DocumentListRecord;
  markingPaid: boolean;
  syncing: boolean;
  onMarkPaid: (id: string) => void;
  onSync: (id: string) => void;
}

const InvoiceCard = memo(function InvoiceCard({ doc, markingPaid, syncing, onMarkPaid, onSync }: InvoiceCardProps) {
  const synced = isSynced(doc.extra_data);
  const paid = doc.payment_status === 'paid';
  const isVoid = doc.status === 'void';
  const showMarkPaid = !paid && !isVoid;
  const showSync = !synced && !isVoid;
  return (
    <li className="card card--item doc-card">
      <div className="doc-card__top">
        <Link to="/app/invoices/$id" params={{ id: doc.id }} className="doc-card__ref doc-card__stretch">
          {referenceOf(doc)}
        </Link>
        <span className="chip-row">
          <StatusChip status={doc.status} />
          <PaymentBadge status={doc.payment_status} />
          {synced && <SyncedBadge />}
        </span>
      </div>
      <p className="doc-card__client">
        {doc.client_name || 'No client'}
        {doc.paid_date && <span className="doc-card__paid">{` • Paid ${formatNzDate(doc.paid_date)}`}</span>}
      </p>
      <div className="doc-card__bottom">
        <p className="doc-card__date">{paid || isVoid ? `Issued ${formatNzDate(doc.issue_date)}` : `Due ${formatNzDate(doc.due_date)}`}</p>
        <p className="doc-card__total">{formatNzdList(centsOf(doc.total))}</p>
      </div>
      {(showMarkPaid || showSync) && (
        <div className="doc-card__actions">
          {showMarkPaid && (
            <button type="button" className="button button--secondary button--compact" onClick={() => onMarkPaid(doc.id)} disabled={markingPaid}>
              {markingPaid ? 'Saving...' : 'Mark Paid'}
              <span className="visually-hidden"> {referenceOf(doc)}</span>
            </button>
          )}
          {showSync && (
            <button type="button" className="button button--ghost button--compact" onClick={() => onSync(doc.id)} disabled={syncing}>
              {syncing ? 'Syncing...' : `Sync to ${PROVIDER_NAME}`}
              <span className="visually-hidden"> {referenceOf(doc)}</span>
            </button>
          )}
        </div>
      )}
    </li>
  );
});

// ---- templates ------------------------------------------------------------------------------------

function TemplatesTab({ templates, onDelete, onUse }: { templates: Template[]; onDelete: (t: Template) => void; onUse: (t: Template) => void }) {
  const navigate = useNavigate();
  if (templates.length === 0) {
    return (
      <div className="empty-state">
        <p className="empty-state__title">No templates yet</p>
        <p>Save commonly used quotes or invoices as templates for quick reuse</p>
        <Link to="/app/calculator" className="button button--primary">
          Create Template
        </Link>
      </div>
    );
  }
  const use = (t: Template) => {
    onUse(t);
    void navigate({ to: '/app/calculator' });
  };
  const remove = (t: Template) => {
    if (window.confirm(`Delete template "${t.name}"?`)) onDelete(t);
  };
  return (
    <ul className="docs__list" aria-label="Templates">
      {templates.map((t) => (
        <li key={t.id} className="card card--item doc-card">
          <div className="doc-card__top">
            <button type="button" className="doc-card__ref doc-card__stretch doc-card__use" onClick={() => use(t)}>
              {t.name}
            </button>
            <TypeChip type={t.type} />
          </div>
          <div className="doc-card__bottom">
            <p className="doc-card__client">
              {t.lineItems.length} line items • {t.profitMarginPercent}% margin
            </p>
            <button type="button" className="button button--danger button--compact doc-card__delete" onClick={() => remove(t)}>
              Delete<span className="visually-hidden"> template {t.name}</span>
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
