// costs and hours: one row per live cost (receipt, bill or expense) and per live hours entry,
// for the lists, the GST report's purchases and a job's real profit. A deleted entry's row goes.
import { type CostEvent, type CostState, type HoursEvent, type HoursState, type RecurringEvent, type RecurringState, costDecider, hoursDecider, nextOccurrence, recurringDecider, toCents } from '@tradie/domain';
import { type Projection, type RecordedEvent, column as c, nullableColumn as n } from '@tradie/store';
import { type Fold, domainEventOf, foldStream, streamAccount } from './fold.ts';

const costFold: Fold<CostState, CostEvent> = costDecider;
const hoursFold: Fold<HoursState, HoursEvent> = hoursDecider;

export const foldCostStream = (events: readonly RecordedEvent[]): CostState => foldStream(costFold, events);
export const foldHoursStream = (events: readonly RecordedEvent[]): HoursState => foldStream(hoursFold, events);

export const costsProjection: Projection = {
  name: 'costs',
  categories: ['cost'],
  tables: [
    {
      name: 'costs',
      streamKey: 'id',
      primaryKey: ['id'],
      indexes: { costs_account_date: '(account_id, date)', costs_account_paid: '(account_id, paid_date)', costs_account_job: '(account_id, job_id)' },
      columns: [
        c('id'), c('account_id'), c('seq', 'bigint'), c('kind'), c('supplier'), c('date', 'date'), n('paid_date', 'date'), c('amount_cents', 'bigint'), c('gst'),
        c('supply_information_held', 'boolean'), c('credit', 'boolean'), c('category'), n('job_id'), c('note'), c('stream_version', 'integer'),
        c('created_at', 'timestamptz'), c('updated_at', 'timestamptz'),
      ],
    },
  ],
  key: (stream) => {
    const s = foldCostStream(stream.events);
    return s.status === 'none' ? null : s.id;
  },
  rows(stream) {
    const s = foldCostStream(stream.events);
    if (s.status !== 'active') return {};
    const f = s.fields;
    const first = stream.events[0]!;
    const last = stream.events.at(-1)!;
    return {
      costs: [
        {
          id: s.id, account_id: streamAccount(stream.events), seq: first.position, kind: f.kind, supplier: f.supplier, date: f.date, paid_date: f.paidDate,
          amount_cents: toCents(f.amount), gst: f.gst, supply_information_held: f.supplyInformationHeld, credit: f.credit, category: f.category,
          job_id: f.jobId, note: f.note, stream_version: last.streamVersion, created_at: first.meta.at, updated_at: last.meta.at,
        },
      ],
    };
  },
};

/**
 * cost_versions: every version of a cost, one row per event (the version it became at that instant,
 * or its removal), with the date of the version it replaced. The GST report reads the history of
 * the few costs changed after a GST period holding their date was exported (domain
 * costs/purchaseCarry.ts); nothing else needs it.
 */
export const costHistoryProjection: Projection = {
  name: 'cost_history',
  categories: ['cost'],
  tables: [
    {
      name: 'cost_versions',
      streamKey: 'cost_id',
      primaryKey: ['cost_id', 'version'],
      indexes: { cost_versions_account_at: '(account_id, at)' },
      columns: [
        c('cost_id'), c('account_id'), c('version', 'integer'), c('at', 'timestamptz'), n('prev_date', 'date'), c('removed', 'boolean'), n('kind'), n('supplier'),
        n('date', 'date'), n('paid_date', 'date'), n('amount_cents', 'bigint'), n('gst'), n('supply_information_held', 'boolean'), n('credit', 'boolean'), n('category'),
        n('job_id'),
      ],
    },
  ],
  key: (stream) => {
    const s = foldCostStream(stream.events);
    return s.status === 'none' ? null : s.id;
  },
  rows(stream) {
    const account = streamAccount(stream.events);
    const rows = [];
    let state = costFold.initialState();
    let prevDate: string | null = null;
    for (const e of stream.events) {
      state = costFold.evolve(state, domainEventOf(e) as CostEvent);
      if (state.status === 'none') continue;
      const f = state.status === 'active' ? state.fields : null;
      rows.push({
        cost_id: state.id, account_id: account, version: e.streamVersion, at: e.meta.at, prev_date: prevDate, removed: f === null, kind: f?.kind ?? null,
        supplier: f?.supplier ?? null, date: f?.date ?? null, paid_date: f?.paidDate ?? null, amount_cents: f ? toCents(f.amount) : null, gst: f?.gst ?? null,
        supply_information_held: f?.supplyInformationHeld ?? null, credit: f?.credit ?? null, category: f?.category ?? null, job_id: f?.jobId ?? null,
      });
      prevDate = f?.date ?? null;
    }
    return { cost_versions: rows };
  },
};

export const hoursProjection: Projection = {
  name: 'hours',
  categories: ['hours'],
  tables: [
    {
      name: 'hours',
      streamKey: 'id',
      primaryKey: ['id'],
      indexes: { hours_account_date: '(account_id, date)', hours_account_job: '(account_id, job_id)' },
      columns: [
        c('id'), c('account_id'), c('seq', 'bigint'), c('who'), c('date', 'date'), c('hours'), c('rate'), n('job_id'), c('note'), c('stream_version', 'integer'),
        c('created_at', 'timestamptz'), c('updated_at', 'timestamptz'),
      ],
    },
  ],
  key: (stream) => {
    const s = foldHoursStream(stream.events);
    return s.status === 'none' ? null : s.id;
  },
  rows(stream) {
    const s = foldHoursStream(stream.events);
    if (s.status !== 'active') return {};
    const f = s.fields;
    const first = stream.events[0]!;
    const last = stream.events.at(-1)!;
    return {
      hours: [
        {
          id: s.id, account_id: streamAccount(stream.events), seq: first.position, who: f.who, date: f.date, hours: f.hours, rate: f.rate,
          job_id: f.jobId, note: f.note, stream_version: last.streamVersion, created_at: first.meta.at, updated_at: last.meta.at,
        },
      ],
    };
  },
};

const recurringFold: Fold<RecurringState, RecurringEvent> = recurringDecider;
export const foldRecurringStream = (events: readonly RecordedEvent[]): RecurringState => foldStream(recurringFold, events);

/**
 * recurring_costs: one row per repeating expense, with how many it has made and the date of the next
 * (null once stopped or past its last date). The runner looks up the rows due across accounts by
 * next_date; the Costs screen lists an account's.
 */
export const recurringProjection: Projection = {
  name: 'recurring_costs',
  categories: ['recurring'],
  tables: [
    {
      name: 'recurring_costs',
      streamKey: 'id',
      primaryKey: ['id'],
      indexes: { recurring_costs_account: '(account_id, seq)', recurring_costs_next: '(next_date)' },
      columns: [
        c('id'), c('account_id'), c('seq', 'bigint'), c('supplier'), c('amount_cents', 'bigint'), c('gst'), c('supply_information_held', 'boolean'), c('category'),
        c('note'), c('frequency'), c('start_date', 'date'), n('end_date', 'date'), c('paid_on_date', 'boolean'), c('made', 'integer'), n('last_made_on', 'date'),
        n('next_date', 'date'), n('stopped_on', 'date'), c('stream_version', 'integer'), c('created_at', 'timestamptz'), c('updated_at', 'timestamptz'),
      ],
    },
  ],
  key: (stream) => {
    const s = foldRecurringStream(stream.events);
    return s.status === 'none' ? null : s.id;
  },
  rows(stream) {
    const s = foldRecurringStream(stream.events);
    if (s.status === 'none') return {};
    const f = s.fields;
    const first = stream.events[0]!;
    const last = stream.events.at(-1)!;
    return {
      recurring_costs: [
        {
          id: s.id, account_id: streamAccount(stream.events), seq: first.position, supplier: f.supplier, amount_cents: toCents(f.amount), gst: f.gst,
          supply_information_held: f.supplyInformationHeld, category: f.category, note: f.note, frequency: f.frequency, start_date: f.start, end_date: f.end,
          paid_on_date: f.paidOnDate, made: s.made, last_made_on: s.lastMadeOn, next_date: s.status === 'active' ? nextOccurrence(f, s.made) : null,
          stopped_on: s.stoppedOn, stream_version: last.streamVersion, created_at: first.meta.at, updated_at: last.meta.at,
        },
      ],
    };
  },
};
