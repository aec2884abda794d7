// The real Xero adapter from configuration (main.ts). Not configured → null: the Connect button
// explains that, status answers connected: false, and nothing else changes.
import type { Config } from '../../config.ts';
import type { Clock } from '../../deps.ts';
import { API_PREFIX } from '@tradie/contracts';
import { type AccountingProvider, createXeroAdapter } from './index.ts';
import type { CallBudget } from './callBudget.ts';

export const XERO_CALLBACK_PATH = `${API_PREFIX}/integrations/xero/callback`;

export function xeroFromConfig(config: Pick<Config, 'env' | 'appUrl'>, clock: Clock, io: { fetch: typeof fetch; sleep: (ms: number) => Promise<void>; budget?: CallBudget }): AccountingProvider | null {
  const e = config.env;
  if (!e.XERO_CLIENT_ID || !e.XERO_CLIENT_SECRET) return null;
  return createXeroAdapter({
    clientId: e.XERO_CLIENT_ID,
    clientSecret: e.XERO_CLIENT_SECRET,
    // Must match a redirect URI registered with the Xero app exactly.
    redirectUri: e.XERO_REDIRECT_URI ?? `${config.appUrl}${XERO_CALLBACK_PATH}`,
    ...(e.XERO_LOGIN_URL ? { loginUrl: e.XERO_LOGIN_URL } : {}),
    ...(e.XERO_IDENTITY_URL ? { identityUrl: e.XERO_IDENTITY_URL } : {}),
    ...(e.XERO_API_URL ? { apiUrl: e.XERO_API_URL } : {}),
    ...(e.XERO_SALES_ACCOUNT_CODE ? { salesAccountCode: e.XERO_SALES_ACCOUNT_CODE } : {}),
    ...(e.XERO_PAYMENTS_ACCOUNT_CODE ? { paymentsAccountCode: e.XERO_PAYMENTS_ACCOUNT_CODE } : {}),
    fetch: io.fetch,
    now: () => clock.now(),
    sleep: io.sleep,
    ...(io.budget ? { budget: io.budget } : {}),
  });
}
