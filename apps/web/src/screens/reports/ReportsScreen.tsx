// Tax Reports (/app/reports): the GST report for a period, the annual summary for an NZ tax year
// and the profit report (the tradie's own), on screen and as CSV. Both tabs stay mounted, so switching keeps what each one shows.
import './reports.css';
import { useState } from 'react';
import { nzDateOf } from '@tradie/domain';
import { AccountantExport } from './AccountantExport.tsx';
import { AnnualSummaryTab } from './AnnualSummaryTab.tsx';
import { GstReportTab } from './GstReportTab.tsx';
import { ProfitTab } from './ProfitTab.tsx';
import { TabList, type Tab as TabItem } from '../../ui/TabList.tsx';

type Tab = 'gst' | 'annual' | 'profit';
const TABS: readonly TabItem<Tab>[] = [
  { id: 'gst', label: 'GST Report' },
  { id: 'annual', label: 'Annual Summary' },
  { id: 'profit', label: 'Profit' },
];

export function ReportsScreen() {
  // Quarters, the tax year and the years offered follow today's date in New Zealand.
  const [today] = useState(() => nzDateOf(new Date()));
  const [tab, setTab] = useState<Tab>('gst');
  // A tab's panel is made when the tab is first opened and kept after (its dates and results stay
  // while another tab is looked at): a report loads only when wanted, and a tab never opened has no
  // fields standing beside the open one's (every tab has its own Start Date).
  const [opened, setOpened] = useState<ReadonlySet<Tab>>(() => new Set([tab]));
  if (!opened.has(tab)) setOpened(new Set([...opened, tab]));

  return (
    <section className="screen reports" aria-labelledby="reports-title">
      <h1 id="reports-title" className="screen-title">
        Tax Reports
      </h1>
      <p className="screen__subtitle">GST reports and annual summaries for tax time, and what your work made</p>

      <TabList tabs={TABS} selected={tab} onSelect={setTab} label="Tax reports" tabId={(t) => `reports-tab-${t}`} panelId={(t) => `reports-panel-${t}`} />

      <div id="reports-panel-gst" role="tabpanel" aria-labelledby="reports-tab-gst" className="tab-panel" hidden={tab !== 'gst'}>
        {opened.has('gst') && <GstReportTab today={today} />}
      </div>
      <div id="reports-panel-annual" role="tabpanel" aria-labelledby="reports-tab-annual" className="tab-panel" hidden={tab !== 'annual'}>
        {opened.has('annual') && <AnnualSummaryTab today={today} />}
      </div>
      <div id="reports-panel-profit" role="tabpanel" aria-labelledby="reports-tab-profit" className="tab-panel" hidden={tab !== 'profit'}>
        {opened.has('profit') && <ProfitTab today={today} />}
      </div>

      <AccountantExport today={today} />
    </section>
  );
}
