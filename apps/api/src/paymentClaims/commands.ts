// Payment claims under the Construction Contracts Act 2002: making a draft invoice a claim (or not),
// recording the payer's payment schedule and retention released, and starting a construction
// client's new invoices as claims. Each goes through the document command path (documents/commands/run.ts).
import type { PaymentClaimRecord, paymentClaimInput, paymentScheduleInput, retentionReleaseInput } from '@tradie/contracts';
import type { DocumentView, LocalDate, PaymentClaimDetails } from '@tradie/domain';
import type { Sql, StoreTx } from '@tradie/store';
import type { z } from 'zod';
import type { Actor } from '../commands.ts';
import { type Answer, type CommandPorts, type Decided, type DocumentWork, runDocumentCommand } from '../documents/commands/run.ts';
import { loadDocument } from '../documents/repository.ts';
import { claimFiguresOf, claimRecordOf, stageQuoteOf, suggestedDetails } from './view.ts';
import { Conflict } from '../errors.ts';

export type ClaimInput = z.output<typeof paymentClaimInput>;
export type ScheduleInput = z.output<typeof paymentScheduleInput>;
export type ReleaseInput = z.output<typeof retentionReleaseInput>;

export const NOT_AN_INVOICE = 'Only an invoice can be a payment claim';

const detailsOf = (i: ClaimInput): PaymentClaimDetails => ({
  contractReference: i.contract_reference,
  contractDate: i.contract_date,
  site: i.site,
  work: i.work,
  periodFrom: i.period_from,
  periodTo: i.period_to,
  retentionPercent: i.retention_percent,
  paymentDueDate: i.payment_due_date,
  scheduleWorkingDays: i.schedule_working_days,
});

/** The claim of the stage before this invoice on the same quote, when that one was a claim. */
async function previousClaim(tx: Pick<StoreTx, 'readStream'>, accountId: string, d: DocumentView, quote: DocumentView | null): Promise<DocumentView | null> {
  if (!quote) return null;
  const at = quote.stages.findIndex((s) => s.invoiceId === d.id);
  for (const s of quote.stages.slice(0, at < 0 ? quote.stages.length : at).reverse()) {
    const earlier = await loadDocument(tx, accountId, s.invoiceId).catch(() => null);
    if (earlier?.state.paymentClaim) return earlier.state;
  }
  return null;
}

/** The claim as it reads (or, for an invoice that is not a claim, what it would be with the suggested details). */
export async function claimRecordFor(tx: Pick<StoreTx, 'readStream'>, accountId: string, d: DocumentView, version: number, today: LocalDate): Promise<PaymentClaimRecord> {
  if (d.type !== 'invoice') throw new Conflict(NOT_AN_INVOICE);
  const quote = await stageQuoteOf(tx, accountId, d);
  const details = d.paymentClaim ?? suggestedDetails(d, quote, await previousClaim(tx, accountId, d, quote));
  return claimRecordOf(d, version, claimFiguresOf(d, quote, today, details));
}

async function answer(w: DocumentWork, accountId: string, done: Decided): Promise<PaymentClaimRecord> {
  return claimRecordFor(w.tx, accountId, done.view, done.version, w.today());
}

export function setPaymentClaim(ports: CommandPorts, actor: Actor, id: string, input: ClaimInput, expectedVersion: number | undefined): Promise<Answer<PaymentClaimRecord>> {
  return runDocumentCommand(ports, actor, {}, async (w) =>
    // The due date for payment moves only when the tradie chose it (the domain asks otherwise).
    answer(w, actor.accountId, await w.decide(id, { type: 'SetPaymentClaim', data: { ...detailsOf(input), dueDateChoice: input.due_date_choice, today: w.today() } }, { expectedVersion })),
  );
}

export function clearPaymentClaim(ports: CommandPorts, actor: Actor, id: string): Promise<Answer<PaymentClaimRecord>> {
  return runDocumentCommand(ports, actor, {}, async (w) => answer(w, actor.accountId, await w.decide(id, { type: 'ClearPaymentClaim' })));
}

export function recordPaymentSchedule(ports: CommandPorts, actor: Actor, id: string, input: ScheduleInput, key: string | undefined): Promise<Answer<PaymentClaimRecord>> {
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: 'claims:schedule', key, request: { id, ...input } } }, async (w) =>
    answer(w, actor.accountId, await w.decide(id, { type: 'RecordPaymentSchedule', data: { receivedOn: input.received_on, scheduledAmount: input.scheduled_amount, reasons: input.reasons } })),
  );
}

export function releaseRetention(ports: CommandPorts, actor: Actor, id: string, input: ReleaseInput, key: string | undefined): Promise<Answer<PaymentClaimRecord>> {
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: 'claims:retention', key, request: { id, ...input } } }, async (w) =>
    answer(w, actor.accountId, await w.decide(id, { type: 'ReleaseRetention', data: { releaseId: ports.ids.uuid(), amount: input.amount, date: input.date } })),
  );
}

// ---- construction clients ------------------------------------------------------------------

export async function isConstructionClient(sql: Sql, accountId: string, clientId: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM payment_claim_clients WHERE account_id = $1 AND client_id = $2', [accountId, clientId]);
  return rows.length > 0;
}

export async function setConstructionClient(sql: Sql, accountId: string, clientId: string, on: boolean, now: Date): Promise<void> {
  if (on) await sql.query('INSERT INTO payment_claim_clients (account_id, client_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [accountId, clientId, now.toISOString()]);
  else await sql.query('DELETE FROM payment_claim_clients WHERE account_id = $1 AND client_id = $2', [accountId, clientId]);
}

/**
 * A new draft invoice for a construction client starts as a payment claim, with the details
 * suggested from the claim before it on the same quote (or the quote itself): the tradie checks
 * them, and sending is refused until every element the Act requires is there. Its due date stays
 * the invoice's own (the claim's screen asks when the Act's default differs).
 */
export async function startAsClaim(w: DocumentWork, accountId: string, drafted: Decided): Promise<Decided> {
  const d = drafted.view;
  if (d.type !== 'invoice' || !d.client?.id || !(await isConstructionClient(w.tx, accountId, d.client.id))) return drafted;
  const quote = await stageQuoteOf(w.tx, accountId, d);
  const details = suggestedDetails(d, quote, await previousClaim(w.tx, accountId, d, quote));
  // Made a claim without being asked: its due date for payment stays the invoice's own until the
  // tradie chooses the Act's default on the claim (it says when the two differ).
  return w.decide(d.id, { type: 'SetPaymentClaim', data: { ...details, dueDateChoice: details.paymentDueDate === null ? 'invoice' : null, today: w.today() } }, { meta: w.meta() });
}
