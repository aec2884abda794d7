// /api/v1/costs and /api/v1/hours: receipts, supplier bills and expenses, and hours worked
// (docs/api/costs.md). Each entry is event-sourced (cost-{id}, hours-{id}; commands.ts); reads come
// from the `costs` and `hours` read models, every one scoped to the signed-in account.
import { enforce, type Limit } from '../security/rateLimit.ts';
import { COST_LIST_MAX, receiptInfo, recurringInput, recurringList, recurringRecord, jobList, jobListQuery, jobProfitQuery, jobProfitRecord, costInput, costList, costListQuery, costRecord, costUpdateInput, hoursInput, hoursList, hoursRecord, hoursUpdateInput } from '@tradie/contracts';
import { type LocalDate, purchaseCarryNotice } from '@tradie/domain';
import { findCost, findHours, findRecurring, listCosts, listHours, listRecurring } from '@tradie/projections';
import { Hono } from 'hono';
import { actorOf, requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody, parseQuery } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { plausibleId } from '../http/ids.ts';
import { idempotencyKey } from '../http/idempotency.ts';
import { describe } from '../openapi/describe.ts';
import { loadBusinessSettings } from '../settings/repository.ts';
import { jobListOf, jobProfitOf } from './jobs.ts';
import { gstExportsOf } from '../reports/gstExports.ts';
import { createReportMemo, versionWithSettings } from '../reports/memo.ts';
import { recurringNotFound, setUpRecurring, stopRecurring } from './recurring.ts';
import { withUploadSlot } from '../security/uploadGate.ts';
import { billsOf } from '../integrations/xero/bills.ts';
import { queueReceiptForXero } from '../integrations/xero/billQueue.ts';
import { loadReceipt, RECEIPT_MESSAGES, receiptsOf, removeReceipt, requireCost, saveReceipt } from './receipts.ts';
import { Invalid } from '../errors.ts';
import { uploadedFile } from '../http/upload.ts';
import { changeCost, changeHours, costNotFound, hoursNotFound, recordCost, recordHours, removeCost, removeHours } from './commands.ts';

/** Whether the account is registered for GST: only then is GST on a cost claimed (or allowed). */
export const isRegistered = async (deps: AppDeps, accountId: string): Promise<boolean> => (await loadBusinessSettings(deps.store.db, accountId)).gst_registered;

/** For a cost shown for editing: what a change or deletion now would say, by its date (the account's exports read once). */
async function standingNotice(deps: AppDeps, accountId: string): Promise<(date: string) => string | null> {
  const exports = await gstExportsOf(deps.store.db, accountId);
  const now = deps.clock.now().toISOString();
  return (date) => (exports.length === 0 ? null : purchaseCarryNotice([date as LocalDate], now, exports, 'would be'));
}

export function costRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/', describe({ tag: 'Costs', summary: 'Receipts, bills and expenses, newest first (by job, kind and date)', query: costListQuery, response: { status: 200, schema: costList } }), async (c) => {
    const q = parseQuery(c, costListQuery);
    const accountId = c.get('accountId');
    const [costs, standing] = await Promise.all([
      listCosts(deps.store.db, accountId, { jobId: q.job_id, from: q.from, to: q.to, kind: q.kind }, await isRegistered(deps, accountId), COST_LIST_MAX),
      standingNotice(deps, accountId),
    ]);
    const ids = costs.map((cost) => cost.id);
    const [receipts, bills] = await Promise.all([receiptsOf(deps.store.db, accountId, ids), billsOf(deps.store.db, accountId, ids)]);
    return c.json({ costs: costs.map((cost) => ({ ...cost, gst_notice: standing(cost.date), receipt: receipts.get(cost.id) ?? null, xero_bill: bills.get(cost.id) ?? null })) });
  });

  r.post('/', describe({ tag: 'Costs', summary: 'Record a receipt, bill or expense', body: costInput, idempotent: true, response: { status: 201, schema: costRecord }, errors: [422] }), async (c) => {
    const input = await parseBody(c, costInput);
    const answer = await recordCost(deps, actorOf(c), input, await isRegistered(deps, c.get('accountId')), idempotencyKey(c));
    if (answer.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(answer.body, answer.status as 201);
  });

  r.get('/:id', describe({ tag: 'Costs', summary: 'One cost', response: { status: 200, schema: costRecord }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    const accountId = c.get('accountId');
    const found = plausibleId(id) ? await findCost(deps.store.db, accountId, id, await isRegistered(deps, accountId)) : null;
    if (!found) throw costNotFound();
    const receipt = (await receiptsOf(deps.store.db, accountId, [id])).get(id) ?? null;
    const xeroBill = (await billsOf(deps.store.db, accountId, [id])).get(id) ?? null;
    return c.json({ ...found, gst_notice: (await standingNotice(deps, accountId))(found.date), receipt, xero_bill: xeroBill });
  });

  r.put('/:id', describe({ tag: 'Costs', summary: 'Replace a cost (send the version you edited)', body: costUpdateInput, response: { status: 200, schema: costRecord }, errors: [404, 409, 422] }), async (c) => {
    const id = c.req.param('id');
    const input = await parseBody(c, costUpdateInput);
    const changed = await changeCost(deps, actorOf(c), id, input, await isRegistered(deps, c.get('accountId')));
    return c.json({ ...changed, receipt: (await receiptsOf(deps.store.db, c.get('accountId'), [id])).get(id) ?? null, xero_bill: (await billsOf(deps.store.db, c.get('accountId'), [id])).get(id) ?? null });
  });

  r.delete('/:id', describe({ tag: 'Costs', summary: 'Delete a cost (and its receipt)', response: { status: 204, description: 'Deleted' }, errors: [404] }), async (c) => {
    await removeCost(deps, actorOf(c), c.req.param('id'));
    return c.body(null, 204);
  });

  r.post(
    '/:id/receipt',
    describe({
      tag: 'Costs', summary: "Keep the cost's receipt (replacing any it had): a photo (JPEG, PNG, WebP, HEIC; re-encoded, location and other metadata removed) or a PDF, at most 10 MB",
      bodyNote: 'multipart/form-data with a `file` field', response: { status: 200, schema: receiptInfo }, errors: [404, 409, 413, 415, 422, 429],
    }),
    async (c) => {
      // Another account's cost (or none) is 404 before anything of the upload is read.
      await requireCost(deps.store.db, c.get('accountId'), c.req.param('id'));
      // One of the account's few upload places and the hour's count, before the body is read.
      const { sha256, ...kept } = await withUploadSlot(deps, c.get('accountId'), async () => {
        const file = await uploadedFile(c, RECEIPT_MESSAGES);
        if (file.size === 0) throw new Invalid(RECEIPT_MESSAGES.missing);
        return saveReceipt(deps, c.get('accountId'), c.req.param('id'), new Uint8Array(await file.arrayBuffer()));
      });
      // A cost already a bill in Xero gets the new file attached there (the outbox's xero-bill reaction).
      await queueReceiptForXero(deps.store.db, c.get('accountId'), c.req.param('id'), sha256, deps.clock.now());
      return c.json(kept);
    },
  );

  r.get('/:id/receipt', describe({ tag: 'Costs', summary: "The cost's receipt as kept", response: { status: 200, contentType: 'image/jpeg', description: 'The photo (JPEG) or PDF, served with nosniff and a sandboxing Content-Security-Policy' }, errors: [404] }), async (c) => {
    const receipt = await loadReceipt(deps, c.get('accountId'), c.req.param('id'));
    return c.body(new Uint8Array(receipt.bytes), 200, {
      'Content-Type': receipt.contentType, 'Content-Length': String(receipt.bytes.length), 'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox", 'Content-Disposition': `inline; filename="receipt.${receipt.contentType === 'application/pdf' ? 'pdf' : 'jpg'}"`,
      'Cache-Control': 'private, no-store',
    });
  });

  r.delete('/:id/receipt', describe({ tag: 'Costs', summary: "Remove the cost's receipt", response: { status: 204, description: 'Removed' }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    await requireCost(deps.store.db, c.get('accountId'), id);
    await removeReceipt(deps, c.get('accountId'), id);
    return c.body(null, 204);
  });

  return r;
}


export function hoursRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/', describe({ tag: 'Costs', summary: 'Hours worked, newest first (by job and date)', query: costListQuery, response: { status: 200, schema: hoursList } }), async (c) => {
    const q = parseQuery(c, costListQuery);
    const hours = await listHours(deps.store.db, c.get('accountId'), { jobId: q.job_id, from: q.from, to: q.to }, COST_LIST_MAX);
    return c.json({ hours });
  });

  r.post('/', describe({ tag: 'Costs', summary: 'Record hours worked', body: hoursInput, idempotent: true, response: { status: 201, schema: hoursRecord }, errors: [422] }), async (c) => {
    const input = await parseBody(c, hoursInput);
    const answer = await recordHours(deps, actorOf(c), input, idempotencyKey(c));
    if (answer.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(answer.body, answer.status as 201);
  });

  r.get('/:id', describe({ tag: 'Costs', summary: 'One hours entry', response: { status: 200, schema: hoursRecord }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    const found = plausibleId(id) ? await findHours(deps.store.db, c.get('accountId'), id) : null;
    if (!found) throw hoursNotFound();
    return c.json(found);
  });

  r.put('/:id', describe({ tag: 'Costs', summary: 'Replace an hours entry (send the version you edited)', body: hoursUpdateInput, response: { status: 200, schema: hoursRecord }, errors: [404, 409, 422] }), async (c) => {
    const input = await parseBody(c, hoursUpdateInput);
    return c.json(await changeHours(deps, actorOf(c), c.req.param('id'), input));
  });

  r.delete('/:id', describe({ tag: 'Costs', summary: 'Delete an hours entry', response: { status: 204, description: 'Deleted' }, errors: [404] }), async (c) => {
    await removeHours(deps, actorOf(c), c.req.param('id'));
    return c.body(null, 204);
  });

  return r;
}

/**
 * Reads of /jobs per account: the list and a job's profit each work a job's costs out from its
 * entries, so a flood from one account (a stuck screen, a script) is refused before it costs that.
 * A tradie paging through jobs asks a few times a minute.
 */
export const JOB_READS: Limit = { name: 'jobs:account', max: 120, windowSeconds: 60 };
export const JOB_READS_MESSAGE = 'Too many requests for your jobs in a minute. Please wait a moment and try again.';

/** /jobs: a job (an accepted quote) and what it really cost. */
export function jobRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));
  r.use('*', async (c, next) => {
    await enforce(deps.store.db, JOB_READS, c.get('accountId'), deps.clock.now(), JOB_READS_MESSAGE);
    await next();
  });
  // The list works out every job's profit: kept until the account (or its settings) changes, so
  // asking again, from the screen or a flood of requests, costs one version read.
  const memo = createReportMemo(versionWithSettings(deps.store), 128);

  r.get('/', describe({ tag: 'Costs', summary: 'The jobs (accepted quotes, newest 200) with their profit so far and overrun, newest, most profit or most over first', query: jobListQuery, response: { status: 200, schema: jobList }, errors: [429] }), async (c) => {
    const q = parseQuery(c, jobListQuery);
    const accountId = c.get('accountId');
    return c.json(await memo.get(accountId, `jobs ${q.sort} ${q.over}`, () => jobListOf(deps.store, accountId, q.sort, q.over)));
  });

  r.get('/:quoteId/profit', describe({ tag: 'Costs', summary: "A job's real profit so far: quoted, actual costs by category, invoiced net of credits, overrun warnings", query: jobProfitQuery, response: { status: 200, schema: jobProfitRecord }, errors: [404, 429] }), async (c) => {
    const q = parseQuery(c, jobProfitQuery);
    return c.json(await jobProfitOf(deps.store, c.get('accountId'), c.req.param('quoteId'), q.over));
  });

  return r;
}

/** /recurring-costs: repeating expenses (costs/recurring.ts), each recording its costs by itself. */
export function recurringRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/', describe({ tag: 'Costs', summary: 'Repeating expenses: those still going first, by their next date', response: { status: 200, schema: recurringList } }), async (c) => {
    return c.json({ recurring: await listRecurring(deps.store.db, c.get('accountId')) });
  });

  r.post('/', describe({ tag: 'Costs', summary: 'Set up a repeating expense; what is already due from its first date is recorded at once', body: recurringInput, idempotent: true, response: { status: 201, schema: recurringRecord }, errors: [409, 422] }), async (c) => {
    const input = await parseBody(c, recurringInput);
    const answer = await setUpRecurring(deps, actorOf(c), input, await isRegistered(deps, c.get('accountId')), idempotencyKey(c));
    if (answer.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(answer.body, answer.status as 201);
  });

  r.get('/:id', describe({ tag: 'Costs', summary: 'One repeating expense', response: { status: 200, schema: recurringRecord }, errors: [404] }), async (c) => {
    const id = c.req.param('id');
    const found = plausibleId(id) ? await findRecurring(deps.store.db, c.get('accountId'), id) : null;
    if (!found) throw recurringNotFound();
    return c.json(found);
  });

  r.post('/:id/stop', describe({ tag: 'Costs', summary: 'Stop a repeating expense: no more are recorded; those recorded stay', response: { status: 200, schema: recurringRecord }, errors: [404] }), async (c) => {
    return c.json(await stopRecurring(deps, actorOf(c), c.req.param('id')));
  });

  return r;
}
