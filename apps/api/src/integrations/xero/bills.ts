// Costs to Xero as bills (ACCPAY), with the receipt's photo or PDF attached.
//
// The tradie sends a cost once ('Send to Xero' on the Costs screen: POST /integrations/xero/bills/{costId});
// after that the bill follows the cost by itself, through the outbox (the xero-bill reaction): a
// changed cost puts its figures on the bill again, a deleted cost voids it, a receipt kept later is
// attached. A cost paid here (a receipt, a bill with its date paid) is paid in Xero too, on that
// day from the bank account, so Xero's payables and its payments-basis GST agree with this app; a
// payment made from here comes off first whenever the bill must change (Xero keeps a paid bill as
// it is) and is made again after. As for invoices: one cost at a time (a claim row in xero_bills, so another process gets
// 'busy'); a bill an earlier, lost attempt created is found by its number before one is made,
// and the create carries the same Idempotency-Key on every retry; every call spends the
// organisation's call budget in the adapter (callBudget.ts), shared with invoices.
//
// A supplier's credit (money back) goes the same way as a credit note from the supplier (ACCPAYCREDIT).
//
// Who wins: the cost here is the record (the tradie typed it, and the GST return is worked out from
// it), so a change here is pushed; a bill paid or voided in Xero is not changed (Xero refuses), and
// the refusal is kept on the cost for the tradie to see. Nothing comes back from a bill.
import { createHash } from 'node:crypto';
import { ACCOUNTING_MESSAGES, type AccountingBillResult, COST_MESSAGES } from '@tradie/contracts';
import { findCost } from '@tradie/projections';
import type { Sql } from '@tradie/store';
import { isAccountClosed } from '../../account/liveness.ts';
import { loadReceipt } from '../../costs/receipts.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, BadRequest, Busy, Internal, LimitReached, NotFound, RetryLater, UpstreamFailed } from '../../errors.ts';
import { plausibleId } from '../../http/ids.ts';
import { refusalOf } from '../../http/problem.ts';
import { NotBefore } from '../../reactions/notBefore.ts';
import { loadBusinessSettings } from '../../settings/repository.ts';
import { billAccountFor } from './billAccounts.ts';
import { billReference } from './billMapping.ts';
import { readConnection } from './connections.ts';
import { AccountingError, type BillInput, MAX_IDEMPOTENCY_KEY_LENGTH, type ProviderConnection } from './index.ts';
import { withXeroRowClaim } from './rowClaim.ts';
import { apiErrorOf, xeroRuntime } from './sync.ts';

type Deps = Pick<AppDeps, 'store' | 'secrets' | 'clock' | 'ids' | 'log' | 'accounting' | 'config' | 'files'>;

const BUSY_RETRY_AFTER_SECONDS = 5;

export const BILL_MESSAGES = {
  busy: 'This cost is being sent to Xero right now. Please try again in a moment.',
  attachNotAllowed: "Xero didn't let the receipt's photo be attached. Connect Xero again in Settings (it now asks to attach files), then send the cost again.",
  attachFailed: "The bill is in Xero, but the receipt's photo could not be attached yet. Send the cost again to try.",
  changeRefused: "Xero has this bill paid or voided, so this change wasn't sent. Change it in Xero too.",
} as const;

export interface BillRow {
  tenant_id: string | null;
  /** 'bill' (ACCPAY) or 'credit' (a supplier's credit, ACCPAYCREDIT). */
  kind: string | null;
  xero_invoice_id: string | null;
  xero_status: string | null;
  pushed_version: number | null;
  attached_sha256: string | null;
  xero_payment_id: string | null;
  paid_key: string | null;
  last_error: string | null;
}

/** What the cost's answers say of its bill: in Xero (or voided there), and what last went wrong. */
export interface CostBillState {
  status: 'sent' | 'paid' | 'voided';
  xero_bill_id: string;
  detail: string | null;
}

async function readBillRow(sql: Sql, accountId: string, costId: string): Promise<BillRow | null> {
  const [row] = await sql.query<BillRow>(
    'SELECT tenant_id, kind, xero_invoice_id, xero_status, pushed_version, attached_sha256, xero_payment_id, paid_key, last_error FROM xero_bills WHERE account_id = $1 AND cost_id = $2',
    [accountId, costId],
  );
  return row ? { ...row, pushed_version: row.pushed_version === null ? null : Number(row.pushed_version) } : null;
}

/** Each sent cost's bill, by cost id, for the Costs screen. */
export async function billsOf(sql: Sql, accountId: string, costIds: readonly string[]): Promise<Map<string, CostBillState>> {
  if (costIds.length === 0) return new Map();
  const rows = await sql.query<{ cost_id: string; xero_invoice_id: string; xero_status: string | null; last_error: string | null }>(
    'SELECT cost_id, xero_invoice_id, xero_status, last_error FROM xero_bills WHERE account_id = $1 AND cost_id = ANY($2::text[]) AND xero_invoice_id IS NOT NULL',
    [accountId, [...costIds]],
  );
  return new Map(rows.map((r) => [r.cost_id, { status: r.xero_status === 'VOIDED' ? 'voided' : r.xero_status === 'PAID' ? 'paid' : 'sent', xero_bill_id: r.xero_invoice_id, detail: r.last_error }]));
}

/** An Idempotency-Key the same on every retry of one attempt, within Xero's 128 characters. */
const billKey = (tenantId: string, costId: string, version: number): string => {
  const plain = `bill-${tenantId}-${costId}-v${version}`;
  return plain.length <= MAX_IDEMPOTENCY_KEY_LENGTH ? plain : `bill-${createHash('sha256').update(plain).digest('base64url')}`;
};

const withBillClaim = <T>(deps: Deps, accountId: string, costId: string, fn: () => Promise<T>): Promise<T> =>
  withXeroRowClaim(deps, { table: 'xero_bills', column: 'cost_id', accountId, id: costId, busy: BILL_MESSAGES.busy }, fn);

async function requireConnected(deps: Deps, accountId: string): Promise<NonNullable<ReturnType<typeof xeroRuntime>>> {
  const runtime = xeroRuntime(deps);
  if (!runtime) throw new BadRequest(ACCOUNTING_MESSAGES.notConfigured);
  const conn = await readConnection(deps.store.db, accountId);
  if (!conn) throw new BadRequest(ACCOUNTING_MESSAGES.notConnected);
  if (conn.needs_reauth) throw new BadRequest(ACCOUNTING_MESSAGES.reconnect);
  return runtime;
}

const setRow = async (deps: Deps, accountId: string, costId: string, fields: Partial<Record<keyof BillRow, string | number | null>>): Promise<void> => {
  const names = Object.keys(fields);
  await deps.store.db.query(
    `UPDATE xero_bills SET ${names.map((n, i) => `${n} = $${i + 3}`).join(', ')}, updated_at = $${names.length + 3} WHERE account_id = $1 AND cost_id = $2`,
    [accountId, costId, ...Object.values(fields), deps.clock.now().toISOString()],
  );
};

/**
 * Brings the cost's bill up to date, under the cost's claim: made if there is none yet (`create`),
 * its figures sent again when the cost changed, voided when the cost is gone, the receipt attached
 * when it is new. Answers what was done; throws the adapter's errors for the caller to map.
 */
async function bringUpToDate(deps: Deps, accountId: string, costId: string, create: boolean): Promise<AccountingBillResult | null> {
  const runtime = await requireConnected(deps, accountId);
  const registered = (await loadBusinessSettings(deps.store.db, accountId)).gst_registered;
  const cost = await findCost(deps.store.db, accountId, costId, registered);
  const row = await readBillRow(deps.store.db, accountId, costId);
  if (!row?.xero_invoice_id && !create) return null;
  if (!cost) {
    if (!row?.xero_invoice_id) throw new NotFound(COST_MESSAGES.costNotFound);
    if (row.xero_status !== 'VOIDED') {
      const ref = await runtime.keeper.withConnection(accountId, async (conn) => {
        // Xero voids no bill with money applied: the payment made from here comes off first.
        if (row.xero_payment_id) {
          await runtime.provider.deletePayment(conn, row.xero_payment_id);
          await setRow(deps, accountId, costId, { xero_payment_id: null, paid_key: null });
        }
        return runtime.provider.voidBill(conn, row.xero_invoice_id!, row.kind === 'credit');
      });
      await setRow(deps, accountId, costId, { xero_status: ref.status, last_error: null });
    }
    return { already_sent: true, xero_bill_id: row.xero_invoice_id, receipt_attached: row.attached_sha256 !== null };
  }
  const accountCode = await billAccountFor(deps.store.db, accountId, cost.category);
  const input = (contactId: string): BillInput => ({ cost, contactId, gstRegistered: registered, accountCode });
  const kind = cost.credit ? 'credit' : 'bill';
  let billId = row?.xero_invoice_id ?? null;
  let paymentId = row?.xero_payment_id ?? null;
  let attachedSha = row?.attached_sha256 ?? null;
  const already = billId !== null;
  // Paid here: the date and amount the payment in Xero must be for; null while unpaid (and for a credit).
  const paidKey = cost.paid_date !== null && !cost.credit ? `${cost.paid_date} ${cost.amount}` : null;
  await runtime.keeper.withConnection(accountId, async (conn: ProviderConnection) => {
    const stale = billId === null || (row?.pushed_version ?? 0) < cost.version;
    // A payment made from here comes off before the bill changes (Xero keeps a paid bill as it is), or when it is no longer right.
    if (paymentId !== null && (stale || row?.paid_key !== paidKey)) {
      await runtime.provider.deletePayment(conn, paymentId);
      paymentId = null;
      await setRow(deps, accountId, costId, { xero_payment_id: null, paid_key: null });
    }
    // A bill changed into a supplier's credit (or back) is another kind of document in Xero: the old one is voided and the new one made.
    if (billId !== null && (row?.kind ?? 'bill') !== kind) {
      await runtime.provider.voidBill(conn, billId, row?.kind === 'credit');
      billId = null;
      attachedSha = null;
    }
    let refused = false;
    if (stale) {
      const { contactId } = await runtime.provider.findOrCreateContact(conn, { name: cost.supplier, email: '' });
      if (billId === null) {
        // An earlier attempt whose answer was lost may have made it: found (and not voided), it is brought up to date.
        const lost = await runtime.provider.findBillByReference(conn, billReference(costId), cost.credit);
        const ref = lost && lost.status !== 'VOIDED' ? await runtime.provider.updateBill(conn, lost.invoiceId, input(contactId)) : await runtime.provider.createBill(conn, input(contactId), billKey(conn.tenantId, costId, cost.version));
        billId = ref.invoiceId;
        await setRow(deps, accountId, costId, { tenant_id: conn.tenantId, kind, xero_invoice_id: ref.invoiceId, xero_status: ref.status, pushed_version: cost.version, attached_sha256: attachedSha, last_error: null });
      } else {
        try {
          const ref = await runtime.provider.updateBill(conn, billId, input(contactId));
          await setRow(deps, accountId, costId, { xero_status: ref.status, pushed_version: cost.version, last_error: null });
        } catch (e) {
          // Paid (there) or voided in Xero: Xero's copy stays as it is, and the cost says so.
          if (!(e instanceof AccountingError && e.kind === 'validation')) throw e;
          refused = true;
          await setRow(deps, accountId, costId, { pushed_version: cost.version, last_error: BILL_MESSAGES.changeRefused });
        }
      }
    }
    if (paidKey !== null && paymentId === null && !refused && billId !== null && cost.paid_date !== null) {
      const paid = await runtime.provider.createPayment(
        conn,
        { invoiceId: billId, amount: cost.amount, date: cost.paid_date, reference: `Paid to ${cost.supplier}`.slice(0, 255) },
        billKey(conn.tenantId, `${costId}-paid`, cost.version),
      );
      await setRow(deps, accountId, costId, { xero_payment_id: paid.paymentId, paid_key: paidKey, xero_status: paid.invoiceStatus ?? 'PAID' });
    }
  });
  const attached = await attachReceipt(deps, runtime, accountId, costId, billId!, attachedSha, kind === 'credit' ? 'CreditNotes' : 'Invoices');
  const result: AccountingBillResult = { already_sent: already, xero_bill_id: billId!, receipt_attached: attached.attached };
  if (attached.warning) result.warning = attached.warning;
  return result;
}

/** The receipt's file on the bill, when it has one that Xero does not have yet. A failure is kept as the cost's warning, never thrown: the bill is there. */
async function attachReceipt(deps: Deps, runtime: NonNullable<ReturnType<typeof xeroRuntime>>, accountId: string, costId: string, billId: string, attachedSha: string | null, on: 'Invoices' | 'CreditNotes'): Promise<{ attached: boolean; warning?: string }> {
  let receipt: { contentType: string; bytes: Uint8Array };
  try {
    receipt = await loadReceipt(deps, accountId, costId);
  } catch (e) {
    if (e instanceof NotFound) return { attached: attachedSha !== null };
    throw e;
  }
  const sha = createHash('sha256').update(receipt.bytes).digest('hex');
  if (sha === attachedSha) return { attached: true };
  try {
    const fileName = receipt.contentType === 'application/pdf' ? 'receipt.pdf' : 'receipt.jpg';
    await runtime.keeper.withConnection(accountId, (conn) => runtime.provider.attachFile(conn, billId, { fileName, contentType: receipt.contentType, bytes: receipt.bytes }, on));
    await setRow(deps, accountId, costId, { attached_sha256: sha, last_error: null });
    return { attached: true };
  } catch (e) {
    if (e instanceof AccountingError && (e.kind === 'rate_limited' || e.kind === 'unavailable')) throw e;
    // No right to attach (a connection made before the app asked for it) is not a lost connection:
    // invoices and bills still go; the cost says what to do.
    const warning = e instanceof AccountingError && e.kind === 'forbidden' ? BILL_MESSAGES.attachNotAllowed : BILL_MESSAGES.attachFailed;
    deps.log('info', 'attaching a receipt to its Xero bill failed', { accountId, costId, kind: e instanceof AccountingError ? e.kind : 'other' });
    await setRow(deps, accountId, costId, { last_error: warning });
    return { attached: false, warning };
  }
}

/** POST /integrations/xero/bills/{costId}: the cost as a bill in Xero, made once (a second send makes nothing more). */
export async function sendCostToXero(deps: Deps, accountId: string, costId: string): Promise<AccountingBillResult> {
  if (!plausibleId(costId)) throw new NotFound(COST_MESSAGES.costNotFound);
  const registered = (await loadBusinessSettings(deps.store.db, accountId)).gst_registered;
  if (!(await findCost(deps.store.db, accountId, costId, registered))) throw new NotFound(COST_MESSAGES.costNotFound);
  await requireConnected(deps, accountId);
  try {
    return (await withBillClaim(deps, accountId, costId, () => bringUpToDate(deps, accountId, costId, true)))!;
  } catch (e) {
    throw await apiErrorOf(deps, accountId, e);
  }
}

const worthRetrying = (e: unknown): boolean => !(e instanceof AppError) || e instanceof RetryLater || e instanceof UpstreamFailed || e instanceof Internal;

/**
 * The xero-bill reaction's work (reactions/registry.ts): a sent cost changed, was deleted, or kept a
 * new receipt. Nothing for a cost never sent, or a closed account. Xero's limits and a busy cost put
 * the row off (NotBefore); Xero failing throws, to be tried again; a refusal is logged and kept.
 */
export async function pushCostToXero(deps: Deps, accountId: string, costId: string): Promise<void> {
  const row = await readBillRow(deps.store.db, accountId, costId);
  if (!row?.xero_invoice_id || (await isAccountClosed(deps.store.db, accountId))) return;
  try {
    await withBillClaim(deps, accountId, costId, () => bringUpToDate(deps, accountId, costId, false));
  } catch (raw) {
    const e = await apiErrorOf(deps, accountId, raw);
    if (e instanceof LimitReached || e instanceof Busy) {
      const seconds = Math.max(1, e.retryAfter ?? BUSY_RETRY_AFTER_SECONDS);
      throw new NotBefore(new Date(deps.clock.now().getTime() + seconds * 1000), e.detail);
    }
    if (worthRetrying(e)) throw e;
    const detail = refusalOf(e)?.detail ?? 'Xero refused the change.';
    deps.log('info', 'a change to a bill in Xero was refused', { accountId, costId, detail });
    await setRow(deps, accountId, costId, { last_error: detail });
  }
}
