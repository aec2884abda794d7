// 'Export for my accountant': one ZIP of a period — invoices, payments and clients as CSV, the GST
// report and annual summary, every invoice's and credit note's PDF and a README (GET /reports/export/accountant-zip).
// The period is an NZ tax year (the last complete one by default) or two dates. Like the CSV
// buttons, the download goes through a five-minute download link (POST /reports/accountant-export-links)
// opened in a tab made inside the click, so the bearer token never travels in a URL.
import { useState } from 'react';
import type { AccountantExportQuery } from '@tradie/contracts';
import { taxYearOf, type GstBasis } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { FormField } from '../../ui/FormField.tsx';
import { RadioGroup, type RadioOption } from '../../ui/RadioGroup.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { downloadThroughSignedLink } from './download.ts';
import { DateRangeFields, ReportForm, TaxYearSelect } from './ReportForm.tsx';
import { taxYearOptionLabel } from './periods.ts';
import { createAccountantExportLink } from './queries.ts';

type Mode = 'year' | 'dates';

const PERIODS = [
  { value: 'year', label: 'A whole year (1 April – 31 March)' },
  { value: 'dates', label: 'Between two dates' },
] as const satisfies readonly RadioOption<Mode>[];

/** The last complete NZ tax year first (the default), then the three before it, then the one under way. */
export function accountantYearOptions(today: string): { year: number; label: string }[] {
  const current = taxYearOf(today);
  const years = [current - 1, current - 2, current - 3, current - 4, current];
  return years.map((year) => ({ year, label: year === current ? `${taxYearOptionLabel(year)} – so far` : taxYearOptionLabel(year) }));
}

export function AccountantExport({ today }: { today: string }) {
  const options = accountantYearOptions(today);
  const [mode, setMode] = useState<Mode>('year');
  const [year, setYear] = useState<number>(() => options[0]?.year ?? taxYearOf(today) - 1);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [basis, setBasis] = useState<GstBasis>('invoice');
  const ready = mode === 'year' || (start !== '' && end !== '');
  // The tab is opened inside the click (popup blockers), then sent to the link.
  const download = useCommand({
    run: (input: AccountantExportQuery) => downloadThroughSignedLink(window, () => createAccountantExportLink(api, input)),
    failed: 'Request failed',
  });
  const busy = download.pending;
  const error = download.error && `Couldn't make the export: ${download.error}`;

  const onSubmit = () => {
    if (ready) download.run(mode === 'year' ? { year, basis } : { start_date: start, end_date: end, basis });
  };

  return (
    <ReportForm id="accountant-export-title" title="Export for my accountant" onSubmit={onSubmit} className="accountant-export" describedBy="accountant-export-what">
      <p id="accountant-export-what" className="field__hint">
        One ZIP: invoices, payments and clients (CSV), the GST report and annual summary, every invoice's and credit note's PDF, and a README explaining each file.
      </p>

      <RadioGroup look="choice" name="accountant-export-mode" legend="Period" options={PERIODS} value={mode} onChange={setMode} />

      {mode === 'year' ? (
        <TaxYearSelect id="accountant-export-year" label="Year to export" hint="NZ tax years run 1 April to 31 March." options={options} year={year} onChange={setYear} />
      ) : (
        <DateRangeFields id="accountant-export" labels={['First day', 'Last day']} start={start} end={end} onStart={setStart} onEnd={setEnd} />
      )}

      <FormField id="accountant-export-basis" label="GST basis of the GST report">
        {(describedBy) => (
          <select id="accountant-export-basis" className="input" value={basis} onChange={(e) => setBasis(e.target.value === 'payments' ? 'payments' : 'invoice')} aria-describedby={describedBy}>
            <option value="invoice">Invoice basis</option>
            <option value="payments">Payments basis</option>
          </select>
        )}
      </FormField>

      <button type="submit" className="button button--accent report-generate" disabled={busy || !ready} aria-describedby={!ready ? 'accountant-export-hint' : undefined}>
        <span aria-hidden="true">🗂️</span> {busy ? 'Preparing…' : 'Download ZIP'}
      </button>
      {!ready && (
        <p id="accountant-export-hint" className="field__hint">
          Choose both dates first.
        </p>
      )}
      <ErrorAlert message={error} className="report-banner" />
    </ReportForm>
  );
}
