// The GST Report tab of Tax Reports: the 'GST Period' card — quarter and NZ tax year quick
// buttons for the current year, two-monthly and six-monthly GST periods, Start/End dates, the
// accounting basis — and the report: summary boxes, the note, the GST return boxes, a monthly chart
// and the Monthly Breakdown table, and the CSV download.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type RefObject } from 'react';
import { GST_RETURN_LABELS, type GstReportResponse } from '@tradie/contracts';
import { formatNzDate, type GstBasis } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { FormField } from '../../ui/FormField.tsx';
import { DateRangeFields, ReportForm, retryOnce, useGenerate } from './ReportForm.tsx';
import { DownloadCsvButton, money, MonthlyBreakdown, ReportResults, ReportNotes, ReportStatus, ScrollTable, SummaryBoxes } from './ReportResults.tsx';
import {
  QUARTERS,
  currentYear,
  gstPeriodGroups,
  nzTaxYearRange,
  periodFromValue,
  quarterRange,
  rangeText,
  sameRange,
  type DateRange,
} from './periods.ts';
import { gstReportQuery, type GstParams } from './queries.ts';

const BASES: readonly { value: GstBasis; label: string; hint: string }[] = [
  { value: 'invoice', label: 'Invoice basis', hint: "IRD's default: a sale counts when you invoice it (or when a deposit comes in first)." },
  { value: 'payments', label: 'Payments basis', hint: 'A sale counts when the money comes in, only the amount received.' },
];

const basisName = (b: GstBasis): string => (b === 'payments' ? 'Payments basis' : 'Invoice basis');

const BOXES = ['box5', 'box6', 'box7', 'box8', 'box9', 'box10', 'box11', 'box12', 'box13', 'box14', 'box15'] as const;

export function GstReportTab({ today }: { today: string }) {
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [basis, setBasis] = useState<GstBasis>('invoice');
  const [debit, setDebit] = useState('');
  const [credit, setCredit] = useState('');
  const [submitted, setSubmitted] = useState<GstParams | null>(null);
  const report = useQuery({
    ...gstReportQuery(api, submitted ?? { start_date: '', end_date: '', basis: 'invoice' }),
    enabled: submitted !== null,
    retry: retryOnce,
  });

  const year = currentYear(today);
  const taxYear = nzTaxYearRange(today);
  const groups = gstPeriodGroups(today);
  const chosen: DateRange | null = start && end ? { start, end } : null;
  const matchingPeriod = groups.flatMap((g) => g.options).find((o) => sameRange(o.range, chosen));

  const fill = (r: DateRange) => {
    setStart(r.start);
    setEnd(r.end);
  };

  const { headingRef, generate } = useGenerate(
    report,
    submitted,
    setSubmitted,
    (a: GstParams, b: GstParams) =>
      a.start_date === b.start_date && a.end_date === b.end_date && a.basis === b.basis && a.debit_adjustments === b.debit_adjustments && a.credit_adjustments === b.credit_adjustments,
  );

  return (
    <>
      <ReportForm
        id="gst-period-title"
        title="GST Period"
        onSubmit={() => {
          if (start && end) generate({ start_date: start, end_date: end, basis, debit_adjustments: debit.trim(), credit_adjustments: credit.trim() });
        }}
      >

        <div className="report-quick" role="group" aria-labelledby="gst-quick-label">
          <p id="gst-quick-label" className="field__label">
            Quick periods ({year})
          </p>
          <div className="report-quick__buttons">
            {QUARTERS.map((q) => {
              const r = quarterRange(year, q.quarter);
              return (
                <button key={q.quarter} type="button" className="report-chip" aria-pressed={sameRange(r, chosen)} onClick={() => fill(r)}>
                  {q.label}
                </button>
              );
            })}
            <button type="button" className="report-chip report-chip--wide" aria-pressed={sameRange(taxYear, chosen)} onClick={() => fill(taxYear)} aria-describedby="gst-tax-year-range">
              NZ Tax Year
            </button>
          </div>
          <p id="gst-tax-year-range" className="field__hint">
            NZ Tax Year: {rangeText(taxYear)}
          </p>
        </div>

        <FormField id="gst-more-periods" label="More periods" hint="Two-monthly and six-monthly GST return periods (31 March balance date).">
          {(describedBy) => (
            <select
              id="gst-more-periods"
              className="input"
              value={matchingPeriod?.value ?? ''}
              onChange={(e) => {
                const r = periodFromValue(e.target.value);
                if (r) fill(r);
              }}
              aria-describedby={describedBy}
            >
              <option value="">Choose a GST period…</option>
              {groups.map((g) => (
                <optgroup key={g.label} label={g.label}>
                  {g.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </FormField>

        <DateRangeFields id="gst" labels={['Start Date', 'End Date']} start={start} end={end} onStart={setStart} onEnd={setEnd} />

        <fieldset className="choice-group report-basis">
          <legend className="field__label">GST basis</legend>
          {BASES.map((b) => (
            <label key={b.value} className="choice report-basis__option">
              <input type="radio" name="gst-basis" value={b.value} checked={basis === b.value} onChange={() => setBasis(b.value)} aria-describedby={`gst-basis-${b.value}-hint`} />
              <span>
                <span className="report-basis__name">{b.label}</span>
                <span id={`gst-basis-${b.value}-hint`} className="field__hint">
                  {b.hint}
                </span>
              </span>
            </label>
          ))}
        </fieldset>

        <details className="report-adjustments" open={debit !== '' || credit !== ''}>
          <summary>Adjustments from your calculation sheet (optional)</summary>
          <p className="field__hint">
            GST amounts from the return&apos;s calculation sheet, if you have any. For example, the private share of something you claimed GST on (a
            work ute used at weekends) is a debit adjustment.
          </p>
          <FormField id="gst-debit-adjustments" label="Debit adjustments, Box 9 ($)">
            {(describedBy) => (
              <input id="gst-debit-adjustments" className="input" inputMode="decimal" autoComplete="off" placeholder="0.00" value={debit} onChange={(e) => setDebit(e.target.value)} aria-describedby={describedBy} />
            )}
          </FormField>
          <FormField id="gst-credit-adjustments" label="Credit adjustments, Box 13 ($)">
            {(describedBy) => (
              <input id="gst-credit-adjustments" className="input" inputMode="decimal" autoComplete="off" placeholder="0.00" value={credit} onChange={(e) => setCredit(e.target.value)} aria-describedby={describedBy} />
            )}
          </FormField>
        </details>

        <button type="submit" className="button button--accent report-generate" disabled={!start || !end} aria-describedby={!start || !end ? 'gst-generate-hint' : undefined}>
          Generate Report
        </button>
        {(!start || !end) && (
          <p id="gst-generate-hint" className="field__hint">
            Choose a period or both dates first.
          </p>
        )}
      </ReportForm>

      <ReportStatus report={report} errorTitle="Failed to load GST report" />
      {report.data && !report.isError && submitted && <GstResults report={report.data} headingRef={headingRef} />}
    </>
  );
}

function GstResults({ report, headingRef }: { report: GstReportResponse; headingRef: RefObject<HTMLHeadingElement | null> }) {
  const range = { start: report.start_date, end: report.end_date };
  return (
    <ReportResults
      id="gst-results-title"
      headingRef={headingRef}
      title={<>GST report: {rangeText(range)}</>}
      meta={
        <span className="badge badge--brand" data-testid="gst-basis">
          {basisName(report.basis)}
        </span>
      }
    >

      <SummaryBoxes
        label="GST summary"
        items={[
          { label: 'Total Sales (incl GST)', value: money(report.total_sales), testId: 'gst-total-sales' },
          { label: 'GST Collected', value: money(report.total_gst_collected), testId: 'gst-collected' },
          { label: 'Total Invoices', value: String(report.invoice_count), testId: 'gst-invoice-count' },
          {
            label: report.voided_invoices_count > 0 ? 'Paid / Unpaid / Voided' : 'Paid / Unpaid',
            value: `${report.paid_invoices_count} / ${report.unpaid_invoices_count}${report.voided_invoices_count > 0 ? ` / ${report.voided_invoices_count}` : ''}`,
            testId: 'gst-paid-unpaid',
          },
        ]}
      />

      <ReportNotes
        draftsLeftOut={report.drafts_left_out}
        corrections={{ ...report.corrections, amount: report.corrections.sales }}
        range={range}
      />

      {report.adjustments_to_carry.count > 0 && <AdjustmentsToCarry adjustments={report.adjustments_to_carry} />}
      {report.purchase_adjustments.count > 0 && <PurchaseAdjustments adjustments={report.purchase_adjustments} />}

      <div className="callout callout--warning report-note">
        <p>
          <strong>Note:</strong> GST collected is on the invoices you issued.
          {report.basis === 'payments' ? ' On the payments basis it is the GST share of the money received in the period.' : ''}
        </p>
        <p>
          The GST you claim back comes from the receipts, bills and expenses you record under <Link to="/app/costs">Costs</Link>
          {report.basis === 'payments' ? ', counted on the date you paid them.' : ', counted on the date of the supplier’s invoice.'}
        </p>
      </div>

      <section className="card report-return" aria-labelledby="gst-return-title">
        <h3 id="gst-return-title" className="report-section__title">
          Your GST return
        </h3>
        <p className="report-return__intro">What to copy into your GST return (GST101A) for this period, boxes 5 to 15.</p>
        <dl className="report-return__boxes">
          {BOXES.map((box) => (
            <div key={box} className="report-return__row">
              <dt>
                <span className="report-return__box">Box {box.slice(3)}</span> <span className="report-return__label">{GST_RETURN_LABELS[box]}</span>
              </dt>
              <dd data-testid={`gst-${box}`}>{money(report.gst_return[box])}</dd>
            </div>
          ))}
        </dl>
        <p className="report-return__fine">
          Box 11 counts the costs with GST you can claim: over $200, only those you hold the supplier’s tax invoice for. Boxes 9 and 13 are the adjustments
          you typed from your calculation sheet (none if you left them empty). A negative Box 15 is a refund.
          Box 8 can differ from GST Collected by a few cents: GST is rounded on each invoice, while the return works it out from the total.
        </p>
      </section>

      <MonthlyBreakdown
        id="gst"
        rows={report.breakdown_by_month}
        main={{ label: 'Sales', of: (r) => r.sales }}
        counts={[{ label: 'Invoices', of: (r) => r.count }]}
        caption="sales, GST and invoices for each month"
      />

      <DownloadCsvButton
        what="gst"
        input={{
          kind: 'gst-csv', start_date: report.start_date, end_date: report.end_date, basis: report.basis,
          ...(report.gst_return.box9 === 0 ? {} : { debit_adjustments: report.gst_return.box9.toFixed(2) }),
          ...(report.gst_return.box13 === 0 ? {} : { credit_adjustments: report.gst_return.box13.toFixed(2) }),
        }}
      />
    </ReportResults>
  );
}

/**
 * Invoices dated in a GST period already exported for the accountant, issued after that export:
 * counted in this report (already in the totals above), listed apart so the accountant sees them.
 */
function AdjustmentsToCarry({ adjustments }: { adjustments: GstReportResponse['adjustments_to_carry'] }) {
  return (
    <section className="card report-carry" aria-labelledby="gst-carry-title" data-testid="gst-adjustments">
      <h3 id="gst-carry-title" className="report-section__title">
        Adjustments to carry
      </h3>
      <p>
        {adjustments.count === 1 ? 'This invoice counts' : `These ${adjustments.count} invoices count`} for GST in a period you had already exported for your
        accountant when {adjustments.count === 1 ? 'it was' : 'they were'} issued. The exported figures stay as they were; {adjustments.count === 1 ? 'it is' : 'they are'} included in this report
        instead: {money(adjustments.sales)}, GST {money(adjustments.gst)}.
      </p>
      <ScrollTable label="Adjustments to carry">
      <table className="report-table__table">
        <caption className="visually-hidden">Adjustments to carry: each invoice, its date, the exported period it belongs to, and its amounts</caption>
        <thead>
          <tr>
            <th scope="col">Invoice</th>
            <th scope="col">Dated</th>
            <th scope="col">Belongs to</th>
            <th scope="col">Incl. GST</th>
            <th scope="col">GST</th>
          </tr>
        </thead>
        <tbody>
          {adjustments.invoices.map((i) => (
            <tr key={i.reference}>
              <th scope="row">
                {i.reference}
                {i.client_name ? <span className="field__hint"> {i.client_name}</span> : null}
              </th>
              <td>{formatNzDate(i.issue_date)}</td>
              <td>{i.exported_period}</td>
              <td>{money(i.sales)}</td>
              <td>{money(i.gst)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </ScrollTable>
    </section>
  );
}

/** Cost changes carried here from a period already exported: each line, signed, already in Boxes 11 and 12. */
function PurchaseAdjustments({ adjustments }: { adjustments: GstReportResponse['purchase_adjustments'] }) {
  return (
    <section className="card report-carry" aria-labelledby="gst-purchase-carry-title" data-testid="gst-purchase-adjustments">
      <h3 id="gst-purchase-carry-title" className="report-section__title">
        Purchase adjustments to carry
      </h3>
      <p>
        Costs recorded, changed or deleted after you exported the period they are dated in. The exported figures stay as they were; the difference is in
        this report instead: {money(adjustments.claimed)} in Box 11.
      </p>
      <ScrollTable label="Purchase adjustments to carry">
        <table className="report-table__table">
          <caption className="visually-hidden">Purchase adjustments to carry: each cost added or taken back, its date, the exported period it belongs to, and what it adds to Box 11</caption>
          <thead>
            <tr>
              <th scope="col">Cost</th>
              <th scope="col">Dated</th>
              <th scope="col">Belongs to</th>
              <th scope="col">Box 11</th>
            </tr>
          </thead>
          <tbody>
            {adjustments.lines.map((l, i) => (
              <tr key={i}>
                <th scope="row">
                  {l.supplier}
                  <span className="field__hint"> {l.change === 'added' ? 'added' : 'taken back'}</span>
                </th>
                <td>{formatNzDate(l.date)}</td>
                <td>{l.exported_period}</td>
                <td>{money(l.claimed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
    </section>
  );
}
