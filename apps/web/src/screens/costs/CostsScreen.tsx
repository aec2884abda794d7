// The Costs screen (/app/costs): what the business spent — receipts, supplier bills and expenses
// — and the hours worked, each optionally against a job (an accepted quote). They count in the
// job's real profit (the quote's Job profit card) and, with their GST, in Boxes 11–14 of the GST
// report. Typing the amount is enough; the GST claimed, or why not, comes back from the server
// (the domain's claimReason), so the list and the report agree. An expense can repeat (the monthly
// phone bill): set up once, the server records each one on its day. Loaded only when opened.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { CostInput, CostRecord, DocumentListRecord, HoursInput, HoursRecord, JobSort, RecurringInput, RecurringRecord } from '@tradie/contracts';
import { BUILT_IN_CATEGORIES, formatNzDate, formatNzdPrice, nzDateOf } from '@tradie/domain';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { ApiError, api, errorDetail } from '../../api/client.ts';
import { ErrorAlert, LoadingBlock } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import {
  costListQuery, createCost, createHours, createRecurring, deleteCost, deleteHours, hoursListQuery, invalidateCosts, jobChoicesQuery, jobListQuery, recurringListQuery, stopRecurring,
  receiptBlob, sendCostToXero, updateCost, updateHours, uploadReceipt,
} from './queries.ts';
import { accountingStatusQuery } from '../shared/queries.ts';
import { type ReceiptQueue, type UploadState, createReceiptQueue, indexedDbPendingStore, memoryPendingStore } from './receiptUploads.ts';
import { hoursByWeek } from './weeks.ts';
import './costs.css';

type Panel = { kind: 'list' } | { kind: 'cost'; cost: CostRecord | null } | { kind: 'hours'; hours: HoursRecord | null };

const KIND_WORDS: Record<CostRecord['kind'], string> = { receipt: 'Receipt', bill: "Supplier's bill", expense: 'Expense (not for a job)' };
const categoryWords = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);

// The one queue of receipt photos waiting to upload, for the page's life (receiptUploads.ts); what it
// holds is also in IndexedDB, so the next page picks it up.
let receiptQueue: ReceiptQueue | null = null;
let afterUpload: () => void = () => {};
function theReceiptQueue(): ReceiptQueue {
  if (receiptQueue) return receiptQueue;
  const q = createReceiptQueue({
    upload: (costId, file, name) => uploadReceipt(api, costId, file, name),
    retryable: (e) => !(e instanceof ApiError) || e.status === 0 || e.status === 401 || e.status === 408 || e.status === 429 || e.status >= 500,
    detail: (e) => errorDetail(e) ?? "Couldn't keep the photo.",
    uploaded: () => afterUpload(),
    storage: indexedDbPendingStore() ?? memoryPendingStore(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
  });
  window.addEventListener('online', () => q.retryAll());
  void q.resume();
  return (receiptQueue = q);
}

/** The photos waiting to upload, by cost; the lists reload when one lands. */
function useReceiptUploads(): { queue: ReceiptQueue; byCost: Map<string, UploadState> } {
  const queryClient = useQueryClient();
  const queue = theReceiptQueue();
  useEffect(() => {
    afterUpload = () => void invalidateCosts(queryClient);
  }, [queryClient]);
  const states = useSyncExternalStore(queue.subscribe, queue.states);
  return { queue, byCost: new Map(states.map((st) => [st.costId, st])) };
}

const sizeWords = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** What the list says of a cost's receipt: kept, waiting, uploading, or refused and why. */
function ReceiptLine({ cost, upload }: { cost: CostRecord; upload: UploadState | undefined }) {
  if (upload?.status === 'refused') return <span className="costs__meta costs__meta--warn" data-testid="cost-receipt">Photo not kept: {upload.detail}</span>;
  if (upload) return <span className="costs__meta" data-testid="cost-receipt">{upload.status === 'uploading' ? 'Uploading the photo…' : 'Photo waiting to upload'}</span>;
  if (cost.receipt) return <span className="costs__meta" data-testid="cost-receipt">Receipt kept ({cost.receipt.content_type === 'application/pdf' ? 'PDF' : 'photo'}, {sizeWords(cost.receipt.bytes)})</span>;
  return null;
}

/** How a new cost starts out paid: a receipt or an expense on its date, a supplier's bill not yet. */
const forKind = (kind: CostRecord['kind']): 'on_date' | 'not_yet' => (kind === 'bill' ? 'not_yet' : 'on_date');

type Repeats = 'once' | RecurringRecord['frequency'];
const REPEAT_WORDS: Record<Repeats, string> = {
  once: 'Just this once', weekly: 'Every week', fortnightly: 'Every fortnight', monthly: 'Every month', quarterly: 'Every 3 months', yearly: 'Every year',
};

/** 'QUO-0003 · Mere Parata' for a job, or '' when the cost is not for one. */
function jobWords(jobs: readonly DocumentListRecord[] | undefined, id: string | null): string {
  if (id === null) return '';
  const job = jobs?.find((j) => j.id === id);
  return job ? [job.reference, job.job_title || job.client_name].filter(Boolean).join(' · ') : 'a job';
}

export function CostsScreen() {
  const search = useSearch({ from: '/app/costs' });
  const navigate = useNavigate();
  // Opened from a job's card: that form, with the job chosen.
  const [panel, setPanel] = useState<Panel>(search.record === 'cost' ? { kind: 'cost', cost: null } : search.record === 'hours' ? { kind: 'hours', hours: null } : { kind: 'list' });
  const costs = useQuery(costListQuery(api));
  const hours = useQuery(hoursListQuery(api));
  const jobs = useQuery(jobChoicesQuery(api));
  const uploads = useReceiptUploads();
  // What the last save said when it landed in a GST period already exported.
  const [notice, setNotice] = useState<string | null>(null);
  const back = (said?: string | null) => {
    setNotice(said ?? null);
    setPanel({ kind: 'list' });
    if (search.record || search.job) void navigate({ to: '/app/costs', search: {}, replace: true });
  };
  const forJob = search.job ?? '';

  if (panel.kind === 'cost') return <CostForm cost={panel.cost} jobs={jobs.data ?? []} forJob={forJob} queue={uploads.queue} onDone={back} />;
  if (panel.kind === 'hours') return <HoursForm hours={panel.hours} jobs={jobs.data ?? []} forJob={forJob} onDone={back} />;

  return (
    <section className="screen costs" aria-labelledby="costs-title">
      <h1 id="costs-title" className="screen-title">
        Costs
      </h1>
      <p className="screen__subtitle">
        What you spend and the hours you work. Put them against a job to see its real profit; the GST on your receipts and bills counts in your GST return.
      </p>
      {notice && (
        <p className="callout callout--warning" role="status" data-testid="cost-gst-notice">
          {notice}
        </p>
      )}
      <div className="costs__actions">
        <button type="button" className="button button--primary" onClick={() => setPanel({ kind: 'cost', cost: null })}>
          Record a cost
        </button>
        <button type="button" className="button button--secondary" onClick={() => setPanel({ kind: 'hours', hours: null })}>
          Record hours
        </button>
      </div>

      <JobsPart />
      <RecurringPart />

      <h2 className="costs__heading">Receipts, bills and expenses</h2>
      {costs.isPending && <LoadingBlock />}
      {costs.isError && <ErrorAlert message={errorDetail(costs.error) ?? "Couldn't load your costs. Try again."} />}
      {costs.isSuccess && costs.data.costs.length === 0 && <p className="field__hint">Nothing recorded yet. Record a receipt or a supplier&apos;s bill when you buy for a job.</p>}
      {costs.isSuccess && costs.data.costs.length > 0 && (
        <ul className="costs__list" aria-label="Receipts, bills and expenses">
          {costs.data.costs.map((c) => (
            <li key={c.id}>
              <button type="button" className="costs__item" onClick={() => setPanel({ kind: 'cost', cost: c })}>
                <span className="costs__line">
                  <span className="costs__name">{c.supplier}</span>
                  <span className="costs__amount" data-testid="cost-amount">
                    {c.credit ? '−' : ''}
                    {formatNzdPrice(c.amount)}
                  </span>
                </span>
                <span className="costs__meta">
                  {formatNzDate(c.date)} · {categoryWords(c.category)}
                  {c.credit ? ' · credit' : ''}
                  {c.job_id !== null && ` · ${jobWords(jobs.data, c.job_id)}`}
                </span>
                {c.not_claimed_reason === null ? (
                  <span className="costs__meta" data-testid="cost-gst">GST claimed {formatNzdPrice(c.gst_claimed)}</span>
                ) : (
                  <span className="costs__meta costs__meta--warn" data-testid="cost-gst">{c.not_claimed_reason}</span>
                )}
                <ReceiptLine cost={c} upload={uploads.byCost.get(c.id)} />
                {c.xero_bill && (
                  <span className={c.xero_bill.detail ? 'costs__meta costs__meta--warn' : 'costs__meta'} data-testid="cost-xero">
                    {c.xero_bill.status === 'voided' ? 'Voided in Xero' : c.credit ? 'In Xero as a credit note' : c.xero_bill.status === 'paid' ? 'In Xero as a paid bill' : 'In Xero as a bill'}
                    {c.xero_bill.detail ? `: ${c.xero_bill.detail}` : ''}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}

      <h2 className="costs__heading">Hours</h2>
      {hours.isPending && <LoadingBlock />}
      {hours.isError && <ErrorAlert message={errorDetail(hours.error) ?? "Couldn't load your hours. Try again."} />}
      {hours.isSuccess && hours.data.hours.length === 0 && <p className="field__hint">No hours recorded yet.</p>}
      {hours.isSuccess && hours.data.hours.length > 0 && (
        <ul className="costs__weeks" aria-label="Hours">
          {hoursByWeek(hours.data.hours).map((week) => (
            <li key={week.monday}>
              <p className="costs__week" data-testid="hours-week">
                <span>Week of {formatNzDate(week.monday)}</span>
                <span className="costs__amount">
                  {week.hours} h · {formatNzdPrice(week.cost)}
                </span>
              </p>
              <ul className="costs__list">
                {week.entries.map((h) => (
                  <li key={h.id}>
                    <button type="button" className="costs__item" onClick={() => setPanel({ kind: 'hours', hours: h })}>
                      <span className="costs__line">
                        <span className="costs__name">{h.who === 'owner' ? 'You' : h.who}</span>
                        <span className="costs__amount" data-testid="hours-cost">{formatNzdPrice(h.cost)}</span>
                      </span>
                      <span className="costs__meta">
                        {formatNzDate(h.date)} · {h.hours} h at {formatNzdPrice(h.rate)} an hour
                        {h.job_id !== null && ` · ${jobWords(jobs.data, h.job_id)}`}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The repeating expenses: how often, the next date (or that it stopped), and Stop. */
function RecurringPart() {
  const queryClient = useQueryClient();
  const recurring = useQuery(recurringListQuery(api));
  const stop = useCommand({
    run: async (id: string) => {
      await stopRecurring(api, id);
      await invalidateCosts(queryClient);
    },
    failed: "Couldn't stop it. Try again.",
  });
  if (!recurring.isSuccess || recurring.data.recurring.length === 0) return null;
  return (
    <>
      <h2 className="costs__heading">Repeating expenses</h2>
      {stop.error && <ErrorAlert message={stop.error} />}
      <ul className="costs__list" aria-label="Repeating expenses">
        {recurring.data.recurring.map((r) => (
          <li key={r.id} className="costs__item costs__item--static" data-testid="recurring-item">
            <span className="costs__line">
              <span className="costs__name">{r.supplier}</span>
              <span className="costs__amount">{formatNzdPrice(r.amount)}</span>
            </span>
            <span className="costs__meta">
              {REPEAT_WORDS[r.frequency]} · {categoryWords(r.category)} · {r.made === 1 ? '1 recorded' : `${r.made} recorded`}
            </span>
            <span className="costs__meta" data-testid="recurring-next">
              {r.next_date !== null ? `Next on ${formatNzDate(r.next_date)}` : r.stopped_on !== null ? `Stopped on ${formatNzDate(r.stopped_on)}` : 'Finished'}
            </span>
            {r.next_date !== null && (
              <span className="costs__actions">
                <button type="button" className="button button--secondary" aria-label={`Stop repeating ${r.supplier}`} disabled={stop.pending} onClick={() => stop.run(r.id)}>
                  Stop repeating
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

const SORT_WORDS: Record<JobSort, string> = { recent: 'Newest first', profit: 'Most profit first', overrun: 'Most over the quote first' };

/** The jobs (accepted quotes) with their profit so far and how far their costs are over the quote; each opens its quote. */
function JobsPart() {
  const [sort, setSort] = useState<JobSort>('recent');
  const jobs = useQuery(jobListQuery(api, sort));
  if (jobs.isSuccess && jobs.data.jobs.length === 0) return null;
  return (
    <>
      <h2 className="costs__heading">Jobs</h2>
      <div className="field">
        <label htmlFor="jobs-sort" className="field__label">
          Order
        </label>
        <select id="jobs-sort" className="input" value={sort} onChange={(e) => setSort(e.target.value as JobSort)}>
          {(Object.keys(SORT_WORDS) as JobSort[]).map((k) => (
            <option key={k} value={k}>
              {SORT_WORDS[k]}
            </option>
          ))}
        </select>
      </div>
      {jobs.isPending && <LoadingBlock />}
      {jobs.isError && <ErrorAlert message={errorDetail(jobs.error) ?? "Couldn't load your jobs. Try again."} />}
      {jobs.isSuccess && (
        <ul className="costs__list" aria-label="Jobs">
          {jobs.data.jobs.map((j) => (
            <li key={j.quote_id}>
              <Link to="/app/invoices/$id" params={{ id: j.quote_id }} className="costs__item">
                <span className="costs__line">
                  <span className="costs__name">{[j.quote_number, j.client_name].filter(Boolean).join(' · ')}</span>
                  <span className="costs__amount" data-testid="job-list-profit">{formatNzdPrice(j.profit_so_far)}</span>
                </span>
                <span className="costs__meta">
                  Profit so far · costs {formatNzdPrice(j.actual_cost)} of {formatNzdPrice(j.quoted_cost)} quoted · invoiced {formatNzdPrice(j.invoiced_net)}
                </span>
                {j.overrun_percent !== null && j.overrun_percent > 0 && (
                  <span className="costs__meta costs__meta--warn" data-testid="job-list-over">
                    {j.overrun_percent} % over the quote
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {jobs.data?.has_more && <p className="field__hint">Showing your newest 200 jobs.</p>}
    </>
  );
}

/**
 * Saving one entry (recorded, or replaced with the version that was edited) and deleting it: after
 * either, the lists, the jobs' figures and the reports reload, and the form closes.
 */
function useEntryCommands<Body>(
  entry: { id: string; version: number } | null,
  calls: { create(body: Body): Promise<unknown>; update(id: string, body: Body, version: number): Promise<unknown>; remove(id: string): Promise<unknown> },
  noun: string,
  onDone: (notice?: string | null) => void,
) {
  const queryClient = useQueryClient();
  const save = useCommand({
    run: async (body: Body) => {
      const answer = entry ? await calls.update(entry.id, body, entry.version) : await calls.create(body);
      await invalidateCosts(queryClient);
      return answer;
    },
    failed: `Couldn't save the ${noun}. Try again.`,
    // A cost dated in a GST period already exported says where the change is counted instead.
    onDone: (answer) => onDone((answer as { gst_notice?: string | null } | undefined)?.gst_notice ?? null),
  });
  const remove = useCommand({
    run: async (id: string) => {
      await calls.remove(id);
      await invalidateCosts(queryClient);
    },
    failed: `Couldn't delete the ${noun}. Try again.`,
    onDone: () => onDone(),
  });
  return { save, remove, error: save.error ?? remove.error, busy: save.pending || remove.pending };
}

/** A form's Save, Cancel and (for an entry already recorded) Delete. */
function EntryButtons({ saving, busy, onCancel, onDelete }: { saving: boolean; busy: boolean; onCancel(): void; onDelete: (() => void) | null }) {
  return (
    <div className="costs__actions">
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
        {saving ? 'Saving...' : 'Save'}
      </button>
      <button type="button" className="button button--secondary" onClick={onCancel}>
        Cancel
      </button>
      {onDelete && (
        <button type="button" className="button button--secondary" onClick={onDelete} disabled={busy}>
          Delete
        </button>
      )}
    </div>
  );
}

/** The job select: not for a job, or one of the accepted quotes. */
function JobSelect({ id, value, jobs, onChange }: { id: string; value: string; jobs: readonly DocumentListRecord[]; onChange(v: string): void }) {
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        Job
      </label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Not for a job</option>
        {jobs.map((j) => (
          <option key={j.id} value={j.id}>
            {jobWords(jobs, j.id)}
          </option>
        ))}
      </select>
      {jobs.length === 0 && <p className="field__hint">A quote becomes a job when it is accepted.</p>}
    </div>
  );
}

function CostForm({ cost, jobs, forJob, queue, onDone }: { cost: CostRecord | null; jobs: readonly DocumentListRecord[]; forJob: string; queue: ReceiptQueue; onDone(notice?: string | null): void }) {
  // The receipt's photo or PDF: handed to the upload queue once the cost is saved, never waited for.
  const [photo, setPhoto] = useState<File | null>(null);
  const [viewError, setViewError] = useState<string | null>(null);
  const keepPhoto = (saved: unknown) => {
    const id = (saved as { id?: string } | undefined)?.id ?? cost?.id;
    if (photo && id) void queue.add(id, photo, photo.name || 'receipt');
    return saved;
  };
  const viewReceipt = async () => {
    if (!cost) return;
    setViewError(null);
    // Opened before the download so a phone's pop-up blocker lets it through.
    const tab = window.open('', '_blank');
    try {
      const blob = await receiptBlob(api, cost.id);
      const url = URL.createObjectURL(blob);
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch (e) {
      tab?.close();
      setViewError(errorDetail(e) ?? "Couldn't open the receipt.");
    }
  };
  const [f, setF] = useState({
    kind: cost?.kind ?? 'receipt',
    supplier: cost?.supplier ?? '',
    date: cost?.date ?? nzDateOf(new Date()),
    amount: cost?.amount ?? '',
    gst: cost?.gst ?? 'standard',
    supply_information_held: cost?.supply_information_held ?? false,
    credit: cost?.credit ?? false,
    category: cost?.category ?? 'materials',
    job_id: cost ? (cost.job_id ?? '') : forJob,
    note: cost?.note ?? '',
  });
  // When it was paid: the payments basis of the GST return counts it that day. A receipt or an
  // expense is usually paid on its date; a supplier's bill usually later.
  type Paid = 'on_date' | 'other' | 'not_yet';
  const paidOf = (c: CostRecord): Paid => (c.paid_date === null ? 'not_yet' : c.paid_date === c.date ? 'on_date' : 'other');
  const [paid, setPaid] = useState<{ when: Paid; on: string; touched: boolean }>(
    cost ? { when: paidOf(cost), on: cost.paid_date ?? '', touched: true } : { when: forKind(f.kind), on: '', touched: false },
  );
  useEffect(() => {
    if (!paid.touched) setPaid((p) => ({ ...p, when: forKind(f.kind) }));
  }, [f.kind, paid.touched]);
  const paidDate = (): string | null => (paid.when === 'on_date' ? f.date : paid.when === 'other' ? paid.on || null : null);
  // A new expense can repeat: then the server records it on each date from the first.
  const [repeat, setRepeat] = useState<{ every: Repeats; paidOnDate: boolean; end: string }>({ every: 'once', paidOnDate: true, end: '' });
  const repeating = cost === null && f.kind === 'expense' && repeat.every !== 'once';
  // The same body keeps its Idempotency-Key: a retry on a weak signal sets up one, never two.
  const { keyFor } = useIdempotencyKeys();
  const set = <K extends keyof typeof f>(name: K, value: (typeof f)[K]) => setF((now) => ({ ...now, [name]: value }));
  const create = (b: CostInput) => {
    if (!repeating || repeat.every === 'once') return createCost(api, b).then(keepPhoto);
    const body: RecurringInput = {
      supplier: b.supplier, amount: b.amount, gst: b.gst, supply_information_held: b.supply_information_held, category: b.category, note: b.note,
      frequency: repeat.every, start_date: b.date, end_date: repeat.end === '' ? null : repeat.end, paid_on_date: repeat.paidOnDate,
    };
    return createRecurring(api, body, { idempotencyKey: keyFor('recurring', body) });
  };
  const { save, remove, error, busy } = useEntryCommands<CostInput>(cost, { create, update: (id, b, v) => updateCost(api, id, b, v).then(keepPhoto), remove: (id) => deleteCost(api, id) }, 'cost', onDone);
  const categories = BUILT_IN_CATEGORIES.includes(f.category as (typeof BUILT_IN_CATEGORIES)[number]) ? BUILT_IN_CATEGORIES : [...BUILT_IN_CATEGORIES, f.category];

  return (
    <form
      className="screen costs__form"
      aria-labelledby="cost-form-title"
      noValidate
      onSubmit={save.submit(() =>
        !repeating && paid.when === 'other' && paid.on === ''
          ? { ok: false, error: 'Choose the date it was paid.' }
          : { ok: true, body: { ...f, job_id: f.job_id === '' ? null : f.job_id, paid_date: repeating ? null : paidDate() } },
      )}
    >
      <h1 id="cost-form-title" className="screen-title">
        {cost ? 'Edit cost' : 'Record a cost'}
      </h1>
      {cost?.gst_notice && (
        <p className="callout callout--warning" role="note" data-testid="cost-gst-notice">
          {cost.gst_notice}
        </p>
      )}
      <div className="field">
        <label htmlFor="cost-kind" className="field__label">
          What is it
        </label>
        <select id="cost-kind" className="input" value={f.kind} onChange={(e) => set('kind', e.target.value as CostRecord['kind'])}>
          {(Object.keys(KIND_WORDS) as CostRecord['kind'][]).map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="cost-supplier" className="field__label">
          Supplier
        </label>
        <input id="cost-supplier" className="input" value={f.supplier} maxLength={200} autoComplete="off" onChange={(e) => set('supplier', e.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor="cost-date" className="field__label">
          {repeating ? 'First date' : 'Date on the receipt or bill'}
        </label>
        <input id="cost-date" className="input" type="date" value={f.date} onChange={(e) => set('date', e.target.value)} required />
      </div>
      {!repeating && (
        <div className="field">
          <label htmlFor="cost-paid" className="field__label">
            Paid
          </label>
          <select id="cost-paid" className="input" value={paid.when} onChange={(e) => setPaid((p) => ({ ...p, when: e.target.value as Paid, touched: true }))} aria-describedby="cost-paid-hint">
            <option value="on_date">On that date</option>
            <option value="other">On another date</option>
            <option value="not_yet">Not paid yet</option>
          </select>
          {paid.when === 'other' && (
            <input id="cost-paid-on" className="input" type="date" aria-label="Date paid" value={paid.on} onChange={(e) => setPaid((p) => ({ ...p, on: e.target.value, touched: true }))} />
          )}
          <p id="cost-paid-hint" className="field__hint">
            On the payments basis, your GST return counts it on the day it was paid.
          </p>
        </div>
      )}
      {cost === null && f.kind === 'expense' && (
        <div className="field">
          <label htmlFor="cost-repeats" className="field__label">
            Repeats
          </label>
          <select id="cost-repeats" className="input" value={repeat.every} onChange={(e) => setRepeat((r) => ({ ...r, every: e.target.value as Repeats }))} aria-describedby="cost-repeats-hint">
            {(Object.keys(REPEAT_WORDS) as Repeats[]).map((k) => (
              <option key={k} value={k}>
                {REPEAT_WORDS[k]}
              </option>
            ))}
          </select>
          <p id="cost-repeats-hint" className="field__hint">
            {repeating ? 'Recorded by itself on each date from the first. Any already due are recorded when you save; stop it any time.' : 'A bill you pay regularly, like your phone, can record itself.'}
          </p>
        </div>
      )}
      {repeating && (
        <>
          <label className="costs__check">
            <input type="checkbox" checked={repeat.paidOnDate} onChange={(e) => setRepeat((r) => ({ ...r, paidOnDate: e.target.checked }))} />
            <span>Paid automatically on the day (direct debit)</span>
          </label>
          <div className="field">
            <label htmlFor="cost-repeat-end" className="field__label">
              Last date (optional)
            </label>
            <input id="cost-repeat-end" className="input" type="date" value={repeat.end} onChange={(e) => setRepeat((r) => ({ ...r, end: e.target.value }))} />
          </div>
        </>
      )}
      <div className="field">
        <label htmlFor="cost-amount" className="field__label">
          Amount including GST ($)
        </label>
        <input id="cost-amount" className="input" inputMode="decimal" autoComplete="off" value={f.amount} onChange={(e) => set('amount', e.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor="cost-gst" className="field__label">
          GST
        </label>
        <select id="cost-gst" className="input" value={f.gst} onChange={(e) => set('gst', e.target.value as CostRecord['gst'])}>
          <option value="standard">15% GST included</option>
          <option value="none">No GST</option>
        </select>
      </div>
      <label className="costs__check">
        <input type="checkbox" checked={f.supply_information_held} onChange={(e) => set('supply_information_held', e.target.checked)} />
        <span>I have the tax invoice</span>
      </label>
      <p className="field__hint">Over $200 you need the supplier&apos;s tax invoice (their name, GST number, the date, what you bought and the amounts) to claim the GST.</p>
      {!repeating && (
        <label className="costs__check">
          <input type="checkbox" checked={f.credit} onChange={(e) => set('credit', e.target.checked)} />
          <span>A credit from the supplier (money back)</span>
        </label>
      )}
      <div className="field">
        <label htmlFor="cost-category" className="field__label">
          Category
        </label>
        <select id="cost-category" className="input" value={f.category} onChange={(e) => set('category', e.target.value)}>
          {categories.map((c) => (
            <option key={c} value={c}>
              {categoryWords(c)}
            </option>
          ))}
        </select>
      </div>
      {!repeating && <JobSelect id="cost-job" value={f.job_id} jobs={jobs} onChange={(v) => set('job_id', v)} />}
      {!repeating && (
        <div className="field">
          <label htmlFor="cost-photo" className="field__label">
            Photo or PDF of the receipt
          </label>
          <input id="cost-photo" className="input" type="file" accept="image/*,application/pdf" aria-describedby="cost-photo-hint" onChange={(e) => setPhoto(e.target.files?.[0] ?? null)} />
          <p id="cost-photo-hint" className="field__hint">
            {cost?.receipt
              ? `Kept: a ${cost.receipt.content_type === 'application/pdf' ? 'PDF' : 'photo'} of ${sizeWords(cost.receipt.bytes)}. Choose another to replace it.`
              : 'Optional. Saving does not wait for it: it uploads when your signal allows.'}
          </p>
          {cost?.receipt && (
            <button type="button" className="button button--secondary" onClick={() => void viewReceipt()}>
              View the receipt
            </button>
          )}
          {viewError && <ErrorAlert message={viewError} />}
        </div>
      )}
      <div className="field">
        <label htmlFor="cost-note" className="field__label">
          Note
        </label>
        <textarea id="cost-note" className="input" rows={2} maxLength={2000} value={f.note} onChange={(e) => set('note', e.target.value)} />
      </div>
      {cost && <XeroBillPart cost={cost} />}
      {error && <ErrorAlert message={error} />}
      <EntryButtons saving={save.pending} busy={busy} onCancel={() => onDone()} onDelete={cost ? () => remove.run(cost.id) : null} />
    </form>
  );
}

/**
 * 'Send to Xero' for a cost already recorded, where Xero is connected: the cost becomes a bill there
 * with its receipt attached; after that the bill follows the cost by itself. Says what Xero has, and
 * what did not go (a receipt Xero would not take, a change to a bill paid there).
 */
function XeroBillPart({ cost }: { cost: CostRecord }) {
  const queryClient = useQueryClient();
  const connected = useQuery(accountingStatusQuery(api)).data?.connected === true;
  const [said, setSaid] = useState<string | null>(null);
  const send = useCommand({
    run: async () => {
      const answer = await sendCostToXero(api, cost.id);
      await invalidateCosts(queryClient);
      return answer;
    },
    failed: "Couldn't send it to Xero. Try again.",
    onDone: (answer) => setSaid(answer.warning ?? (answer.already_sent ? 'Xero has it.' : cost.credit ? 'Sent to Xero as a credit note.' : 'Sent to Xero as a bill.')),
  });
  if (!connected && !cost.xero_bill) return null;
  const bill = cost.xero_bill;
  return (
    <div className="field" data-testid="cost-xero-part">
      <p className="field__label">Xero</p>
      {bill && !said && (
        <p className={bill.detail ? 'field__hint costs__meta--warn' : 'field__hint'} role="status">
          {bill.status === 'voided' ? 'Voided in Xero.' : `In Xero as a ${cost.credit ? 'credit note' : bill.status === 'paid' ? 'paid bill' : 'bill'}. Changes you save here go to it.`}
          {bill.detail ? ` ${bill.detail}` : ''}
        </p>
      )}
      {!bill && !said && <p className="field__hint">{cost.credit ? "Send it to Xero as a credit note from the supplier, with the receipt attached." : 'Send it to Xero as a bill, with the receipt attached.'}</p>}
      {said && (
        <p className="field__hint" role="status">
          {said}
        </p>
      )}
      {send.error && <ErrorAlert message={send.error} />}
      {connected && bill?.status !== 'voided' && (send.result ? send.result.warning !== undefined : !bill || bill.detail !== null) && (
        <button type="button" className="button button--secondary" onClick={() => send.run()} disabled={send.pending}>
          {send.pending ? 'Sending…' : bill ? 'Send to Xero again' : 'Send to Xero'}
        </button>
      )}
    </div>
  );
}

function HoursForm({ hours, jobs, forJob, onDone }: { hours: HoursRecord | null; jobs: readonly DocumentListRecord[]; forJob: string; onDone(): void }) {
  const [f, setF] = useState({
    who: hours?.who ?? 'owner',
    date: hours?.date ?? nzDateOf(new Date()),
    hours: hours?.hours ?? '',
    rate: hours?.rate ?? '',
    job_id: hours ? (hours.job_id ?? '') : forJob,
    note: hours?.note ?? '',
  });
  const set = (name: keyof typeof f, value: string) => setF((now) => ({ ...now, [name]: value }));
  const { save, remove, error, busy } = useEntryCommands<HoursInput>(hours, { create: (b) => createHours(api, b), update: (id, b, v) => updateHours(api, id, b, v), remove: (id) => deleteHours(api, id) }, 'hours', onDone);

  return (
    <form
      className="screen costs__form"
      aria-labelledby="hours-form-title"
      noValidate
      onSubmit={save.submit(() => ({ ok: true, body: { ...f, job_id: f.job_id === '' ? null : f.job_id, who: f.who.trim() === '' ? 'owner' : f.who } }))}
    >
      <h1 id="hours-form-title" className="screen-title">
        {hours ? 'Edit hours' : 'Record hours'}
      </h1>
      <div className="field">
        <label htmlFor="hours-who" className="field__label">
          Who
        </label>
        <input id="hours-who" className="input" maxLength={100} autoComplete="off" value={f.who === 'owner' ? '' : f.who} placeholder="You" onChange={(e) => set('who', e.target.value)} />
        <p className="field__hint">Leave empty for your own hours, or type a worker&apos;s name.</p>
      </div>
      <div className="field">
        <label htmlFor="hours-date" className="field__label">
          Date
        </label>
        <input id="hours-date" className="input" type="date" value={f.date} onChange={(e) => set('date', e.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor="hours-hours" className="field__label">
          Hours
        </label>
        <input id="hours-hours" className="input" inputMode="decimal" autoComplete="off" value={f.hours} onChange={(e) => set('hours', e.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor="hours-rate" className="field__label">
          Cost per hour ($, wages and on-costs)
        </label>
        <input id="hours-rate" className="input" inputMode="decimal" autoComplete="off" value={f.rate} onChange={(e) => set('rate', e.target.value)} />
      </div>
      <JobSelect id="hours-job" value={f.job_id} jobs={jobs} onChange={(v) => set('job_id', v)} />
      <div className="field">
        <label htmlFor="hours-note" className="field__label">
          Note
        </label>
        <textarea id="hours-note" className="input" rows={2} maxLength={2000} value={f.note} onChange={(e) => set('note', e.target.value)} />
      </div>
      {error && <ErrorAlert message={error} />}
      <EntryButtons saving={save.pending} busy={busy} onCancel={onDone} onDelete={hours ? () => remove.run(hours.id) : null} />
    </form>
  );
}
