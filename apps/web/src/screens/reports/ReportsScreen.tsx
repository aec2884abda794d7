// Tax Reports (/app/reports): the GST report for a period and the annual summary for an NZ
// tax year, on screen and as CSV. Both tabs stay mounted, so switching keeps what each one shows.
import './reports.css';
import { useRef, useState, type KeyboardEvent } from 'react';
import { nzDateOf } from '@tradie/domain';
import { AccountantExport } from './AccountantExport.tsx';
import { AnnualSummaryTab } from './AnnualSummaryTab.tsx';
import { GstReportTab } from './GstReportTab.tsx';

type Tab = 'gst' | 'annual';
const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'gst', label: 'GST Report' },
  { id: 'annual', label: 'Annual Summary' },
];

export function ReportsScreen() {
  // Quarters, the tax year and the years offered follow today's date in New Zealand.
  const [today] = useState(() => nzDateOf(new Date()));
  const [tab, setTab] = useState<Tab>('gst');
  const refs = useRef<Record<Tab, HTMLButtonElement | null>>({ gst: null, annual: null });

  const choose = (next: Tab, focus = false) => {
    setTab(next);
    if (focus) refs.current[next]?.focus();
  };

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const n = TABS.length;
    const to = e.key === 'ArrowRight' ? TABS[(i + 1) % n] : e.key === 'ArrowLeft' ? TABS[(i + n - 1) % n] : e.key === 'Home' ? TABS[0] : e.key === 'End' ? TABS[n - 1] : undefined;
    if (to) {
      e.preventDefault();
      choose(to.id, true);
    }
  };

  return (
    <section className="screen reports" aria-labelledby="reports-title">
      <h1 id="reports-title" className="screen-title">
        Tax Reports
      </h1>
      <p className="screen__subtitle">GST reports and annual summaries for tax time</p>

      <div className="tabs" role="tablist" aria-label="Tax reports">
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            id={`reports-tab-${t.id}`}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === t.id}
            aria-controls={`reports-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => choose(t.id)}
            onKeyDown={onTabKey}
          >
            {t.label}
          </button>
        ))}
      </div>

      <div id="reports-panel-gst" role="tabpanel" aria-labelledby="reports-tab-gst" className="tab-panel" hidden={tab !== 'gst'}>
        <GstReportTab today={today} />
      </div>
      <div id="reports-panel-annual" role="tabpanel" aria-labelledby="reports-tab-annual" className="tab-panel" hidden={tab !== 'annual'}>
        <AnnualSummaryTab today={today} />
      </div>

      <AccountantExport today={today} />
    </section>
  );
}
