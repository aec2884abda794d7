import './invoices.css';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import type { DocumentListRecord } from '@tradie/contracts';
import { formatNzDate, formatNzd } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import type { Template } from '../../templates/templateStore.ts';
import { useTemplates, useTemplateStore } from '../../templates/useTemplates.ts';
import { accountingPushFailuresQuery } from '../shared/accountingPush.ts';
import { accountingStatusQuery } from '../shared/queries.ts';
import { useMarkPaid, useSyncToAccounting } from '../shared/documentActions.ts';
import { centsOf, isSynced, PROVIDER_NAME, referenceOf, type DocumentType } from '../shared/documents.ts';
import { Notice, useNotice, type NoticeTone } from '../../ui/Toast.tsx';
import { InvoiceStateBadges, SyncedBadge } from '../shared/parts.tsx';
import { documentCountsQuery, documentListQuery } from './queries.ts';
import { describeFilter, filterOf, hasFilter, initialTab, TAB_STORAGE_KEY, type ListFilter, type ListTab } from './search.ts';
import { LoadingBlock, RetryAlert } from '../../ui/Status.tsx';
import { isChipFilter, showsInList, StatusFilter } from './StatusFilter.tsx';
import { TemplateButton } from '../../templates/TemplateButton.tsx';
import { TabList } from '../../ui/TabList.tsx';
import { StatusChip, TypeChip } from '../../ui/Chip.tsx';

type Tab = ListTab;
const TABS: readonly Tab[] = ['quotes', 'invoices', 'templates'];

const tabLabel = (tab: Tab, n: number | undefined): string => {
  const name = tab === 'quotes' ? 'Quotes' : tab === 'invoices' ? 'Invoices' : 'Templates';
  return `${name} (${n ?? '…'})`;
};

export function InvoicesScreen() {
  const store = useTemplateStore();
  const templates = useTemplates(store);
  const counts = useQuery(documentCountsQuery(api));
  const search = useSearch({ from: '/app/invoices' });
  const filter = filterOf(search);
  const [tab, setTab] = useState<Tab>(() => search.tab ?? initialTab());
  const { notice, show, clear } = useNotice();

  const choose = (next: Tab) => {
    setTab(next);
    try {
      window.sessionStorage.setItem(TAB_STORAGE_KEY, next);
    } catch {
      // Private mode: the tab is simply not remembered.
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

      <TabList
        tabs={TABS.map((t) => ({ id: t, label: tabLabel(t, countOf(t)) }))}
        selected={tab}
        onSelect={choose}
        label="Quotes, invoices and templates"
        tabId={(t) => `docs-tab-${t}`}
        panelId={(t) => `docs-panel-${t}`}
      />

      <div id={`docs-panel-${tab}`} role="tabpanel" aria-labelledby={`docs-tab-${tab}`} className="tab-panel">
        {tab === 'templates' ? <TemplatesTab templates={templates} onDelete={(t) => void store.remove(t.id).catch((e: unknown) => show(errorDetail(e) ?? 'Could not delete the template', 'error'))} onUse={(t) => store.handOver(t)} /> : <DocumentsTab key={tab} type={tab === 'quotes' ? 'quote' : 'invoice'} filter={filter} show={show} />}
      </div>

      <Notice notice={notice} onClose={clear} />
    </section>
  );
}

// ---- quotes and invoices --------------------------------------------------------------------------

function DocumentsTab({ type, filter, show }: { type: DocumentType; filter: ListFilter; show: (text: string, tone?: NoticeTone) => void }) {
  const list = useInfiniteQuery(documentListQuery(api, type, filter));
  // The synced invoices Xero is behind on (usually none): their badge says so.
  const behind = useQuery({ ...accountingPushFailuresQuery(api), enabled: type === 'invoice' });
  const behindIds = new Set(behind.data?.items.map((i) => i.id));
  const markPaid = useMarkPaid(show);
  const sync = useSyncToAccounting(show);
  const canSync = useQuery(accountingStatusQuery(api)).data?.connected === true;
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
      <LoadingBlock />
    );
  }

  if (list.isError) {
    return (
      <RetryAlert onRetry={() => void list.refetch()}>{errorDetail(list.error) ?? `Failed to load ${type === 'quote' ? 'quotes' : 'invoices'}`}</RetryAlert>
    );
  }

  const loaded = list.data.pages.flatMap((p) => p.records);
  // Voided documents are under their own chip, never in 'All' (nor in the tab counts).
  const records = loaded.filter((d) => showsInList(filter, d.status));
  const filtered = hasFilter(filter);
  const chips = <StatusFilter type={type} filter={filter} />;
  // The chips show a status filter of their own; dates, or a status they do not offer (a report's link), get the banner.
  const banner = filtered && !isChipFilter(type, filter) && (
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
  if (records.length === 0 && !hasNextPage) {
    if (!filtered && loaded.length === 0) return <EmptyDocuments type={type} />;
    return (
      <>
        {chips}
        {banner}
        <p className="empty-state">{filtered ? 'Nothing matches.' : `No open ${type === 'quote' ? 'quotes' : 'invoices'}. Voided ones are under Voided.`}</p>
      </>
    );
  }

  return (
    <>
      {chips}
      {banner}
      <ul className="grid-list docs__list" aria-label={type === 'quote' ? 'Quotes' : 'Invoices'}>
        {records.map((d) =>
          d.type === 'quote' ? (
            <QuoteCard key={d.id} doc={d} />
          ) : (
            <InvoiceCard
              key={d.id}
              doc={d}
              behind={behindIds.has(d.id)}
              markingPaid={markPaid.pendingId === d.id}
              syncing={sync.pendingId === d.id}
              onMarkPaid={markPaid.run}
              onSync={sync.run}
              canSync={canSync}
            />
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

const EMPTY: Record<DocumentType, { title: string; text: string; action: string }> = {
  quote: { title: 'No quotes yet', text: 'Create a quote to send pricing to potential clients', action: 'Create Quote' },
  invoice: { title: 'No invoices yet', text: 'Create an invoice to bill clients for completed work', action: 'Create Invoice' },
};

function EmptyDocuments({ type }: { type: DocumentType }) {
  const empty = EMPTY[type];
  return (
    <div className="empty-state">
      <p className="empty-state__title">{empty.title}</p>
      <p>{empty.text}</p>
      <Link to="/app/calculator" className="button button--primary">
        {empty.action}
      </Link>
    </div>
  );
}

/** A quote's or invoice's card in the list: its reference (the link to it) and chips, then `children`. */
function DocCard({ doc, chips, children }: { doc: DocumentListRecord; chips: ReactNode; children: ReactNode }) {
  return (
    <li className="card card--item card--link doc-card">
      <div className="doc-card__top">
        <Link to="/app/invoices/$id" params={{ id: doc.id }} className="doc-card__ref doc-card__stretch">
          {referenceOf(doc)}
        </Link>
        {chips}
      </div>
      {children}
    </li>
  );
}

const QuoteCard = memo(function QuoteCard({ doc }: { doc: DocumentListRecord }) {
  return (
    <DocCard doc={doc} chips={<StatusChip status={doc.status} />}>
      <p className="doc-card__client">{doc.client_name || 'No client'}</p>
      {(doc.job_title || doc.site_address) && <p className="doc-card__job">{[doc.job_title, doc.site_address].filter(Boolean).join(' · ')}</p>}
      <div className="doc-card__bottom">
        <p className="doc-card__date">Issued {formatNzDate(doc.issue_date)}</p>
        <p className="doc-card__total">{formatNzd(centsOf(doc.total))}</p>
      </div>
    </DocCard>
  );
});

interface InvoiceCardProps {
  doc: DocumentListRecord;
  /** Synced, but Xero does not have its latest changes. */
  behind: boolean;
  markingPaid: boolean;
  syncing: boolean;
  onMarkPaid: (id: string) => void;
  onSync: (id: string) => void;
  /** Xero is connected: 'Sync to Xero' is offered. */
  canSync: boolean;
}

const InvoiceCard = memo(function InvoiceCard({ doc, behind, markingPaid, syncing, onMarkPaid, onSync, canSync }: InvoiceCardProps) {
  const synced = isSynced(doc.extra_data);
  const paid = doc.payment_status === 'paid';
  const isVoid = doc.status === 'void';
  // Voided in Xero: nobody owes it, so it is not marked paid either.
  const showMarkPaid = !paid && !isVoid && !doc.extra_data['voided_in'];
  const showSync = canSync && !synced && !isVoid;
  return (
    <DocCard
      doc={doc}
      chips={
        <span className="chip-row">
          <StatusChip status={doc.status} />
          {!isVoid && <InvoiceStateBadges status={doc.payment_status} extra={doc.extra_data} />}
          {synced && <SyncedBadge behind={behind} />}
        </span>
      }
    >
      <p className="doc-card__client">
        {doc.client_name || 'No client'}
        {doc.paid_date && <span className="doc-card__paid">{` • Paid ${formatNzDate(doc.paid_date)}`}</span>}
      </p>
      {(doc.job_title || doc.site_address) && <p className="doc-card__job">{[doc.job_title, doc.site_address].filter(Boolean).join(' · ')}</p>}
      <div className="doc-card__bottom">
        <p className="doc-card__date">{paid || isVoid ? `Issued ${formatNzDate(doc.issue_date)}` : `Due ${formatNzDate(doc.due_date)}`}</p>
        <p className="doc-card__total">{formatNzd(centsOf(doc.total))}</p>
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
    </DocCard>
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
    <ul className="grid-list docs__list" aria-label="Templates">
      {templates.map((t) => (
        <li key={t.id} className="card card--item card--link doc-card">
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
            <TemplateButton action="Delete" template={t} onClick={() => remove(t)} className="doc-card__delete" />
          </div>
        </li>
      ))}
    </ul>
  );
}
