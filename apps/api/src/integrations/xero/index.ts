// Xero behind the AccountingProvider port. How the API is meant to use it:
//
//   const keeper = createTokenKeeper({ provider, store, now });   // store: encrypted row, row-locked
//   keeper.withConnection(accountId, async (conn) => {
//     if (our sync row has a Xero id) return already_synced;          // durable, beyond Xero's 6 minutes
//     const { contactId } = await provider.findOrCreateContact(conn, contactFromClient(view.client));
//     const lost = await provider.findInvoiceByReference(conn, view.reference);   // an earlier lost attempt
//     const ref = lost ?? (await provider.createInvoice(conn, { document: view, contactId, gstRegistered },
//       `${conn.tenantId}:${view.id}:${streamVersion}`));             // same key on every retry
//     record SyncedToAccounting { provider: 'xero', externalId: ref.invoiceId, externalNumber: ref.invoiceNumber };
//   });
//
// 401 → withConnection refreshes once and retries once; 'invalid_grant'/'forbidden' → the
// connection needs re-authorising; 'rate_limited' → answer 429 with retryAfterSeconds.
export * from './port.ts';
export { createXeroAdapter, XERO_DEFAULTS, MAX_IDEMPOTENCY_KEY_LENGTH, type XeroConfig } from './xeroAdapter.ts';
export { toXeroCreditNote, type XeroCreditNote } from './mapping.ts';
export { toXeroInvoice, contactFromClient, DEFAULT_SALES_ACCOUNT_CODE, DEFAULT_PAYMENTS_ACCOUNT_CODE, type XeroInvoice, type XeroLineItem, type XeroInvoiceOptions } from './mapping.ts';
export { createPkcePair, pkceChallenge, createOAuthState, type PkcePair } from './pkce.ts';
export { createKeyedLock, createTokenKeeper, type KeyedLock, type TokenKeeper, type TokenStore, type StoredConnection } from './tokenRefresh.ts';
export { WireDecimal, wireDecimal } from './wireDecimal.ts';
