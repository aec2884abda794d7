// Connecting an account to Xero: authorisation code flow with PKCE and a single-use state.
// The state row remembers which account asked, so the callback (which Xero's redirect reaches
// without our bearer token) knows whose connection it stores.
//
// The state alone is not enough: whoever holds the callback address could finish it in their own
// browser and attach their Xero organisation to the account that pressed Connect (or be tricked
// into finishing someone else's, attaching theirs to that account). So the browser that pressed
// Connect also gets a random nonce in a cookie scoped to the callback path, the state row keeps
// the nonce's SHA-256, and the callback goes ahead only with that cookie. Without it (another
// browser) or with another one, nothing is exchanged or stored, and the state is left for the
// browser it belongs to.
import { ACCOUNT_CLOSED, ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { isAccountClosed } from '../../account/liveness.ts';
import type { AppDeps } from '../../deps.ts';
import { AccountingError, createOAuthState, createPkcePair, type Tenant } from './index.ts';
import { verificationKeys } from '../../appKeys.ts';
import { recordAudit, type RequestOrigin } from '../../security/audit.ts';
import { randomSecret, sameDigest, secretDigest } from '../../security/secrets.ts';
import { deleteConnection, readConnection, saveConnection, tokensOf, verifierContext } from './connections.ts';
import { open, seal } from './secretBox.ts';

/** How long the user has to finish signing in to Xero. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

/** The cookie holding the Connect nonce of this browser (HttpOnly, SameSite=Lax, callback path only). */
export const CONNECT_COOKIE = 'xero_connect';

type Deps = Pick<AppDeps, 'store' | 'secrets' | 'clock' | 'log' | 'accounting'>;

const EXPIRED = 'This sign-in has expired or was already used. Please press Connect again.';

export interface StartedAuthorization {
  /** The address for the Connect window. */
  url: string;
  /** Goes to this browser in CONNECT_COOKIE; only its SHA-256 is stored. */
  browserNonce: string;
}

/** GET /authorize: a fresh state, PKCE pair and browser nonce, stored for ten minutes. */
export async function startAuthorization(deps: Deps & { accounting: NonNullable<AppDeps['accounting']> }, accountId: string): Promise<StartedAuthorization> {
  const now = deps.clock.now();
  const state = createOAuthState();
  const pkce = createPkcePair();
  const browserNonce = randomSecret(32);
  const stateHash = secretDigest(state);
  await deps.store.db.query('DELETE FROM xero_oauth_states WHERE expires_at < $1', [now.toISOString()]);
  await deps.store.db.query('INSERT INTO xero_oauth_states (state_hash, account_id, code_verifier_enc, created_at, expires_at, browser_hash) VALUES ($1, $2, $3, $4, $5, $6)', [
    stateHash,
    accountId,
    seal(deps.secrets.encryptionKey, pkce.verifier, verifierContext(stateHash)),
    now.toISOString(),
    new Date(now.getTime() + OAUTH_STATE_TTL_MS).toISOString(),
    secretDigest(browserNonce),
  ]);
  return { url: deps.accounting.authorizationUrl(state, pkce.challenge), browserNonce };
}

export type CallbackOutcome = { ok: true; accountId: string; tenant: Tenant } | { ok: false; reason: string };

/**
 * GET /callback. The state must be known and live, and the request must carry the nonce of the
 * browser that started it (`browser.nonce`, from CONNECT_COOKIE); a callback from another browser
 * is refused and leaves the state alone. Then the state is taken (deleted) first, whatever
 * happens next, so it works once. The code is exchanged with the verifier, the organisation read
 * from the connections endpoint, and the tokens stored sealed, with an audit entry in the same
 * transaction.
 */
export async function completeAuthorization(
  deps: Deps & { accounting: NonNullable<AppDeps['accounting']> },
  query: { state?: string | undefined; code?: string | undefined; error?: string | undefined },
  browser: { nonce: string | undefined; origin: RequestOrigin },
): Promise<CallbackOutcome> {
  const state = query.state ?? '';
  if (state === '' || state.length > 200) return { ok: false, reason: 'The sign-in link is missing its state. Please press Connect again.' };
  const stateHash = secretDigest(state);
  const [found] = await deps.store.db.query<{ account_id: string; expires_at: string | Date; browser_hash: string | null }>(
    'SELECT account_id, expires_at, browser_hash FROM xero_oauth_states WHERE state_hash = $1',
    [stateHash],
  );
  if (!found || new Date(found.expires_at).getTime() <= deps.clock.now().getTime()) return { ok: false, reason: EXPIRED };
  // A Connect started just before the account was deleted stores nothing for it (account/liveness.ts).
  if (await isAccountClosed(deps.store.db, found.account_id)) return { ok: false, reason: ACCOUNT_CLOSED };
  const nonce = browser.nonce ?? '';
  const browserHash = nonce !== '' && nonce.length <= 200 ? secretDigest(nonce) : '';
  if (found.browser_hash === null || browserHash === '' || !sameDigest(found.browser_hash, browserHash)) {
    deps.log('info', 'xero callback refused: not the browser that pressed Connect', { accountId: found.account_id, cookie: nonce !== '' });
    return { ok: false, reason: ACCOUNTING_MESSAGES.otherBrowser };
  }
  // Taken only together with its browser: of two callbacks at once, one gets it.
  const [row] = await deps.store.db.query<{ account_id: string; code_verifier_enc: string }>(
    'DELETE FROM xero_oauth_states WHERE state_hash = $1 AND browser_hash = $2 RETURNING account_id, code_verifier_enc',
    [stateHash, browserHash],
  );
  if (!row) return { ok: false, reason: EXPIRED };
  if (query.error) return { ok: false, reason: query.error === 'access_denied' ? 'Access to Xero was not allowed.' : `Xero said: ${query.error.slice(0, 100)}.` };
  if (!query.code) return { ok: false, reason: 'Xero did not send an authorisation code. Please press Connect again.' };
  try {
    const verifier = open(verificationKeys(deps.secrets, 'encryptionKey'), row.code_verifier_enc, verifierContext(stateHash));
    const tokens = await deps.accounting.exchangeCode(query.code, verifier);
    const tenants = (await deps.accounting.connections(tokens.accessToken)).filter((t) => t.tenantType === '' || t.tenantType === 'ORGANISATION');
    // The organisation chosen in this consent: the one carrying its authentication event.
    const tenant = tenants.find((t) => tokens.authEventId !== null && t.authEventId === tokens.authEventId) ?? tenants[0];
    if (!tenant) return { ok: false, reason: 'No Xero organisation was connected. Please press Connect again and choose one.' };
    await deps.store.db.tx(async (sql) => {
      await saveConnection(deps, row.account_id, tokens, tenant, sql);
      await recordAudit(sql, {
        accountId: row.account_id,
        kind: 'xero_connected',
        at: deps.clock.now(),
        ip: browser.origin.ip,
        userAgent: browser.origin.userAgent,
        detail: { organisation: tenant.tenantName },
      });
    });
    return { ok: true, accountId: row.account_id, tenant };
  } catch (e) {
    if (!(e instanceof AccountingError)) throw e;
    deps.log('info', 'xero authorisation failed', { kind: e.kind, status: e.status, accountId: row.account_id });
    return { ok: false, reason: e.detail };
  }
}

/**
 * DELETE /disconnect: revoke the refresh token at Xero (best effort: a failure is logged) and
 * forget the connection, with an audit entry when there was one to forget. `retryUnreachable`
 * (a deleted account's wind-down, run by the outbox): when Xero could not be reached, the
 * connection is kept and the failure thrown, so the revoke is tried again later.
 */
export async function disconnect(deps: Deps, accountId: string, origin: RequestOrigin, options: { retryUnreachable?: boolean } = {}): Promise<{ revoked: boolean }> {
  const row = await readConnection(deps.store.db, accountId);
  if (!row) return { revoked: false };
  let revoked = false;
  if (deps.accounting) {
    try {
      await deps.accounting.revoke(tokensOf(verificationKeys(deps.secrets, 'encryptionKey'), row).refreshToken);
      revoked = true;
    } catch (e) {
      if (options.retryUnreachable && e instanceof AccountingError && (e.kind === 'unavailable' || e.kind === 'rate_limited')) throw e;
      deps.log('info', 'revoking the Xero connection failed; forgetting it anyway', { accountId, kind: e instanceof AccountingError ? e.kind : 'error' });
    }
  }
  await deps.store.db.tx(async (sql) => {
    // Two disconnects at once: the one that removed the row records it.
    if (!(await deleteConnection(sql, accountId))) return;
    await recordAudit(sql, { accountId, kind: 'xero_disconnected', at: deps.clock.now(), ip: origin.ip, userAgent: origin.userAgent, detail: { organisation: row.tenant_name } });
  });
  return { revoked };
}
