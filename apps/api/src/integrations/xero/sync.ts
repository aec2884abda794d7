// Syncing invoices to Xero and keeping them true there.
//
// Sync: the invoice's own stream (SyncedToAccounting) and the xero_sync row say whether it is
// already in Xero: then nothing is sent. Otherwise, holding the document's claim: find or create
// the contact, look for an invoice an earlier lost attempt created (by our Reference), else create
// it with a deterministic Idempotency-Key, and record the Xero id in xero_sync and the stream in
// one transaction. Then push what happened since (sent, payments).
//
// Push: compare the document with what xero_sync says was last pushed (status, SentToContact,
// the payments in xero_payments) and send the difference, recording each step as it succeeds,
// so a repeat sends only what is left.
//
// One document at a time: an in-process lock (a second request waits and then finds the work
// done), inside a claim row in xero_sync (another process gets 409 'busy' until the first is
// done; a claim left by a crashed process lapses after CLAIM_LEASE_MS).
import { createHash } from 'node:crypto';
import { ACCOUNTING_MESSAGES, type AccountingPushAction, type AccountingSyncResult } from '@tradie/contracts';
import { type AccountingSource, accountingDifference, accountingDifferenceText, centsToNumber, centsToString, type CreditNote, creditAllocations, type NoteThere, planCreditRefunds, type DocumentView, documentDecider, documentFigures, formatNzd, isTaxInvoice, PAYMENT_METHOD_LABELS, toCents } from '@tradie/domain';
import type { Sql, StoreTx } from '@tradie/store';
import { withXeroRowClaim } from './rowClaim.ts';
import { type Actor, decideAndAppend, eventMeta, execute } from '../../commands.ts';
import { isAccountClosed } from '../../account/liveness.ts';
import type { AppDeps } from '../../deps.ts';
import { refusalOf } from '../../http/problem.ts';
import {
  AccountingError,
  type AccountingProvider,
  contactFromClient,
  createKeyedLock,
  type InvoiceNow,
  type InvoiceRef,
  type KeyedLock,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  type ProviderConnection,
  type TokenKeeper,
  toXeroInvoice,
} from './index.ts';
import { type LoadedDocument, loadDocument, reserveReference } from '../../documents/repository.ts';
import { loadBusinessSettings } from '../../settings/repository.ts';
import { giveBackToQuote } from '../../creditNotes/giveBack.ts';
import { documentWork } from '../../documents/commands/work.ts';
import { createConnectionKeeper, markNeedsReauth, readConnection } from './connections.ts';
import { NotBefore } from '../../reactions/notBefore.ts';
import { AppError, BadRequest, Busy, Conflict, Internal, Invalid, LimitReached, NotFound, RetryLater, UpstreamFailed } from '../../errors.ts';

export { CLAIM_LEASE_MS } from './rowClaim.ts';
const BUSY_RETRY_AFTER_SECONDS = 5;

type Deps = Pick<AppDeps, 'store' | 'secrets' | 'clock' | 'ids' | 'log' | 'accounting'>;

interface XeroRuntime {
  provider: AccountingProvider;
  keeper: TokenKeeper;
  documents: KeyedLock;
}

// One runtime per app (keyed by its store): the in-process locks must be shared by every request
// of the app. Different apps (or processes) on one database rely on the database locks.
const runtimes = new WeakMap<object, XeroRuntime>();

export function xeroRuntime(deps: Deps): XeroRuntime | null {
  const provider = deps.accounting;
  if (!provider) return null;
  let r = runtimes.get(deps.store);
  if (!r || r.provider !== provider) {
    r = { provider, keeper: createConnectionKeeper({ ...deps, accounting: provider }), documents: createKeyedLock() };
    runtimes.set(deps.store, r);
  }
  return r;
}

// ---- errors ---------------------------------------------------------------------------------

/** An AccountingError as the API answers it. Marks the connection for re-authorisation where Xero refused it. */
export async function apiErrorOf(deps: Deps, accountId: string, e: unknown): Promise<unknown> {
  if (!(e instanceof AccountingError)) return e;
  deps.log('info', 'xero call failed', { kind: e.kind, status: e.status, accountId });
  switch (e.kind) {
    case 'not_connected':
      return new BadRequest(ACCOUNTING_MESSAGES.notConnected);
    case 'invalid_grant':
    case 'forbidden':
      await markNeedsReauth(deps.store.db, accountId, deps.clock.now());
      return new BadRequest(ACCOUNTING_MESSAGES.reconnect);
    case 'rate_limited': {
      const wait = Math.max(1, e.retryAfterSeconds ?? 60);
      return new LimitReached(e.detail, { retry_after_seconds: wait }, wait);
    }
    case 'validation':
    case 'mapping':
      return new Invalid(e.detail);
    case 'unavailable':
      return new RetryLater(e.detail, undefined, 30);
    case 'not_found':
      return new Conflict('Xero could not find this invoice. It may have been deleted in Xero.');
    case 'unauthorized':
      return new UpstreamFailed('Xero did not accept our sign-in. Please try again in a moment.');
    case 'oauth':
      return new UpstreamFailed(e.detail);
  }
}

async function rethrow(deps: Deps, accountId: string, e: unknown): Promise<never> {
  throw await apiErrorOf(deps, accountId, e);
}

// ---- reading ----------------------------------------------------------------------------------

/** The document through the one loader, inside `tx`; null once it is gone (a draft deleted meanwhile): what Xero answered then has nothing to go on. */
async function loadLiveDocument(tx: StoreTx, accountId: string, documentId: string): Promise<LoadedDocument | null> {
  try {
    return await loadDocument(tx, accountId, documentId);
  } catch (e) {
    if (e instanceof NotFound) return null;
    throw e;
  }
}

export interface SyncRow {
  tenant_id: string | null;
  /** Why the last push did not finish; null once one did. */
  last_push_error: string | null;
  xero_invoice_id: string | null;
  xero_invoice_number: string | null;
  xero_status: string | null;
  pushed_status: string | null;
  pushed_sent: boolean;
}

export async function readSyncRow(sql: Sql, accountId: string, documentId: string): Promise<SyncRow | null> {
  const [row] = await sql.query<SyncRow>(
    'SELECT tenant_id, last_push_error, xero_invoice_id, xero_invoice_number, xero_status, pushed_status, pushed_sent FROM xero_sync WHERE account_id = $1 AND document_id = $2',
    [accountId, documentId],
  );
  return row ?? null;
}

/** The Xero contact the synced invoice was sent to; Conflict (saying what cannot be sent) when none is recorded. */
async function requireContactId(sql: Sql, accountId: string, documentId: string, what: string): Promise<string> {
  const [row] = await sql.query<{ xero_contact_id: string | null }>('SELECT xero_contact_id FROM xero_sync WHERE account_id = $1 AND document_id = $2', [accountId, documentId]);
  if (!row?.xero_contact_id) throw new Conflict(`This invoice has no Xero contact recorded, so ${what} cannot be sent. Sync it again.`);
  return row.xero_contact_id;
}

/** An Idempotency-Key that is the same on every retry of one attempt, within Xero's 128 characters. */
function xeroKey(parts: string[]): string {
  const plain = parts.join('-');
  if (plain.length <= MAX_IDEMPOTENCY_KEY_LENGTH) return plain;
  return `${parts[0]}-${createHash('sha256').update(parts.join('\n')).digest('base64url')}`;
}

// ---- one document at a time -------------------------------------------------------------------

async function withDocumentClaim<T>(deps: Deps, runtime: XeroRuntime, accountId: string, documentId: string, fn: () => Promise<T>): Promise<T> {
  // In this process a second request waits for the first; across processes the row's claim says busy.
  return runtime.documents.run(`${accountId}:${documentId}`, () =>
    withXeroRowClaim(deps, { table: 'xero_sync', column: 'document_id', accountId, id: documentId, busy: ACCOUNTING_MESSAGES.busy }, fn),
  );
}

// ---- sync ---------------------------------------------------------------------------------------

const alreadySynced = (number: string, id: string): AccountingSyncResult => ({ already_synced: true, xero_invoice_number: number, xero_invoice_id: id });

function syncedIn(view: DocumentView, row: SyncRow | null): AccountingSyncResult | null {
  if (view.sync) return alreadySynced(view.sync.externalNumber, view.sync.externalId);
  if (row?.xero_invoice_id) return alreadySynced(row.xero_invoice_number ?? '', row.xero_invoice_id);
  return null;
}

/** Connected and usable, or the 400 the screens show. */
async function requireConnection(deps: Deps, accountId: string): Promise<{ tenantId: string }> {
  const conn = await readConnection(deps.store.db, accountId);
  if (!conn) throw new BadRequest(ACCOUNTING_MESSAGES.notConnected);
  if (conn.needs_reauth) throw new BadRequest(ACCOUNTING_MESSAGES.reconnect);
  return { tenantId: conn.tenant_id };
}

/** POST /integrations/xero/sync/{id}. */
export async function syncInvoice(deps: Deps, actor: Actor, documentId: string): Promise<AccountingSyncResult> {
  const { accountId } = actor;
  const first = await loadDocument(deps.store, accountId, documentId);
  if (first.state.type !== 'invoice') throw new Conflict(ACCOUNTING_MESSAGES.onlyInvoices);
  const done = syncedIn(first.state, await readSyncRow(deps.store.db, accountId, documentId));
  if (done) return done;
  const runtime = xeroRuntime(deps);
  if (!runtime) throw new BadRequest(ACCOUNTING_MESSAGES.notConfigured);
  await requireConnection(deps, accountId);

  return withDocumentClaim(deps, runtime, accountId, documentId, async () => {
    // Under the claim: whoever held it before may have synced it meanwhile.
    const { state: view, version } = await loadDocument(deps.store, accountId, documentId);
    const doneMeanwhile = syncedIn(view, await readSyncRow(deps.store.db, accountId, documentId));
    if (doneMeanwhile) return doneMeanwhile;
    if (view.status === 'void') throw new Conflict(ACCOUNTING_MESSAGES.voidInvoice);
    const contact = view.client ? contactFromClient(view.client) : null;
    if (!contact || contact.name === '') throw new Invalid('Add a client with a name to this invoice before syncing it to Xero.');
    const settings = await loadBusinessSettings(deps.store.db, accountId);
    // The registration the invoice was issued under (tax codes in Xero), never what the settings say later.
    const gstRegistered = isTaxInvoice(view, settings.gst_number);
    try {
      // What Xero can't hold is refused before anything is sent (no contact is created for it).
      toXeroInvoice(view, 'unchecked', { gstRegistered });
    } catch (e) {
      await rethrow(deps, accountId, e);
    }

    let created: { ref: InvoiceRef; adopted: boolean; tenantId: string; contactId: string };
    try {
      created = await runtime.keeper.withConnection(accountId, async (conn: ProviderConnection) => {
        const { contactId } = await runtime.provider.findOrCreateContact(conn, contact);
        // Beyond Xero's six-minute Idempotency-Key window: an invoice an earlier attempt made.
        const lost = await runtime.provider.findInvoiceByReference(conn, view.reference);
        if (lost) return { ref: lost, adopted: true, tenantId: conn.tenantId, contactId };
        const ref = await runtime.provider.createInvoice(conn, { document: view, contactId, gstRegistered }, xeroKey(['sync', accountId, documentId, String(version)]));
        return { ref, adopted: false, tenantId: conn.tenantId, contactId };
      });
    } catch (e) {
      return rethrow(deps, accountId, e);
    }
    const { ref } = created;
    // SentToContact went with an invoice created now (toXeroInvoice); for an adopted one the push sets it.
    const sentWith = !created.adopted && view.sends.length > 0;
    await execute(deps, async (tx) => {
      const loaded = await loadLiveDocument(tx, accountId, documentId);
      if (loaded && !loaded.state.sync) {
        await decideAndAppend(tx, loaded, documentDecider, { type: 'RecordAccountingSync', data: { provider: 'xero', externalId: ref.invoiceId, externalNumber: ref.invoiceNumber } }, eventMeta(deps, actor));
      }
      await recordXeroTotals(deps, tx, actor, documentId, ref.totals);
      await tx.query(
        `UPDATE xero_sync SET tenant_id = $3, xero_invoice_id = $4, xero_invoice_number = $5, xero_contact_id = $6, xero_status = $7, pushed_status = $8, pushed_sent = $9, synced_at = $10
         WHERE account_id = $1 AND document_id = $2`,
        [accountId, documentId, created.tenantId, ref.invoiceId, ref.invoiceNumber, created.contactId, ref.status, ref.status === 'VOIDED' ? 'VOIDED' : 'AUTHORISED', sentWith, deps.clock.now().toISOString()],
      );
    });
    const result: AccountingSyncResult = { already_synced: false, xero_invoice_number: ref.invoiceNumber, xero_invoice_id: ref.invoiceId };
    // Payments already recorded, a send the adopted invoice missed: pushed now, still under the claim.
    try {
      await pushLocked(deps, runtime, accountId, documentId);
    } catch (e) {
      const err = await apiErrorOf(deps, accountId, e);
      const detail = refusalOf(err)?.detail ?? 'Something went wrong on our side.';
      await recordSyncError(deps, accountId, documentId, 'push', detail);
      result.warning = `Synced to Xero, but its payments or status could not be updated yet: ${detail}`;
    }
    return result;
  });
}

// ---- Xero's totals ----------------------------------------------------------------------------

/** Who records what Xero answered when no person asked (a push after a payment, say). */
const integrationActor = (accountId: string): Actor => ({ accountId, userId: 'integration:xero' });

/**
 * Keeps the totals Xero answered with on the invoice (an AccountingTotalsReported event, only when
 * they changed), inside `tx`. A difference from ours is shown on the invoice's detail screen
 * ('Xero shows $X — this invoice is $Y') and logged; it is never accepted silently.
 */
async function recordXeroTotals(deps: Deps, tx: StoreTx, actor: Actor, documentId: string, totals: InvoiceRef['totals']): Promise<void> {
  if (!totals) return;
  const { accountId } = actor;
  const loaded = await loadLiveDocument(tx, accountId, documentId);
  if (loaded?.state.sync?.provider !== 'xero') return;
  const { state } = await decideAndAppend(tx, loaded, documentDecider, { type: 'RecordAccountingTotals', data: { provider: 'xero', ...totals } }, eventMeta(deps, actor));
  if (state.status === 'none' || state.status === 'deleted') return;
  const diff = accountingDifference(state);
  if (diff) deps.log('error', 'Xero totals differ from the invoice', { accountId: actor.accountId, documentId, difference: accountingDifferenceText('xero', diff) });
}

// ---- push ---------------------------------------------------------------------------------------

/** An invoice's credit note as Xero has it: its id there and how much of it was allocated to the invoice. */
interface XeroNote {
  note: CreditNote;
  xeroId: string;
  allocatedCents: bigint;
}

/** A credit note as creditAllocations takes it, from its xero_credit_notes row (none while it is not sent). */
function noteThere(creditNoteId: string, totalCents: bigint, rec: { allocated: boolean; allocated_cents: string | number } | undefined): NoteThere {
  return { creditNoteId, totalCents, allocatedCents: rec?.allocated ? BigInt(rec.allocated_cents) : null };
}

/** Keeps why the push failed and when (null once a push got through), for the invoice and the home screen to show. */
/** Why the last push (or read back) of a synced invoice failed, kept on its row; null clears it. */
async function recordSyncError(deps: Pick<Deps, 'store' | 'clock'>, accountId: string, documentId: string, way: 'push' | 'pull', detail: string | null): Promise<void> {
  const [error, at] = way === 'push' ? ['last_push_error', 'last_push_error_at'] : ['last_pull_error', 'last_pull_error_at'];
  await deps.store.db.query(`UPDATE xero_sync SET ${error} = $3, ${at} = $4 WHERE account_id = $1 AND document_id = $2 AND xero_invoice_id IS NOT NULL`, [
    accountId,
    documentId,
    detail,
    detail === null ? null : deps.clock.now().toISOString(),
  ]);
}

/**
 * Sends the difference between the document and what was last pushed. Runs under the document's
 * claim. Every step is recorded as soon as Xero confirms it, so a repeat (or the retry after a
 * 401) sends only what is left.
 */
async function pushLocked(deps: Deps, runtime: XeroRuntime, accountId: string, documentId: string): Promise<{ xeroInvoiceId: string; pushed: AccountingPushAction[] }> {
  const db = deps.store.db;
  const row0 = await readSyncRow(db, accountId, documentId);
  if (!row0?.xero_invoice_id) throw new Conflict(ACCOUNTING_MESSAGES.notSynced);
  const xeroInvoiceId = row0.xero_invoice_id;
  const { state: view } = await loadDocument(deps.store, accountId, documentId);
  const { tenantId } = await requireConnection(deps, accountId);
  if (row0.tenant_id !== null && row0.tenant_id !== tenantId) throw new Conflict(ACCOUNTING_MESSAGES.otherOrganisation);
  const pushed: AccountingPushAction[] = [];
  const at = () => deps.clock.now().toISOString();

  await runtime.keeper.withConnection(accountId, async (conn) => {
    const row = (await readSyncRow(db, accountId, documentId)) ?? row0;
    const sentPayments = await db.query<{ payment_id: string; xero_payment_id: string }>('SELECT payment_id, xero_payment_id FROM xero_payments WHERE account_id = $1 AND document_id = $2', [accountId, documentId]);
    const ours = new Set(view.payments.map((p) => p.paymentId));
    let xeroStatus = row.xero_status;
    const setStatus = async (status: string | null) => {
      if (status === null) return;
      xeroStatus = status;
      await db.query('UPDATE xero_sync SET xero_status = $3, pushed_at = $4 WHERE account_id = $1 AND document_id = $2', [accountId, documentId, status, at()]);
    };

    // Voided in Xero: nothing can change there any more.
    if (row.pushed_status === 'VOIDED') return;

    // Payments removed here come off in Xero first: a void needs an invoice with none applied.
    for (const p of sentPayments.filter((x) => !ours.has(x.payment_id))) {
      const ref = await runtime.provider.deletePayment(conn, p.xero_payment_id);
      await db.query('DELETE FROM xero_payments WHERE account_id = $1 AND document_id = $2 AND payment_id = $3', [accountId, documentId, p.payment_id]);
      await setStatus(ref.invoiceStatus);
      pushed.push({ type: 'payment_removed', payment_id: p.payment_id, xero_payment_id: p.xero_payment_id });
    }

    if (view.status === 'void') {
      const ref = await runtime.provider.updateInvoiceStatus(conn, xeroInvoiceId, 'VOIDED');
      await db.query('UPDATE xero_sync SET pushed_status = $3, xero_status = $4, pushed_at = $5 WHERE account_id = $1 AND document_id = $2', [accountId, documentId, 'VOIDED', ref.status, at()]);
      await execute(deps, (tx) => recordXeroTotals(deps, tx, integrationActor(accountId), documentId, ref.totals));
      pushed.push({ type: 'voided' });
      return;
    }

    // Xero chases only invoices marked as sent; a paid one can no longer be edited (nor needs chasing).
    if (view.sends.length > 0 && !row.pushed_sent && xeroStatus !== 'PAID') {
      const ref = await runtime.provider.updateInvoiceStatus(conn, xeroInvoiceId, 'AUTHORISED', true);
      await db.query('UPDATE xero_sync SET pushed_sent = true, xero_status = $3, pushed_at = $4 WHERE account_id = $1 AND document_id = $2', [accountId, documentId, ref.status, at()]);
      await execute(deps, (tx) => recordXeroTotals(deps, tx, integrationActor(accountId), documentId, ref.totals));
      pushed.push({ type: 'sent' });
    }

    const already = new Set(sentPayments.map((p) => p.payment_id));
    // A payment that came from Xero is Xero's already: never sent back (no echo).
    for (const p of view.payments.filter((x) => !already.has(x.paymentId) && !x.source)) {
      const ref = await runtime.provider.createPayment(
        conn,
        { invoiceId: xeroInvoiceId, amount: p.amount, date: p.date, reference: p.reference.trim() || PAYMENT_METHOD_LABELS[p.method] },
        xeroKey(['pay', accountId, documentId, p.paymentId]),
      );
      await db.query('INSERT INTO xero_payments (account_id, document_id, payment_id, xero_payment_id, pushed_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [accountId, documentId, p.paymentId, ref.paymentId, at()]);
      await setStatus(ref.invoiceStatus);
      pushed.push({ type: 'payment', payment_id: p.paymentId, xero_payment_id: ref.paymentId });
    }

    // Credit notes, in the order they were issued: each sent once as a Xero credit note, then as
    // much of it as the invoice still owes in Xero allocated to it; the rest, money owed back, stays
    // as credit there, and what is paid back of it here is sent as a refund of that credit. The
    // figures are the domain's (creditAllocations, planCreditRefunds), worked out before any call.
    if (view.creditNotes.length > 0) {
      const sentNotes = await db.query<{ credit_note_id: string; xero_credit_note_id: string; allocated: boolean; allocated_cents: string | number }>(
        'SELECT credit_note_id, xero_credit_note_id, allocated, allocated_cents::text AS allocated_cents FROM xero_credit_notes WHERE account_id = $1 AND document_id = $2',
        [accountId, documentId],
      );
      const contactId = await requireContactId(db, accountId, documentId, 'its credit notes');
      const gstRegistered = isTaxInvoice(view, (await loadBusinessSettings(db, accountId)).gst_number);
      // What Xero holds as paid: every payment recorded here was pushed above (card refunds are not pushed).
      const paidInXero = view.payments.reduce((a, p) => a + toCents(p.amount), 0n);
      const allocations = creditAllocations(
        documentFigures(view).totalCents,
        paidInXero,
        [
          ...sentNotes.filter((x) => !view.creditNotes.some((n) => n.creditNoteId === x.credit_note_id)).map((x) => noteThere(x.credit_note_id, 0n, x)),
          ...view.creditNotes.map((n) => noteThere(n.creditNoteId, toCents(n.total), sentNotes.find((x) => x.credit_note_id === n.creditNoteId))),
        ],
      );
      const xeroNotes: XeroNote[] = [];
      for (const n of view.creditNotes) {
        let rec = sentNotes.find((x) => x.credit_note_id === n.creditNoteId);
        if (!rec) {
          const ref = await runtime.provider.createCreditNote(conn, { creditNote: n, contactId, gstRegistered }, xeroKey(['cn', accountId, documentId, n.creditNoteId]));
          await db.query(
            'INSERT INTO xero_credit_notes (account_id, document_id, credit_note_id, xero_credit_note_id, pushed_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
            [accountId, documentId, n.creditNoteId, ref.creditNoteId, at()],
          );
          rec = { credit_note_id: n.creditNoteId, xero_credit_note_id: ref.creditNoteId, allocated: false, allocated_cents: '0' };
        }
        const allocation = allocations.find((a) => a.creditNoteId === n.creditNoteId);
        if (!rec.allocated && allocation) {
          const amount = allocation.cents;
          if (amount > 0n) {
            await runtime.provider.allocateCreditNote(conn, { creditNoteId: rec.xero_credit_note_id, invoiceId: xeroInvoiceId, amount: centsToString(amount), date: n.date }, xeroKey(['alloc', accountId, documentId, n.creditNoteId]));
          }
          await db.query('UPDATE xero_credit_notes SET allocated = true, allocated_cents = $4, pushed_at = $5 WHERE account_id = $1 AND document_id = $2 AND credit_note_id = $3', [accountId, documentId, n.creditNoteId, amount.toString(), at()]);
          rec = { ...rec, allocated: true, allocated_cents: amount.toString() };
          if (allocation.settles) await setStatus('PAID');
          pushed.push({ type: 'credit_note', credit_note_id: n.creditNoteId, xero_credit_note_id: rec.xero_credit_note_id, allocated: centsToNumber(amount) });
        }
        xeroNotes.push({ note: n, xeroId: rec.xero_credit_note_id, allocatedCents: BigInt(rec.allocated_cents) });
      }
      await pushCreditNoteRefunds(xeroNotes);
    }

    /**
     * The refunds recorded against the invoice's credit notes that Xero does not have yet, each
     * sent as cash refunds of credit in the parts planCreditRefunds says. A refund that the credit
     * left in Xero cannot cover is refused, in words, before any of it is sent.
     */
    async function pushCreditNoteRefunds(notes: readonly XeroNote[]): Promise<void> {
      if (notes.every((x) => x.note.refunds.length === 0)) return;
      const sent = await db.query<{ refund_id: string; credit_note_id: string; amount_cents: string }>(
        'SELECT refund_id, credit_note_id, amount_cents::text AS amount_cents FROM xero_credit_note_refunds WHERE account_id = $1 AND document_id = $2',
        [accountId, documentId],
      );
      const plan = planCreditRefunds(
        notes.map((x) => ({ creditNoteId: x.note.creditNoteId, totalCents: toCents(x.note.total), allocatedCents: x.allocatedCents, refunds: x.note.refunds.map((r) => ({ refundId: r.refundId, cents: toCents(r.amount) })) })),
        sent.map((x) => ({ refundId: x.refund_id, creditNoteId: x.credit_note_id, cents: BigInt(x.amount_cents) })),
      );
      for (const part of plan.parts) {
        const from = notes.find((x) => x.note.creditNoteId === part.creditNoteId);
        const r = notes.find((x) => x.note.creditNoteId === part.ownCreditNoteId)?.note.refunds.find((x) => x.refundId === part.refundId);
        if (!from || !r) throw new Error('a refund part names a credit note or refund the invoice does not have');
        const ref = await runtime.provider.refundCreditNote(
          conn,
          { creditNoteId: from.xeroId, amount: centsToString(part.cents), date: r.date, reference: r.reference.trim() || PAYMENT_METHOD_LABELS[r.method] },
          xeroKey(['cnrefund', accountId, documentId, r.refundId, part.creditNoteId]),
        );
        await db.query(
          'INSERT INTO xero_credit_note_refunds (account_id, document_id, refund_id, credit_note_id, amount_cents, xero_payment_id, pushed_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING',
          [accountId, documentId, r.refundId, part.creditNoteId, part.cents.toString(), ref.paymentId, at()],
        );
        pushed.push({ type: 'credit_note_refund', credit_note_id: part.creditNoteId, refund_id: r.refundId, xero_payment_id: ref.paymentId, amount: centsToNumber(part.cents) });
      }
      if (plan.shortfall) {
        const own = notes.find((x) => x.note.creditNoteId === plan.shortfall?.creditNoteId)?.note.reference ?? 'its credit note';
        throw new Invalid(`Xero has ${formatNzd(plan.shortfall.availableCents)} of credit left on this invoice's credit notes, so the refund of ${formatNzd(plan.shortfall.owingCents)} on ${own} can't be sent there. Record it in Xero by hand.`);
      }
    }
  });
  await recordSyncError(deps, accountId, documentId, 'push', null);
  return { xeroInvoiceId, pushed };
}

// ---- pull -------------------------------------------------------------------------------------

export interface PullResult {
  /** Payments made in Xero now recorded here (our payment ids). */
  recorded: string[];
  /** Payments from Xero removed here because they were deleted there. */
  removed: string[];
  /** Credit notes raised and allocated in Xero now recorded here (our credit note ids). */
  credited: string[];
  /** Xero's copy was found voided or deleted now ('VOIDED', 'DELETED'), else null. */
  voidedThere: 'VOIDED' | 'DELETED' | null;
}

const nothingPulled = (): PullResult => ({ recorded: [], removed: [], credited: [], voidedThere: null });

/**
 * Brings Xero's word on a synced invoice here, under the document's claim (decision 0027, 0029):
 *
 * - each payment Xero lists on the invoice that did not go from here (a bank transfer reconciled
 *   there, a payment entered there) is recorded through RecordPayment, with its Xero id as its
 *   source; a payment that came from Xero and that Xero no longer lists (deleted there) is
 *   removed. Removals go first, so a payment re-entered there with another amount fits;
 * - each credit note applied to it in Xero that did not go from here becomes a credit note here,
 *   through IssueCreditNote like the tradie's own (the same arithmetic: a credit of its applied
 *   amount, GST inclusive), numbered on the account's CN- sequence, naming Xero's number, dated
 *   the day Xero applied it; it is recorded as already in Xero, so the push never sends it back;
 * - the invoice voided or deleted in Xero is recorded as such (AccountingVoidReported): it gets no
 *   more reminders, shows 'Voided in Xero', and nothing more is pushed to the copy there. It is not
 *   voided here: the tradie does that with one tap, or not.
 *
 * Nothing happens unless the invoice is synced, the account is connected to the organisation it
 * was synced to and the invoice isn't void here.
 */
export async function pullFromXero(deps: Deps, accountId: string, documentId: string): Promise<PullResult> {
  const runtime = xeroRuntime(deps);
  if (!runtime) throw new BadRequest(ACCOUNTING_MESSAGES.notConfigured);
  // A closed (deleted) account takes nothing more from Xero, whichever door asks (account/liveness.ts).
  if (await isAccountClosed(deps.store.db, accountId)) return nothingPulled();
  const first = await loadDocument(deps.store, accountId, documentId);
  if (first.state.type !== 'invoice') throw new Conflict(ACCOUNTING_MESSAGES.onlyInvoices);
  await requireConnection(deps, accountId);
  return withDocumentClaim(deps, runtime, accountId, documentId, async () => {
    const row = await readSyncRow(deps.store.db, accountId, documentId);
    if (!row?.xero_invoice_id) throw new Conflict(ACCOUNTING_MESSAGES.notSynced);
    const { tenantId } = await requireConnection(deps, accountId);
    if (row.tenant_id !== null && row.tenant_id !== tenantId) throw new Conflict(ACCOUNTING_MESSAGES.otherOrganisation);
    const { state: view } = await loadDocument(deps.store, accountId, documentId);
    const result = nothingPulled();
    if (view.status === 'void') return result;
    const xeroInvoiceId = row.xero_invoice_id;
    let there: InvoiceNow;
    try {
      there = await runtime.keeper.withConnection(accountId, (conn) => runtime.provider.getInvoice(conn, xeroInvoiceId));
    } catch (e) {
      return rethrow(deps, accountId, e);
    }
    // Xero's totals as it has them now: an invoice edited there shows its difference on the invoice here.
    await execute(deps, (tx) => recordXeroTotals(deps, tx, integrationActor(accountId), documentId, there.totals));
    const db = deps.store.db;
    const pushedFromHere = new Set((await db.query<{ xero_payment_id: string }>('SELECT xero_payment_id FROM xero_payments WHERE account_id = $1 AND document_id = $2', [accountId, documentId])).map((r) => r.xero_payment_id));
    const listed = new Set(there.payments.map((p) => p.paymentId));
    const xeroIdOf = (p: { source?: AccountingSource | undefined }): string | null => (p.source?.provider === 'xero' ? p.source.externalId : null);
    const gone = view.payments.filter((p) => xeroIdOf(p) !== null && !listed.has(xeroIdOf(p) ?? ''));
    const recordedThere = new Set(view.payments.map(xeroIdOf));
    const made = there.payments.filter((p) => !pushedFromHere.has(p.paymentId) && !recordedThere.has(p.paymentId));
    const meta = eventMeta(deps, integrationActor(accountId));
    for (const p of gone) {
      if (!p.source) continue;
      const source = p.source;
      await execute(deps, async (tx) => {
        const loaded = await loadDocument(tx, accountId, documentId);
        await decideAndAppend(tx, loaded, documentDecider, { type: 'RemovePayment', data: { paymentId: p.paymentId, source } }, meta);
      });
      result.removed.push(p.paymentId);
    }
    for (const p of made) {
      // One id per Xero payment: a second process pulling the same payment is refused by the decider.
      const paymentId = `xero-${p.paymentId}`;
      await execute(deps, async (tx) => {
        const loaded = await loadDocument(tx, accountId, documentId);
        const command = { type: 'RecordPayment', data: { paymentId, amount: p.amount, date: p.date, method: 'bank_transfer', reference: p.reference, source: { provider: 'xero', externalId: p.paymentId } } } as const;
        await decideAndAppend(tx, loaded, documentDecider, command, meta);
      });
      result.recorded.push(paymentId);
    }
    result.credited = await pullCredits(deps, accountId, documentId, there);
    if (there.status === 'VOIDED' || there.status === 'DELETED') {
      const status = there.status;
      await execute(deps, async (tx) => {
        const loaded = await loadDocument(tx, accountId, documentId);
        const { events } = await decideAndAppend(tx, loaded, documentDecider, { type: 'RecordAccountingVoid', data: { provider: 'xero', status } }, meta);
        if (events.length > 0) result.voidedThere = status;
        // Nothing can change in Xero's copy any more: the push leaves it alone from now on.
        await tx.query("UPDATE xero_sync SET xero_status = $3, pushed_status = 'VOIDED' WHERE account_id = $1 AND document_id = $2", [accountId, documentId, status]);
      });
    }
    // A read that got through clears why the last one did not.
    await db.query('UPDATE xero_sync SET pulled_at = $3, last_pull_error = NULL, last_pull_error_at = NULL WHERE account_id = $1 AND document_id = $2', [accountId, documentId, deps.clock.now().toISOString()]);
    return result;
  });
}

/**
 * The credit notes applied to the invoice in Xero that did not go from here (not in
 * xero_credit_notes) and are not recorded here yet, each issued here as a credit of the amount
 * Xero applied. A credit the invoice can't take here (more than is left to credit) is logged and
 * left: the tradie sees the difference in Xero's totals and sorts it out there.
 */
async function pullCredits(deps: Deps, accountId: string, documentId: string, there: InvoiceNow): Promise<string[]> {
  if (there.credits.length === 0) return [];
  const db = deps.store.db;
  const inXero = new Set((await db.query<{ xero_credit_note_id: string }>('SELECT xero_credit_note_id FROM xero_credit_notes WHERE account_id = $1 AND document_id = $2', [accountId, documentId])).map((r) => r.xero_credit_note_id));
  const credited: string[] = [];
  for (const c of there.credits) {
    if (inXero.has(c.creditNoteId) || toCents(c.amount) <= 0n) continue;
    const creditNoteId = deps.ids.uuid();
    try {
      await execute(deps, async (tx) => {
        const loaded = await loadDocument(tx, accountId, documentId);
        if (loaded.state.creditNotes.some((n) => n.source?.provider === 'xero' && n.source.externalId === c.creditNoteId)) return;
        const numbering = await reserveReference(tx, accountId, 'credit_note');
        const settings = await loadBusinessSettings(tx, accountId);
        const allocated = await numbering.allocate(creditNoteId);
        const actor = integrationActor(accountId);
        const meta = eventMeta(deps, actor);
        const number = c.creditNoteNumber || 'a credit note';
        const issued = await decideAndAppend(tx, loaded, documentDecider, {
          type: 'IssueCreditNote',
          data: {
            creditNoteId, number: allocated.number, reference: allocated.reference, date: c.date, reason: `Credited in Xero (${number})`,
            supplier: { name: settings.business_name || settings.trading_as, gstNumber: settings.gst_number },
            credit: { kind: 'amount', amount: c.amount },
            source: { provider: 'xero', externalId: c.creditNoteId, externalNumber: c.creditNoteNumber },
          },
        }, meta);
        await allocated.record(meta);
        // On a stage invoice its share goes back to the quote, as the tradie's own credit note's does.
        const invoice = issued.state as DocumentView;
        const note = invoice.creditNotes.find((n) => n.creditNoteId === creditNoteId);
        if (note) await giveBackToQuote(documentWork(tx, deps, actor), invoice, note);
        // Already in Xero and allocated there: the push never sends it back.
        await tx.query(
          'INSERT INTO xero_credit_notes (account_id, document_id, credit_note_id, xero_credit_note_id, allocated, allocated_cents, pushed_at) VALUES ($1, $2, $3, $4, true, $5, $6) ON CONFLICT DO NOTHING',
          [accountId, documentId, creditNoteId, c.creditNoteId, toCents(c.amount).toString(), deps.clock.now().toISOString()],
        );
        credited.push(creditNoteId);
      });
    } catch (e) {
      const refusal = refusalOf(e);
      if (!refusal) throw e;
      deps.log('error', 'a credit note made in Xero could not be recorded here', { accountId, documentId, xeroCreditNoteId: c.creditNoteId, detail: refusal.detail });
    }
  }
  return credited;
}

/** Xero's word on an invoice read this recently is not read again before a reminder. */
export const XERO_WORD_FRESH_MS = 5 * 60_000;

/**
 * Before a reminder goes: the payments made in Xero on a synced invoice are brought here first, so
 * a client who paid there (a bank transfer reconciled in Xero) is not chased; the reminder rule is
 * then asked with the invoice as it is. Does nothing unless Xero is configured, the invoice is
 * synced and the account connected. Never throws: a failure is logged and the rule is asked with
 * what is known here.
 */
export async function refreshFromXeroBeforeReminder(deps: Deps, accountId: string, documentId: string): Promise<PullResult | null> {
  try {
    if (!xeroRuntime(deps)) return null;
    const row = await readSyncRow(deps.store.db, accountId, documentId);
    if (!row?.xero_invoice_id) return null;
    // Xero's word of a few minutes ago (a webhook, the poll) stands: no call spent on it again.
    const [fresh] = await deps.store.db.query('SELECT 1 FROM xero_sync WHERE account_id = $1 AND document_id = $2 AND pulled_at > $3::timestamptz', [
      accountId, documentId, new Date(deps.clock.now().getTime() - XERO_WORD_FRESH_MS).toISOString(),
    ]);
    if (fresh) return null;
    const conn = await readConnection(deps.store.db, accountId);
    if (!conn || conn.needs_reauth) return null;
    return await pullFromXero(deps, accountId, documentId);
  } catch (e) {
    deps.log('info', 'reading an invoice back from Xero before a reminder failed', { accountId, documentId, error: refusalOf(e)?.detail ?? (e instanceof Error ? e.message : String(e)) });
    return null;
  }
}

/**
 * The xero-pull reaction's work (reactions/registry.ts): pullFromXero, with its failures as the
 * outbox takes them. Xero's rate limit (or the organisation's call budget) and another process
 * busy with the invoice put the row off until the time they name (NotBefore, no attempt spent);
 * Xero failing or unreachable throws, to be tried again with backoff; a refusal (not connected,
 * not synced, another organisation, the invoice gone) is logged and the row is done.
 */
export async function pullFromXeroForReaction(deps: Deps, accountId: string, documentId: string): Promise<PullResult | null> {
  try {
    return await pullFromXero(deps, accountId, documentId);
  } catch (e) {
    if (e instanceof LimitReached || e instanceof Busy) {
      const seconds = Math.max(1, e.retryAfter ?? BUSY_RETRY_AFTER_SECONDS);
      throw new NotBefore(new Date(deps.clock.now().getTime() + seconds * 1000), e.detail);
    }
    // Kept on the invoice (and the home screen) until a read gets through, as a failed push is.
    await recordSyncError(deps, accountId, documentId, 'pull', pullErrorText(e));
    if (worthRetrying(e)) throw e;
    deps.log('info', 'reading an invoice back from Xero was refused', { accountId, documentId, detail: refusalOf(e)?.detail ?? '' });
    return null;
  }
}

/** What the invoice says when reading it back from Xero failed: Xero's reason, or that Xero was out of reach. */
const pullErrorText = (e: unknown): string => refusalOf(e)?.detail ?? `${ACCOUNTING_MESSAGES.pullFailed}`;


/**
 * POST /integrations/xero/pull/{id} ('Check Xero again' after a read back failed): reads the invoice
 * back from Xero now, as a webhook's read does; a failure is kept as the reaction's is, and answered.
 */
export async function pullInvoiceNow(deps: Deps, accountId: string, documentId: string): Promise<PullResult> {
  try {
    return await pullFromXero(deps, accountId, documentId);
  } catch (e) {
    const err = await apiErrorOf(deps, accountId, e);
    if (!(err instanceof Busy) && !(err instanceof LimitReached)) await recordSyncError(deps, accountId, documentId, 'pull', pullErrorText(err));
    throw err;
  }
}

/** POST /integrations/xero/push/{id}: throws the API error for the route to answer. */
export async function pushInvoice(deps: Deps, accountId: string, documentId: string): Promise<{ xero_invoice_id: string; pushed: AccountingPushAction[] }> {
  const { state: view } = await loadDocument(deps.store, accountId, documentId);
  if (view.type !== 'invoice') throw new Conflict(ACCOUNTING_MESSAGES.onlyInvoices);
  const row = await readSyncRow(deps.store.db, accountId, documentId);
  if (!row?.xero_invoice_id) throw new Conflict(ACCOUNTING_MESSAGES.notSynced);
  const runtime = xeroRuntime(deps);
  if (!runtime) throw new BadRequest(ACCOUNTING_MESSAGES.notConfigured);
  await requireConnection(deps, accountId);
  try {
    const r = await withDocumentClaim(deps, runtime, accountId, documentId, () => pushLocked(deps, runtime, accountId, documentId));
    return { xero_invoice_id: r.xeroInvoiceId, pushed: r.pushed };
  } catch (e) {
    const err = await apiErrorOf(deps, accountId, e);
    // Another process pushing the same invoice is no failure; anything else is kept, to be shown on the invoice.
    const refusal = refusalOf(err);
    if (refusal && !(err instanceof Busy)) await recordSyncError(deps, accountId, documentId, 'push', refusal.detail);
    throw err;
  }
}

/**
 * POST /integrations/xero/send-ours/{id} ('Send ours to Xero', when Xero's totals differ from ours
 * because the invoice was edited there): our lines and their GST put back on Xero's copy, and the
 * totals Xero answers with recorded (the difference callout goes when they match). Refused, in words,
 * while Xero has the invoice voided or money applied to it, which Xero does not let change. Nothing
 * here changes: the invoice the client was given stays as it was issued.
 */
export async function sendOursToXero(deps: Deps, actor: Actor, documentId: string): Promise<{ xero_invoice_id: string; pushed: AccountingPushAction[] }> {
  const { accountId } = actor;
  const first = await loadDocument(deps.store, accountId, documentId);
  if (first.state.type !== 'invoice') throw new Conflict(ACCOUNTING_MESSAGES.onlyInvoices);
  const runtime = xeroRuntime(deps);
  if (!runtime) throw new BadRequest(ACCOUNTING_MESSAGES.notConfigured);
  await requireConnection(deps, accountId);
  return withDocumentClaim(deps, runtime, accountId, documentId, async () => {
    const row = await readSyncRow(deps.store.db, accountId, documentId);
    if (!row?.xero_invoice_id) throw new Conflict(ACCOUNTING_MESSAGES.notSynced);
    const contactId = await requireContactId(deps.store.db, accountId, documentId, 'its lines');
    const { tenantId } = await requireConnection(deps, accountId);
    if (row.tenant_id !== null && row.tenant_id !== tenantId) throw new Conflict(ACCOUNTING_MESSAGES.otherOrganisation);
    const { state: view } = await loadDocument(deps.store, accountId, documentId);
    if (view.status === 'void') throw new Conflict(ACCOUNTING_MESSAGES.voidInvoice);
    const xeroInvoiceId = row.xero_invoice_id;
    const gstRegistered = isTaxInvoice(view, (await loadBusinessSettings(deps.store.db, accountId)).gst_number);
    let ref: InvoiceRef;
    try {
      ref = await runtime.keeper.withConnection(accountId, async (conn) => {
        // Xero's word first: a copy voided or with money applied there is refused in our words, not Xero's.
        const there = await runtime.provider.getInvoice(conn, xeroInvoiceId);
        if (there.status === 'VOIDED' || there.status === 'DELETED') throw new Conflict(ACCOUNTING_MESSAGES.voidedThere);
        if (there.status === 'PAID' || there.payments.length > 0 || there.credits.length > 0) throw new Conflict(ACCOUNTING_MESSAGES.moneyAppliedThere);
        return runtime.provider.replaceInvoiceLines(conn, xeroInvoiceId, { document: view, contactId, gstRegistered });
      });
    } catch (e) {
      return rethrow(deps, accountId, e);
    }
    await execute(deps, (tx) => recordXeroTotals(deps, tx, actor, documentId, ref.totals));
    await deps.store.db.query('UPDATE xero_sync SET xero_status = $3, pushed_at = $4 WHERE account_id = $1 AND document_id = $2', [accountId, documentId, ref.status, deps.clock.now().toISOString()]);
    return { xero_invoice_id: xeroInvoiceId, pushed: [{ type: 'lines', total: ref.totals ? centsToNumber(toCents(ref.totals.total)) : centsToNumber(documentFigures(view).totalCents) }] };
  });
}

export type PushOutcome =
  | { outcome: 'pushed'; xero_invoice_id: string; pushed: AccountingPushAction[] }
  /** Nothing to do: Xero isn't configured, the invoice isn't synced (or isn't an invoice), or the account isn't connected. */
  | { outcome: 'skipped'; reason: 'not_configured' | 'not_synced' | 'not_connected' }
  /** Recorded in xero_sync.last_push_error; POST /integrations/xero/push/{id} (or the next change) tries again. */
  | { outcome: 'failed'; status: number; detail: string; worthRetrying: boolean };

/**
 * Xero answered 429 or 5xx (or could not be reached), another process was pushing the same
 * invoice, or something failed on our side: worth another go. A refusal (not connected, not
 * synced, validation) is not.
 */
const worthRetrying = (e: unknown): boolean =>
  !(e instanceof AppError) || e instanceof LimitReached || e instanceof RetryLater || e instanceof UpstreamFailed || e instanceof Internal || e instanceof Busy;

/**
 * For the documents feature, after a command on an invoice has committed (sent, payment recorded
 * or removed, marked paid, voided): brings the invoice in Xero up to date. Safe to call after any
 * command on any document: it does nothing unless the invoice is synced to Xero and the account is
 * connected. Never throws (failures are logged, without tokens, and recorded for a retry).
 */
export async function pushDocumentChangesToXero(deps: Deps, accountId: string, documentId: string): Promise<PushOutcome> {
  try {
    if (!xeroRuntime(deps)) return { outcome: 'skipped', reason: 'not_configured' };
    const row = await readSyncRow(deps.store.db, accountId, documentId);
    if (!row?.xero_invoice_id) return { outcome: 'skipped', reason: 'not_synced' };
    const conn = await readConnection(deps.store.db, accountId);
    if (!conn || conn.needs_reauth) return { outcome: 'skipped', reason: 'not_connected' };
    const r = await pushInvoice(deps, accountId, documentId);
    return { outcome: 'pushed', ...r };
  } catch (e) {
    const refusal = refusalOf(e);
    const status = refusal?.status ?? 500;
    const detail = refusal?.detail ?? 'Something went wrong on our side.';
    deps.log('error', 'pushing an invoice to Xero failed', { accountId, documentId, status, detail, ...(refusal ? {} : { error: e instanceof Error ? e.message : String(e) }) });
    return { outcome: 'failed', status, detail, worthRetrying: worthRetrying(e) };
  }
}
