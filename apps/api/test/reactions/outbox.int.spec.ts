// The outbox of reactions (apps/api/src/reactions): a row per (reaction, event) written in the
// event's own transaction, run after the commit at least once, retried with backoff on the test
// clock, never run twice at once; and, through the app, the Xero push declared as a reaction.
import { ConcurrencyError } from '@tradie/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OUTBOX_MAX_ATTEMPTS, OUTBOX_SWEEP_GRACE_MS, outboxFailures, outboxProcessor, retryDelayMs, scheduleOutbox,
} from '../../src/reactions/outbox.ts';
import { type OutboxRow, REACTIONS } from '../../src/reactions/registry.ts';
import { connectXero, setGstNumber, signUp, startXeroApp, type XeroTestApp } from '../integrations/xero/support.ts';
import { appendNotes, type Harness, newAccount, openHarness, outboxRows, recorder } from './support.ts';

const noted = recorder('noted', ['NoteTaken', 'NoteAmended']);
const alsoNoted = recorder('also-noted', ['NoteTaken']);
let flaky = 0;
const failing = recorder('flaky', ['NoteFlaked'], () => flaky-- > 0);
const broken = recorder('broken', ['NoteBroken'], () => true);
// Two reactions that bring one outside copy of a stream up to date, whatever the event: coalesced.
let copyDown = false;
const copied = recorder('copied', ['NoteCopied', 'NoteRecopied'], () => copyDown);
const alsoCopied = recorder('also-copied', ['NoteClosed'], () => copyDown);
const copies = [{ ...copied.reaction, coalesce: 'copy' }, { ...alsoCopied.reaction, coalesce: 'copy' }];

let h: Harness;
beforeAll(async () => {
  h = await openHarness([noted.reaction, alsoNoted.reaction, failing.reaction, broken.reaction, ...copies]);
});
afterAll(() => h?.close());

const processor = () => outboxProcessor(h.deps, [noted.reaction, alsoNoted.reaction, failing.reaction, broken.reaction, ...copies]);
const seenFor = (seen: OutboxRow[], accountId: string): OutboxRow[] => seen.filter((r) => r.accountId === accountId);

describe('writing', () => {
  it('an event a reaction follows gets its row in the same transaction; an event nothing follows gets none', async () => {
    const account = newAccount();
    const { streamId, eventIds } = await appendNotes(h, account, ['NoteTaken', 'NoteIgnored']);
    const rows = await outboxRows(h, account);
    expect(rows.map((r) => [r.reaction, r.event_type, r.event_id, r.stream_id])).toEqual([
      ['noted', 'NoteTaken', eventIds[0], streamId],
      ['also-noted', 'NoteTaken', eventIds[0], streamId],
    ]);
    expect(rows[0]).toMatchObject({ payload: { n: 0 }, attempts: 0, done_at: null, next_attempt_at: h.clock.now().toISOString() });
  });

  it('a transaction that fails after its append, or an append refused for its version, writes no row', async () => {
    const account = newAccount();
    const meta = { accountId: account, at: h.clock.now().toISOString() };
    await expect(
      h.store.transaction(async (tx) => {
        await tx.append('note-rolled-back', 0, [{ type: 'NoteTaken', version: 1, data: {}, meta }]);
        throw new Error('the command failed after appending');
      }),
    ).rejects.toThrow('the command failed after appending');
    const { streamId } = await appendNotes(h, account, ['NoteIgnored']);
    await expect(h.store.append(streamId, 0, [{ type: 'NoteTaken', version: 1, data: {}, meta }])).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await outboxRows(h, account)).toEqual([]);
    expect((await h.store.readAccount(account)).map((e) => e.type)).toEqual(['NoteIgnored']);
  });
});

describe('running', () => {
  it('a reaction registered for an event type runs once per event, and not again', async () => {
    const account = newAccount();
    const { eventIds } = await appendNotes(h, account, ['NoteTaken', 'NoteAmended', 'NoteTaken', 'NoteIgnored']);
    const r = await processor().runDue({ accountId: account });
    expect(r).toEqual({ done: 5, failed: 0 });
    expect(seenFor(noted.seen, account).map((x) => x.eventId)).toEqual([eventIds[0], eventIds[1], eventIds[2]]);
    expect(seenFor(alsoNoted.seen, account).map((x) => x.eventId)).toEqual([eventIds[0], eventIds[2]]);
    expect(await processor().runDue({ accountId: account })).toEqual({ done: 0, failed: 0 });
    expect(seenFor(noted.seen, account)).toHaveLength(3);
    expect((await outboxRows(h, account)).every((x) => x.done_at === h.clock.now().toISOString())).toBe(true);
  });

  it('rows of one stream whose reactions share a coalesce key run the handler once, with the latest row, and are done or failed together', async () => {
    const account = newAccount();
    const one = await appendNotes(h, account, ['NoteCopied', 'NoteRecopied', 'NoteClosed', 'NoteTaken']);
    const two = await appendNotes(h, account, ['NoteCopied']);
    // Six rows: three copy rows and NoteTaken's two of stream one, one copy row of stream two.
    expect(await processor().runDue({ accountId: account })).toEqual({ done: 6, failed: 0 });
    const runs = [...seenFor(copied.seen, account), ...seenFor(alsoCopied.seen, account)].map((r) => [r.streamId, r.eventId]);
    // Stream one: once, with its latest copy row (the NoteClosed); stream two: once. Other reactions as ever.
    expect(runs.sort()).toEqual([[one.streamId, one.eventIds[2]], [two.streamId, two.eventIds[0]]].sort());
    expect(seenFor(noted.seen, account).map((r) => r.eventId)).toEqual([one.eventIds[3]]);
    expect((await outboxRows(h, account)).every((r) => r.done_at !== null)).toBe(true);

    // Failing: every row of the run fails, each retried on its own clock.
    const three = await appendNotes(h, account, ['NoteCopied', 'NoteClosed']);
    copyDown = true;
    try {
      expect(await processor().runDue({ accountId: account, streamId: three.streamId })).toEqual({ done: 0, failed: 2 });
    } finally {
      copyDown = false;
    }
    const rows = (await outboxRows(h, account)).filter((r) => r.stream_id === three.streamId);
    expect(rows.map((r) => [r.attempts, r.done_at, r.next_attempt_at])).toEqual([
      [1, null, new Date(h.clock.now().getTime() + retryDelayMs(1)).toISOString()],
      [1, null, new Date(h.clock.now().getTime() + retryDelayMs(1)).toISOString()],
    ]);
    expect(seenFor(alsoCopied.seen, account).filter((r) => r.streamId === three.streamId)).toHaveLength(1);
    expect(seenFor(copied.seen, account).filter((r) => r.streamId === three.streamId)).toHaveLength(0);
  });

  it('only the stream asked for is run (what a request settles after its commit)', async () => {
    const account = newAccount();
    const a = await appendNotes(h, account, ['NoteTaken']);
    const b = await appendNotes(h, account, ['NoteTaken']);
    await processor().runDue({ accountId: account, streamId: a.streamId });
    expect(seenFor(noted.seen, account).map((x) => x.streamId)).toEqual([a.streamId]);
    await processor().runDue({ accountId: account, streamId: b.streamId });
    expect(seenFor(noted.seen, account).map((x) => x.streamId)).toEqual([a.streamId, b.streamId]);
  });

  it('a handler that fails is retried after 30 s, then 60 s, … and its row is done once it succeeds', async () => {
    const account = newAccount();
    flaky = 2;
    await appendNotes(h, account, ['NoteFlaked']);
    const run = () => processor().runDue({ accountId: account });
    expect(await run()).toEqual({ done: 0, failed: 1 });
    let [row] = await outboxRows(h, account);
    expect(row).toMatchObject({ attempts: 1, done_at: null, last_error: 'flaky failed on call 1', next_attempt_at: new Date(h.clock.now().getTime() + 30_000).toISOString() });
    expect(await outboxFailures(h.store.db, account)).toMatchObject([{ reaction: 'flaky', event_type: 'NoteFlaked', attempts: 1, last_error: 'flaky failed on call 1' }]);
    expect(h.logs.some((l) => l.message === 'a reaction failed and will be retried' && l.extra?.accountId === account)).toBe(true);

    // Not before it is due.
    h.clock.advance(29_999);
    expect(await run()).toEqual({ done: 0, failed: 0 });
    h.clock.advance(1);
    expect(await run()).toEqual({ done: 0, failed: 1 });
    [row] = await outboxRows(h, account);
    expect(row).toMatchObject({ attempts: 2, next_attempt_at: new Date(h.clock.now().getTime() + 60_000).toISOString() });

    h.clock.advance(59_999);
    expect(await run()).toEqual({ done: 0, failed: 0 });
    h.clock.advance(1);
    expect(await run()).toEqual({ done: 1, failed: 0 });
    [row] = await outboxRows(h, account);
    expect(row?.done_at).toBe(h.clock.now().toISOString());
    expect(seenFor(failing.seen, account)).toHaveLength(3);
    expect(await outboxFailures(h.store.db, account)).toEqual([]);
  });

  it('the wait doubles up to an hour, and after the last attempt the row is given up and stays visible', async () => {
    expect([1, 2, 3, 7, 8, 9].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 1_920_000, 3_600_000, 3_600_000]);
    const account = newAccount();
    await appendNotes(h, account, ['NoteBroken']);
    for (let attempt = 1; attempt <= OUTBOX_MAX_ATTEMPTS; attempt++) {
      expect(await processor().runDue({ accountId: account })).toEqual({ done: 0, failed: 1 });
      if (attempt < OUTBOX_MAX_ATTEMPTS) h.clock.advance(retryDelayMs(attempt));
    }
    const [row] = await outboxRows(h, account);
    expect(row).toMatchObject({ attempts: OUTBOX_MAX_ATTEMPTS, next_attempt_at: null, done_at: null, last_error: `broken failed on call ${broken.seen.length}` });
    expect(await outboxFailures(h.store.db, account)).toMatchObject([{ reaction: 'broken', attempts: OUTBOX_MAX_ATTEMPTS, next_attempt_at: null }]);
    expect(h.logs.some((l) => l.message === 'a reaction failed and was given up' && l.extra?.accountId === account)).toBe(true);
    h.clock.advance(7 * 86_400_000);
    expect(await processor().runDue({ accountId: account })).toEqual({ done: 0, failed: 0 });
    expect(seenFor(broken.seen, account)).toHaveLength(OUTBOX_MAX_ATTEMPTS);
  });

  it('a row with no reaction of that name registered (an older or newer server wrote it) is kept for a retry', async () => {
    const account = newAccount();
    await appendNotes(h, account, ['NoteTaken']);
    const r = await outboxProcessor(h.deps, [alsoNoted.reaction]).runDue({ accountId: account });
    expect(r).toEqual({ done: 1, failed: 1 });
    expect(await outboxFailures(h.store.db, account)).toMatchObject([{ reaction: 'noted', attempts: 1, last_error: 'No reaction named noted is registered' }]);
  });

  it('two processors running together never run the same row, and run every row', async () => {
    const account = newAccount();
    for (let i = 0; i < 8; i++) await appendNotes(h, account, ['NoteAmended', 'NoteAmended', 'NoteAmended']);
    const [a, b] = await Promise.all([processor().runDue({ accountId: account }), processor().runDue({ accountId: account })]);
    expect(a.done + b.done).toBe(24);
    const ids = seenFor(noted.seen, account).map((x) => x.id);
    expect(ids).toHaveLength(24);
    expect(new Set(ids).size).toBe(24);
  });

  it('the sweep leaves a new row to its request for a moment, then runs it; stopping waits for the run in progress', async () => {
    const account = newAccount();
    await appendNotes(h, account, ['NoteTaken']);
    const reactions = [noted.reaction, alsoNoted.reaction, failing.reaction, broken.reaction];
    let stop = scheduleOutbox(h.deps, reactions, 3_600_000);
    await stop();
    expect(seenFor(noted.seen, account)).toHaveLength(0);
    h.clock.advance(OUTBOX_SWEEP_GRACE_MS);
    stop = scheduleOutbox(h.deps, reactions, 3_600_000);
    await stop();
    expect(seenFor(noted.seen, account)).toHaveLength(1);
    expect(seenFor(alsoNoted.seen, account)).toHaveLength(1);
  });
});

describe('the Xero push as a reaction', () => {
  let x: XeroTestApp;
  beforeAll(async () => {
    x = await startXeroApp();
  });
  afterAll(() => x?.close());

  it('is declared for the events after which the documents feature pushed', () => {
    expect(REACTIONS.find((r) => r.name === 'xero-push')?.on).toEqual(['DocumentSent', 'PaymentRecorded', 'PaymentRemoved', 'DocumentVoided']);
  });

  it('a payment while Xero is down: the request still answers, the row waits with backoff, and the sweep pushes it later', async () => {
    const user = await signUp(x.t);
    await setGstNumber(x.t, user);
    await connectXero(x, user);
    const client = await x.t.post('/clients', { name: 'Hemi Walker', email: 'hemi@example.nz', phone: '' }, user.token);
    const created = await x.t.post('/invoices', { type: 'invoice', client_id: client.json.id, line_items: [{ description: 'Fit new tapware', qty: 1, unit_price: 100, tax_included: false, tax_rate: 0.15 }] }, user.token);
    const id: string = created.json.id;
    const synced = await x.t.post(`/integrations/xero/sync/${id}`, undefined, user.token);
    expect(synced.status).toBe(200);
    const payments = () => x.fake.state.payments.filter((p) => p.InvoiceID === synced.json.xero_invoice_id);

    // Refused: no event, no row.
    expect((await x.t.post(`/invoices/${id}/payments`, { amount: 1_000 }, user.token)).status).toBe(422);
    expect(await outboxRows(x.t.deps, user.userId)).toEqual([]);

    for (let i = 0; i < 4; i++) x.fake.failNext('PUT /Payments', 503);
    const paid = await x.t.post(`/invoices/${id}/payments`, { amount: 50 }, user.token);
    expect(paid.status).toBe(201);
    expect(payments()).toHaveLength(0);
    // Other reactions follow payments too (reactions/registry.ts): this test is about the Xero push.
    const xeroRows = async () => (await outboxRows(x.t.deps, user.userId)).filter((r) => r.reaction === 'xero-push');
    let rows = await xeroRows();
    expect(rows).toMatchObject([{ reaction: 'xero-push', event_type: 'PaymentRecorded', stream_id: `document-${id}`, attempts: 1, done_at: null }]);
    expect(rows[0]?.last_error).toContain('503');
    expect(await outboxFailures(x.t.deps.store.db, user.userId)).toHaveLength(1);

    x.clock.advance(30_000);
    expect(await outboxProcessor(x.t.deps, REACTIONS).runDue()).toMatchObject({ done: 1, failed: 0 });
    expect(payments()).toHaveLength(1);
    rows = await xeroRows();
    expect(rows[0]?.done_at).not.toBeNull();
    expect(await outboxFailures(x.t.deps.store.db, user.userId)).toEqual([]);

    // The next change is pushed before its answer, as before.
    const second = await x.t.post(`/invoices/${id}/payments`, { amount: 20 }, user.token);
    expect(second.status).toBe(201);
    expect(payments()).toHaveLength(2);
    expect((await xeroRows()).map((r) => r.done_at !== null)).toEqual([true, true]);
  });

  it('an invoice not synced to Xero: the row is done at once, nothing is retried', async () => {
    const user = await signUp(x.t);
    const created = await x.t.post('/invoices', { type: 'invoice', line_items: [{ description: 'Labour', qty: 1, unit_price: 90, tax_included: false, tax_rate: 0.15 }] }, user.token);
    const voided = await x.t.post(`/invoices/${created.json.id}/void`, { reason: 'Raised in error' }, user.token);
    expect(voided.status).toBe(200);
    const xeroRows = (await outboxRows(x.t.deps, user.userId)).filter((r) => r.reaction === 'xero-push');
    expect(xeroRows).toMatchObject([{ reaction: 'xero-push', event_type: 'DocumentVoided', attempts: 0 }]);
    expect(xeroRows[0]?.done_at).not.toBeNull();
  });
});
