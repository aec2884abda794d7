// Costs (receipts, supplier bills, expenses) and hours: record, change and delete, each through
// the one command pipeline (handleCommand.ts) on its own stream (cost-{id}, hours-{id}), decided by
// the domain's costDecider / hoursDecider; the `costs` and `hours` read models are written in the
// same commit. The domain's rules check the amounts and hours; here: that GST is only on a
// registered business's costs and that a job is one of the account's accepted quotes.
import { COST_MESSAGES, type CostFieldsInput, type CostRecord, type HoursFieldsInput, type HoursRecord, type costUpdateInput, type hoursUpdateInput } from '@tradie/contracts';
import {
  type LocalDate, type StoredCostFields, type StoredHoursFields, centsToString, purchaseCarryNotice, costDecider, costEntryOf, costStreamId, hoursDecider, hoursEntryOf, hoursStreamId, invalid, requireCostCents,
  requireHours, requireRate,
} from '@tradie/domain';
import { costRecordOf, hoursRecordOf } from '@tradie/projections';
import type { StoreTx } from '@tradie/store';
import type { z } from 'zod';
import { type Actor, decideAndAppend, eventMeta, expectVersion, loadStream } from '../commands.ts';
import { type AppError, NotFound } from '../errors.ts';
import { type Answer, type CommandPorts, handleCommand } from '../handleCommand.ts';
import type { AppDeps } from '../deps.ts';
import { plausibleId } from '../http/ids.ts';
import { gstExportsOf } from '../reports/gstExports.ts';
import { forgetReceiptRow, removeReceiptFile } from './receipts.ts';

export const costNotFound = (): AppError => new NotFound(COST_MESSAGES.costNotFound);
export const hoursNotFound = (): AppError => new NotFound(COST_MESSAGES.hoursNotFound);

/**
 * The job an entry is for: one of the account's quotes that was accepted (or since turned into an
 * invoice). Anything else — another account's, a draft, a declined quote, an invoice — is refused.
 */
export async function requireJob(sql: Pick<StoreTx, 'read'>, accountId: string, jobId: string | null): Promise<void> {
  if (jobId === null) return;
  const found = plausibleId(jobId)
    ? await sql.read<{ id: string }>(`SELECT id FROM documents_list WHERE account_id = $1 AND id = $2 AND type = 'quote' AND lifecycle IN ('accepted', 'converted')`, [accountId, jobId])
    : [];
  if (found.length === 0) throw invalid(COST_MESSAGES.jobNotFound);
}

/** A cost's fields as its events store them, after the domain's rules. */
export function costFieldsOf(input: CostFieldsInput, registered: boolean): StoredCostFields {
  const cents = requireCostCents(input.amount);
  if (input.gst === 'standard' && !registered) throw invalid(COST_MESSAGES.notRegistered);
  return {
    kind: input.kind, supplier: input.supplier, date: input.date, paidDate: input.paid_date, amount: centsToString(cents), gst: input.gst,
    supplyInformationHeld: input.supply_information_held, credit: input.credit, category: input.category, jobId: input.job_id, note: input.note,
  };
}

export function hoursFieldsOf(input: HoursFieldsInput): StoredHoursFields {
  return { who: input.who, date: input.date, hours: requireHours(input.hours), rate: requireRate(input.rate), jobId: input.job_id, note: input.note };
}

const costAnswer = (id: string, f: StoredCostFields, version: number, registered: boolean, gstNotice: string | null): CostRecord =>
  costRecordOf(id, costEntryOf(f), f.note, version, registered, gstNotice);

/** What a change made at `at` to a cost dated on `dates` says when it lands in an exported GST period (the answer carries it). */
async function changeNotice(tx: StoreTx, accountId: string, dates: readonly LocalDate[], at: string, tense: 'recorded' | 'made' = 'made'): Promise<string | null> {
  return purchaseCarryNotice(dates, at, await gstExportsOf({ query: (text, params) => tx.read(text, params) }, accountId), tense);
}
const hoursAnswer = (id: string, f: StoredHoursFields, version: number): HoursRecord => hoursRecordOf(id, hoursEntryOf(f), version);

async function loadOwnCost(tx: StoreTx, accountId: string, id: string) {
  const loaded = await loadStream(tx, costStreamId(id), costDecider, { accountId, notFound: COST_MESSAGES.costNotFound });
  if (loaded.state.status !== 'active') throw costNotFound();
  return loaded;
}

async function loadOwnHours(tx: StoreTx, accountId: string, id: string) {
  const loaded = await loadStream(tx, hoursStreamId(id), hoursDecider, { accountId, notFound: COST_MESSAGES.hoursNotFound });
  if (loaded.state.status !== 'active') throw hoursNotFound();
  return loaded;
}

/** A new cost (201); a repeat with the same Idempotency-Key replays the first answer. */
export function recordCost(ports: CommandPorts, actor: Actor, input: CostFieldsInput, registered: boolean, key: string | undefined): Promise<Answer<CostRecord>> {
  const fields = costFieldsOf(input, registered);
  return handleCommand(ports, actor, { status: 201, once: { scope: 'costs.create', key, request: input } }, async (tx) => {
    await requireJob(tx, actor.accountId, fields.jobId);
    const costId = ports.ids.uuid();
    const loaded = await loadStream(tx, costStreamId(costId), costDecider);
    const meta = eventMeta(ports, actor);
    const done = await decideAndAppend(tx, loaded, costDecider, { type: 'RecordCost', data: { costId, fields } }, meta);
    return costAnswer(costId, fields, done.version, registered, await changeNotice(tx, actor.accountId, [fields.date as LocalDate], meta.at, 'recorded'));
  });
}

/** Replaces a cost's fields; `version` is the one the form was loaded at (another is 409). */
export async function changeCost(ports: CommandPorts, actor: Actor, id: string, input: z.output<typeof costUpdateInput>, registered: boolean): Promise<CostRecord> {
  if (!plausibleId(id)) throw costNotFound();
  const { version, ...rest } = input;
  const fields = costFieldsOf(rest, registered);
  const answer = await handleCommand(ports, actor, {}, async (tx) => {
    const loaded = await loadOwnCost(tx, actor.accountId, id);
    expectVersion(loaded, version);
    await requireJob(tx, actor.accountId, fields.jobId);
    const meta = eventMeta(ports, actor);
    const before = loaded.state.status === 'none' ? [] : [loaded.state.fields.date as LocalDate];
    const done = await decideAndAppend(tx, loaded, costDecider, { type: 'ChangeCost', data: { fields } }, meta);
    return costAnswer(id, fields, done.version, registered, await changeNotice(tx, actor.accountId, [...before, fields.date as LocalDate], meta.at));
  });
  return answer.body;
}

export async function removeCost(ports: CommandPorts & Pick<AppDeps, 'files'>, actor: Actor, id: string): Promise<void> {
  if (!plausibleId(id)) throw costNotFound();
  await handleCommand(ports, actor, {}, async (tx) => {
    const loaded = await loadOwnCost(tx, actor.accountId, id);
    await decideAndAppend(tx, loaded, costDecider, { type: 'RemoveCost' }, eventMeta(ports, actor));
    // The receipt goes with the cost, on every path that deletes one: its row in the same commit,
    // its file once that commit is made (a file left by a crash names no row and is never served).
    await forgetReceiptRow(tx, actor.accountId, id);
  });
  await removeReceiptFile(ports, actor.accountId, id);
}

/** New hours (201); a repeat with the same Idempotency-Key replays the first answer. */
export function recordHours(ports: CommandPorts, actor: Actor, input: HoursFieldsInput, key: string | undefined): Promise<Answer<HoursRecord>> {
  const fields = hoursFieldsOf(input);
  return handleCommand(ports, actor, { status: 201, once: { scope: 'hours.create', key, request: input } }, async (tx) => {
    await requireJob(tx, actor.accountId, fields.jobId);
    const hoursId = ports.ids.uuid();
    const loaded = await loadStream(tx, hoursStreamId(hoursId), hoursDecider);
    const done = await decideAndAppend(tx, loaded, hoursDecider, { type: 'RecordHours', data: { hoursId, fields } }, eventMeta(ports, actor));
    return hoursAnswer(hoursId, fields, done.version);
  });
}

export async function changeHours(ports: CommandPorts, actor: Actor, id: string, input: z.output<typeof hoursUpdateInput>): Promise<HoursRecord> {
  if (!plausibleId(id)) throw hoursNotFound();
  const { version, ...rest } = input;
  const fields = hoursFieldsOf(rest);
  const answer = await handleCommand(ports, actor, {}, async (tx) => {
    const loaded = await loadOwnHours(tx, actor.accountId, id);
    expectVersion(loaded, version);
    await requireJob(tx, actor.accountId, fields.jobId);
    const done = await decideAndAppend(tx, loaded, hoursDecider, { type: 'ChangeHours', data: { fields } }, eventMeta(ports, actor));
    return hoursAnswer(id, fields, done.version);
  });
  return answer.body;
}

export async function removeHours(ports: CommandPorts, actor: Actor, id: string): Promise<void> {
  if (!plausibleId(id)) throw hoursNotFound();
  await handleCommand(ports, actor, {}, async (tx) => {
    const loaded = await loadOwnHours(tx, actor.accountId, id);
    await decideAndAppend(tx, loaded, hoursDecider, { type: 'RemoveHours' }, eventMeta(ports, actor));
  });
}
