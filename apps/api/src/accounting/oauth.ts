// Connecting an account to Xero: authorisation code flow with PKCE and a single-use state
// (integrations.md §1.2-1.4). The state row remembers which account asked, so the callback
// (which Xero's redirect reaches without our bearer token) knows whose connection it stores.
import { createHash } from 'node:crypto';
import type { AppDeps } from '../deps.ts';
import { AccountingError, createOAuthState, createPkcePair, type Tenant } from '../integrations/xero/index.ts';
import { deleteConnection, readConnection, saveConnection, tokensOf, verifierContext } from './connections.ts';
import { open, seal } from './secretBox.ts';

/** How long the user has to finish signing in to Xero. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

type Deps = Pick<AppDeps, 'store' | 'secrets' | 'clock' | 'log' | 'accounting'>;

const hashState = (state: string): string => createHash('sha256').update(state, 'utf8').digest('hex');

/** GET /authorize: a fresh state and PKCE pair, stored for ten minutes; the address for the Connect window. */
export async function startAuthorization(deps: Deps & { accounting: NonNullable<AppDeps['accounting']> }, accountId: string): Promise<string> {
  const now = deps.clock.now();
  const state = createOAuthState();
  const pkce = createPkcePair();
  const stateHash = hashState(state);
  await deps.store.db.query('DELETE FROM xero_oauth_states WHERE expires_at < $1', [now.toISOString()]);
  await deps.store.db.query('INSERT INTO xero_oauth_states (state_hash, account_id, code_verifier_enc, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    stateHash,
    accountId,
    seal(deps.secrets.encryptionKey, pkce.verifier, verifierContext(stateHash)),
    now.toISOString(),
    new Date(now.getTime() + OAUTH_STATE_TTL_MS).toISOString(),
  ]);
  return deps.accounting.authorizationUrl(state, pkce.challenge);
}

export type CallbackOutcome = { ok: true; accountId: string; tenant: Tenant } | { ok: false; reason: string };

/**
 * GET /callback: the state is taken (deleted) first, whatever happens next, so it works once.
 * Then the code is exchanged with the verifier, the organisation read from the connections
 * endpoint, and the tokens stored sealed.
 */
export async function completeAuthorization(deps: Deps & { accounting: NonNullable<AppDeps['accounting']> }, query: { state?: string | undefined; code?: string | undefined; error?: string | undefined }): Promise<CallbackOutcome> {
  const state = query.state ?? '';
  if (state === '' || state.length > 200) return { ok: false, reason: 'The sign-in link is missing its state. Please press Connect again.' };
  const stateHash = hashState(state);
  const [row] = await deps.store.db.query<{ account_id: string; code_verifier_enc: string; expires_at: string | Date }>(
    'DELETE FROM xero_oauth_states WHERE state_hash = $1 RETURNING account_id, code_verifier_enc, expires_at',
    [stateHash],
  );
  if (!row || new Date(row.expires_at).getTime() <= deps.clock.now().getTime()) {
    return { ok: false, reason: 'This sign-in has expired or was already used. Please press Connect again.' };
  }
  if (query.error) return { ok: false, reason: query.error === 'access_denied' ? 'Access to Xero was not allowed.' : `Xero said: ${query.error.slice(0, 100)}.` };
  if (!query.code) return { ok: false, reason: 'Xero did not send an authorisation code. Please press Connect again.' };
  try {
    const verifier = open(deps.secrets.encryptionKey, row.code_verifier_enc, verifierContext(stateHash));
    const tokens = await deps.accounting.exchangeCode(query.code, verifier);
    const tenants = (await deps.accounting.connections(tokens.accessToken)).filter((t) => t.tenantType === '' || t.tenantType === 'ORGANISATION');
    // The organisation chosen in this consent: the one carrying its authentication event.
    const tenant = tenants.find((t) => tokens.authEventId !== null && t.authEventId === tokens.authEventId) ?? tenants[0];
    if (!tenant) return { ok: false, reason: 'No Xero organisation was connected. Please press Connect again and choose one.' };
    await saveConnection(deps, row.account_id, tokens, tenant);
    return { ok: true, accountId: row.account_id, tenant };
  } catch (e) {
    if (!(e instanceof AccountingError)) throw e;
    deps.log('info', 'xero authorisation failed', { kind: e.kind, status: e.status, accountId: row.account_id });
    return { ok: false, reason: e.detail };
  }
}

/** DELETE /disconnect: revoke the refresh token at Xero (best effort: a failure is logged) and forget the connection. */
export async function disconnect(deps: Deps, accountId: string): Promise<{ revoked: boolean }> {
  const row = await readConnection(deps.store.db, accountId);
  if (!row) return { revoked: false };
  let revoked = false;
  if (deps.accounting) {
    try {
      await deps.accounting.revoke(tokensOf(deps.secrets.encryptionKey, row).refreshToken);
      revoked = true;
    } catch (e) {
      deps.log('info', 'revoking the Xero connection failed; forgetting it anyway', { accountId, kind: e instanceof AccountingError ? e.kind : 'error' });
    }
  }
  await deleteConnection(deps.store.db, accountId);
  return { revoked };
}
