// The cost and hours deciders: a cost (cost-{id}) or an hours entry (hours-{id}) is recorded,
// changed as a whole and deleted, each as an event. Events: CostRecorded, CostChanged, CostRemoved;
// HoursRecorded, HoursChanged, HoursRemoved (events.ts). The rules on the fields are in costs.ts.
import type { Decider } from '../decider.ts';
import { type DomainError, assertNever, conflict, notFound } from '../errors.ts';
import { type LocalDate } from '../dates/dates.ts';
import { toCents } from '../money/money.ts';
import type { CostEntry, HoursEntry } from './costs.ts';
import type { CostEvent, HoursEvent, StoredCostFields, StoredHoursFields } from './events.ts';

export const costStreamId = (costId: string): string => `cost-${costId}`;
export const hoursStreamId = (hoursId: string): string => `hours-${hoursId}`;

/** What a cost stream folds to. */
export type CostState = { status: 'none' } | { status: 'active' | 'removed'; id: string; fields: StoredCostFields };
export type HoursState = { status: 'none' } | { status: 'active' | 'removed'; id: string; fields: StoredHoursFields };

export const COST_NOT_FOUND = 'Cost not found';
export const HOURS_NOT_FOUND = 'Hours not found';

/** A stored cost as the rules in costs.ts take it. */
export function costEntryOf(f: StoredCostFields): CostEntry {
  return {
    kind: f.kind, supplier: f.supplier, date: f.date as LocalDate, paidDate: f.paidDate as LocalDate | null, amountCents: toCents(f.amount),
    gst: f.gst, category: f.category, jobId: f.jobId, supplyInformationHeld: f.supplyInformationHeld, credit: f.credit,
  };
}

/** Stored hours as the rules in costs.ts take them. */
export const hoursEntryOf = (f: StoredHoursFields): HoursEntry => ({ who: f.who, date: f.date as LocalDate, hours: f.hours, rate: f.rate, jobId: f.jobId, note: f.note });

export function evolveCost(state: CostState, event: CostEvent): CostState {
  switch (event.type) {
    case 'CostRecorded':
    case 'CostChanged': {
      const { costId, ...fields } = event.data;
      return { status: 'active', id: costId, fields };
    }
    case 'CostRemoved':
      return state.status === 'none' ? state : { ...state, status: 'removed' };
    default:
      return assertNever(event);
  }
}

export type CostCommand =
  | { type: 'RecordCost'; data: { costId: string; fields: StoredCostFields } }
  | { type: 'ChangeCost'; data: { fields: StoredCostFields } }
  | { type: 'RemoveCost' };

const costNotFound = (): DomainError => notFound(COST_NOT_FOUND);

export function decideCost(command: CostCommand, state: CostState): CostEvent[] {
  switch (command.type) {
    case 'RecordCost':
      if (state.status !== 'none') throw conflict('This cost already exists');
      return [{ type: 'CostRecorded', data: { costId: command.data.costId, ...command.data.fields } }];
    case 'ChangeCost':
      if (state.status !== 'active') throw costNotFound();
      return [{ type: 'CostChanged', data: { costId: state.id, ...command.data.fields } }];
    case 'RemoveCost':
      if (state.status !== 'active') throw costNotFound();
      return [{ type: 'CostRemoved', data: { costId: state.id } }];
    default:
      return assertNever(command);
  }
}

export const costDecider = { decide: decideCost, evolve: evolveCost, initialState: (): CostState => ({ status: 'none' }) } satisfies Decider<CostCommand, CostEvent, CostState>;

export function evolveHours(state: HoursState, event: HoursEvent): HoursState {
  switch (event.type) {
    case 'HoursRecorded':
    case 'HoursChanged': {
      const { hoursId, ...fields } = event.data;
      return { status: 'active', id: hoursId, fields };
    }
    case 'HoursRemoved':
      return state.status === 'none' ? state : { ...state, status: 'removed' };
    default:
      return assertNever(event);
  }
}

export type HoursCommand =
  | { type: 'RecordHours'; data: { hoursId: string; fields: StoredHoursFields } }
  | { type: 'ChangeHours'; data: { fields: StoredHoursFields } }
  | { type: 'RemoveHours' };

const hoursNotFound = (): DomainError => notFound(HOURS_NOT_FOUND);

export function decideHours(command: HoursCommand, state: HoursState): HoursEvent[] {
  switch (command.type) {
    case 'RecordHours':
      if (state.status !== 'none') throw conflict('These hours already exist');
      return [{ type: 'HoursRecorded', data: { hoursId: command.data.hoursId, ...command.data.fields } }];
    case 'ChangeHours':
      if (state.status !== 'active') throw hoursNotFound();
      return [{ type: 'HoursChanged', data: { hoursId: state.id, ...command.data.fields } }];
    case 'RemoveHours':
      if (state.status !== 'active') throw hoursNotFound();
      return [{ type: 'HoursRemoved', data: { hoursId: state.id } }];
    default:
      return assertNever(command);
  }
}

export const hoursDecider = { decide: decideHours, evolve: evolveHours, initialState: (): HoursState => ({ status: 'none' }) } satisfies Decider<HoursCommand, HoursEvent, HoursState>;
