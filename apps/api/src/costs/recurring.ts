// Repeating expenses (/api/v1/recurring-costs, docs/api/costs.md): set up once, each records its
// costs by itself on their dates, as expenses not for a job. A repeating expense is its own stream
// (recurring-{id}); each cost it makes is a RecurringCostMade on that stream and a CostRecorded on
// the cost's own stream in the same commit (makeDue), so a cost is made exactly once whoever looks —
// the set-up (what is already due from a first date in the past), or the runner every few minutes.
// Stopping ends the repeat; the costs it made stay, and change or go like any other cost.
import { COST_MESSAGES, RECURRING_MAX_ACTIVE, type RecurringFieldsInput, type RecurringRecord } from '@tradie/contracts';
import {
  type LocalDate, type RecurringState, type StoredRecurringFields, centsToString, checkRecurring, costDecider, costStreamId, dueOccurrences, invalid, MAX_MADE_AT_ONCE,
  nzDateOf, recurringCostFields, recurringDecider, recurringStreamId, requireCostCents,
} from '@tradie/domain';
import { countActiveRecurring, dueRecurring, findRecurring } from '@tradie/projections';
import type { StoreTx } from '@tradie/store';
import { type Actor, type Loaded, decideAndAppend, eventMeta, loadStream } from '../commands.ts';
import { type AppError, Conflict, NotFound } from '../errors.ts';
import { type Answer, type CommandPorts, handleCommand } from '../handleCommand.ts';
import { plausibleId } from '../http/ids.ts';
import { closedAccounts } from '../account/liveness.ts';
import { repeatEvery } from '../repeat.ts';
import { loadBusinessSettings } from '../settings/repository.ts';

export const recurringNotFound = (): AppError => new NotFound(COST_MESSAGES.recurringNotFound);

/** The repeating expense's fields as its events store them, after the domain's rules. */
export function recurringFieldsOf(input: RecurringFieldsInput, registered: boolean, today: LocalDate): StoredRecurringFields {
  if (input.gst === 'standard' && !registered) throw invalid(COST_MESSAGES.notRegistered);
  const fields: StoredRecurringFields = {
    supplier: input.supplier, amount: centsToString(requireCostCents(input.amount)), gst: input.gst, supplyInformationHeld: input.supply_information_held,
    category: input.category, note: input.note, frequency: input.frequency, start: input.start_date, end: input.end_date, paidOnDate: input.paid_on_date,
  };
  checkRecurring(fields, today);
  return fields;
}

/**
 * Records every cost of the repeating expense due by `today` that it has not made (at most
 * MAX_MADE_AT_ONCE): a RecurringCostMade on its stream and the cost on its own, in this commit.
 * Returns how many it made.
 */
async function makeDue(tx: StoreTx, ports: CommandPorts, actor: Actor, loaded: Loaded<RecurringState>, today: LocalDate, registered: boolean): Promise<number> {
  const s = loaded.state;
  if (s.status !== 'active') return 0;
  const due = dueOccurrences(s.fields, s.made, today, MAX_MADE_AT_ONCE);
  if (due.length === 0) return 0;
  const meta = eventMeta(ports, actor);
  const costIds = due.map(() => ports.ids.uuid());
  const done = await decideAndAppend(tx, loaded, recurringDecider, { type: 'MakeDueCosts', data: { today, costIds } }, meta);
  for (const e of done.events) {
    if (e.type !== 'RecurringCostMade') continue;
    const cost = await loadStream(tx, costStreamId(e.data.costId), costDecider);
    await decideAndAppend(tx, cost, costDecider, { type: 'RecordCost', data: { costId: e.data.costId, fields: recurringCostFields(s.fields, e.data.date as LocalDate, registered) } }, meta);
  }
  return done.events.length;
}

const today = (ports: Pick<CommandPorts, 'clock'>): LocalDate => nzDateOf(ports.clock.now());

/** A new repeating expense (201), with what is already due from its first date recorded at once. */
export function setUpRecurring(ports: CommandPorts, actor: Actor, input: RecurringFieldsInput, registered: boolean, key: string | undefined): Promise<Answer<RecurringRecord>> {
  const day = today(ports);
  const fields = recurringFieldsOf(input, registered, day);
  return handleCommand(ports, actor, { status: 201, once: { scope: 'recurring-costs.create', key, request: input } }, async (tx) => {
    if ((await countActiveRecurring({ query: (text, params) => tx.read(text, params) }, actor.accountId)) >= RECURRING_MAX_ACTIVE) {
      throw new Conflict(`You can have at most ${RECURRING_MAX_ACTIVE} repeating expenses going at once. Stop one you no longer pay first.`);
    }
    const recurringId = ports.ids.uuid();
    const streamId = recurringStreamId(recurringId);
    await decideAndAppend(tx, await loadStream(tx, streamId, recurringDecider), recurringDecider, { type: 'SetUpRecurringCost', data: { recurringId, fields } }, eventMeta(ports, actor));
    await makeDue(tx, ports, actor, await loadStream(tx, streamId, recurringDecider), day, registered);
    return { id: recurringId };
  }).then(async (answer) => ({ ...answer, body: await recordOf(ports, actor.accountId, answer.body.id) }));
}

async function recordOf(ports: CommandPorts, accountId: string, id: string): Promise<RecurringRecord> {
  const found = await findRecurring(ports.store.db, accountId, id);
  if (!found) throw recurringNotFound();
  return found;
}

/** Stops a repeating expense: no more costs are made; those made stay. Stopping one already stopped changes nothing. */
export async function stopRecurring(ports: CommandPorts, actor: Actor, id: string): Promise<RecurringRecord> {
  if (!plausibleId(id)) throw recurringNotFound();
  await handleCommand(ports, actor, {}, async (tx) => {
    const loaded = await loadStream(tx, recurringStreamId(id), recurringDecider, { accountId: actor.accountId, notFound: COST_MESSAGES.recurringNotFound });
    await decideAndAppend(tx, loaded, recurringDecider, { type: 'StopRecurringCost', data: { today: today(ports) } }, eventMeta(ports, actor));
  });
  return recordOf(ports, actor.accountId, id);
}

/** Rows looked at per run: more wait for the next run, a minute later. */
export const RECURRING_RUN_BATCH = 200;

/** Records the costs due today or earlier across accounts; returns how many it made. A failure on one is logged and the rest go on. */
export async function makeDueRecurringCosts(ports: CommandPorts): Promise<number> {
  const day = today(ports);
  let made = 0;
  const due = await dueRecurring(ports.store.db, day, RECURRING_RUN_BATCH);
  // A closed account records nothing more (account/liveness.ts).
  const closed = await closedAccounts(ports.store.db, due.map((r) => r.account_id));
  for (const row of due) {
    if (closed.has(row.account_id)) continue;
    const actor: Actor = { accountId: row.account_id, userId: row.account_id };
    try {
      const registered = (await loadBusinessSettings(ports.store.db, row.account_id)).gst_registered;
      made += (
        await handleCommand(ports, actor, {}, async (tx) => makeDue(tx, ports, actor, await loadStream(tx, recurringStreamId(row.id), recurringDecider), day, registered))
      ).body;
    } catch (e) {
      ports.log('error', 'a repeating expense could not be recorded', { recurringId: row.id, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return made;
}

export const RECURRING_EVERY_MS = 5 * 60_000;

/** The timer (main.ts): due repeating expenses recorded now and every five minutes; never two runs at once. */
export function scheduleRecurringCosts(ports: CommandPorts, everyMs = RECURRING_EVERY_MS): () => Promise<void> {
  return repeatEvery(everyMs, () =>
    makeDueRecurringCosts(ports).then(
      (made) => {
        if (made > 0) ports.log('info', 'repeating expenses recorded', { made });
      },
      (e: unknown) => ports.log('error', 'the repeating expenses run failed', { error: e instanceof Error ? e.message : String(e) }),
    ),
  );
}
