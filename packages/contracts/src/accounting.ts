// /api/v1/integrations/xero/* — the accounting connection and invoice sync
// (docs/api/accounting.md). Shared by the API and the screens.
import { z } from 'zod';

export const ACCOUNTING_PROVIDER = 'xero' as const;
export const ACCOUNTING_PROVIDER_NAME = 'Xero';

export const ACCOUNTING_MESSAGES = {
  /** 400 on sync or push without a usable connection (the screens show it as it is). */
  notConnected: 'Please connect Xero in Settings first',
  /** 400 when Xero refused the stored sign-in (refresh token spent or revoked, organisation removed). */
  reconnect: 'Xero needs you to connect again. Please connect Xero in Settings first',
  /** 503 on authorize, 400 on sync, when the server has no Xero app keys. */
  notConfigured: "Connecting to Xero isn't available here yet. Your invoices are all kept in the app, and the accountant's export has everything Xero would.",
  onlyInvoices: 'Only invoices can be synced to Xero. Convert the quote to an invoice first.',
  voidInvoice: "This invoice is void, so it can't be synced to Xero.",
  busy: 'This invoice is being synced with Xero right now. Please try again in a moment.',
  notSynced: "This invoice isn't synced to Xero yet. Sync it first.",
  otherOrganisation: 'This invoice was synced to a different Xero organisation than the one connected now.',
  /** Kept on an invoice when reading it back from Xero failed without a reason from Xero (it was out of reach). */
  pullFailed: "Xero couldn't be reached to check this invoice for payments, voids or credit notes made there.",
  /** On a payment recorded here while Xero says the invoice is voided there: kept here, never sent to Xero. */
  paymentVoidedThere: "Xero says this invoice is voided, so this payment is recorded here only and was not sent to Xero. Void the invoice here too, or check it in Xero.",
  /** 409 on 'Send ours to Xero' while Xero has the invoice voided there. */
  voidedThere: "Xero has this invoice voided, so nothing on it can change there. Void it here too, or sync a new invoice.",
  /** 409 on 'Send ours to Xero' while money is applied to Xero's copy (Xero does not let its lines change then). */
  moneyAppliedThere: "Xero has a payment or credit note applied to this invoice, and Xero doesn't let an invoice's lines change then. Change it in Xero, or remove the payment there first.",
  /** The callback page. */
  connected: 'Connected to Xero. You can close this window.',
  authorizationFailed: 'Authorization was cancelled or failed',
  /** The callback came without the cookie of the browser that pressed Connect (or with another one). */
  otherBrowser: 'This Xero connection was started in another browser. Start again from Settings → Integrations.',
} as const;

/** GET /integrations/xero/authorize */
export const accountingAuthorization = z.object({ authorization_url: z.string() });
export type AccountingAuthorization = z.infer<typeof accountingAuthorization>;

/** GET /integrations/xero/status (and the answer of DELETE /disconnect). */
export const accountingStatus = z.object({
  connected: z.boolean(),
  /** null when not connected. */
  tenant_id: z.string().nullable(),
  tenant_name: z.string().nullable(),
  /** false when the server has no Xero app keys: Connect can't work. */
  configured: z.boolean(),
  /** A connection is stored but Xero refused it: connect again. */
  needs_reauth: z.boolean(),
});
export type AccountingStatus = z.infer<typeof accountingStatus>;

/** POST /integrations/xero/sync/{id} */
export const accountingSyncResult = z.object({
  already_synced: z.boolean(),
  xero_invoice_number: z.string(),
  xero_invoice_id: z.string(),
  /** Set when the invoice was synced but a follow-up (payments, sent, void) could not be pushed yet. */
  warning: z.string().optional(),
});
export type AccountingSyncResult = z.infer<typeof accountingSyncResult>;

/** POST /integrations/xero/bills/{costId}: the cost as a bill (ACCPAY) in Xero. */
export const accountingBillResult = z.object({
  /** The bill was already in Xero: nothing new was made (a change since was put on it). */
  already_sent: z.boolean(),
  xero_bill_id: z.string(),
  /** The cost's receipt is attached to the bill (false when it has none, or attaching failed: see warning). */
  receipt_attached: z.boolean(),
  warning: z.string().optional(),
});
export type AccountingBillResult = z.infer<typeof accountingBillResult>;

/** GET /integrations/xero/bill-accounts: where each cost category's bills go in Xero, and the accounts to choose from. */
export const xeroBillAccounts = z.object({
  categories: z.array(
    z.object({
      category: z.string(),
      /** The account its bills are coded to now. */
      code: z.string(),
      /** Chosen here; false: the standard chart's (`standard_code`). */
      chosen: z.boolean(),
      standard_code: z.string(),
    }),
  ),
  /** The organisation's active expense and direct-cost accounts, by code. */
  accounts: z.array(z.object({ code: z.string(), name: z.string() })),
});
export type XeroBillAccounts = z.infer<typeof xeroBillAccounts>;

/** PUT /integrations/xero/bill-accounts: code one category's bills to an account (null: back to the standard chart's). */
export const xeroBillAccountInput = z.object({
  category: z.string({ error: 'Name the cost category' }).trim().min(1, { error: 'Name the cost category' }).max(40, { error: 'A category can be at most 40 characters' }),
  code: z.string({ error: 'Choose an account' }).trim().min(1, { error: 'Choose an account' }).max(10, { error: 'An account code is at most 10 characters' }).nullable(),
});
export type XeroBillAccountInput = z.input<typeof xeroBillAccountInput>;

export const accountingPushAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sent') }),
  z.object({ type: z.literal('voided') }),
  z.object({ type: z.literal('payment'), payment_id: z.string(), xero_payment_id: z.string() }),
  z.object({ type: z.literal('payment_removed'), payment_id: z.string(), xero_payment_id: z.string() }),
  /** A credit note sent as a Xero credit note (ACCRECCREDIT); `allocated` is what of it was applied to the invoice. */
  z.object({ type: z.literal('credit_note'), credit_note_id: z.string(), xero_credit_note_id: z.string(), allocated: z.number() }),
  /** Money paid back against a credit note, sent as a cash refund of the credit a Xero credit note has left (`credit_note_id` names the one it came out of; a refund can take parts of several). */
  z.object({ type: z.literal('credit_note_refund'), credit_note_id: z.string(), refund_id: z.string(), xero_payment_id: z.string(), amount: z.number() }),
  /** Our lines put back on Xero's copy ('Send ours to Xero' after it was edited there); `total` is what Xero now says it comes to. */
  z.object({ type: z.literal('lines'), total: z.number() }),
]);
export type AccountingPushAction = z.infer<typeof accountingPushAction>;

/**
 * GET /integrations/xero/push/{id}: whether Xero has the invoice's latest changes. The changes go
 * after every command that makes them; this says when the last try did not get them there.
 */
export const accountingPushStatus = z.object({
  /** The invoice is in Xero (synced); false for a quote or an invoice never synced. */
  synced: z.boolean(),
  /** Why Xero does not have the latest changes (or why Xero's could not be read back), in words; null when all is up to date. */
  last_error: z.string().nullable(),
  /** When the app tries again by itself (Xero was busy or out of reach); null when it will not: Try again does. */
  retry_at: z.string().nullable(),
  /** Which way failed: 'to_xero' (a push; Try again is POST /push/{id}), 'from_xero' (reading it back; Try again is POST /pull/{id}); null when nothing did. */
  direction: z.enum(['to_xero', 'from_xero']).nullable(),
});
export type AccountingPushStatus = z.infer<typeof accountingPushStatus>;

/** GET /integrations/xero/push: the account's synced invoices whose latest changes Xero does not have, newest failure first. */
export const accountingPushFailures = z.object({
  items: z.array(
    z.object({
      /** The invoice's id (also `document_id`): Try again is POST /integrations/xero/push/{id}. */
      id: z.string(),
      document_id: z.string(),
      reference: z.string(),
      last_error: z.string(),
      retry_at: z.string().nullable(),
      /** 'to_xero': Xero does not have our latest changes; 'from_xero': Xero's could not be read back. */
      direction: z.enum(['to_xero', 'from_xero']),
    }),
  ),
});
export type AccountingPushFailures = z.infer<typeof accountingPushFailures>;

/** POST /integrations/xero/pull/{id}: what came back from Xero (payments recorded or removed, credit notes, a void there). */
export const accountingPullResult = z.object({
  recorded: z.array(z.string()),
  removed: z.array(z.string()),
  credited: z.array(z.string()),
  voided_there: z.enum(['VOIDED', 'DELETED']).nullable(),
});
export type AccountingPullResult = z.infer<typeof accountingPullResult>;

/** POST /integrations/xero/push/{id}: what was changed in Xero (empty when it was up to date). */
export const accountingPushResult = z.object({
  xero_invoice_id: z.string(),
  pushed: z.array(accountingPushAction),
});
export type AccountingPushResult = z.infer<typeof accountingPushResult>;
