// The real Xero adapter pointed at a fake Xero on loopback, its waits recorded and never slept:
// shared by the adapter's harness (harness.ts) and the app's (support.ts).
import type { FakeXero } from '@tradie/testkit/fake-xero';
import type { AccountingProvider } from '../../../src/integrations/xero/port.ts';
import { type XeroConfig, createXeroAdapter } from '../../../src/integrations/xero/xeroAdapter.ts';

export const REDIRECT_URI = 'http://localhost:3000/api/v1/integrations/xero/callback';

/** The adapter on `fake`, reading time from `now`; every wait it asks for is pushed to `sleeps`. */
export function adapterOnFake(fake: FakeXero, now: () => Date, sleeps: number[], overrides: Partial<XeroConfig> = {}): AccountingProvider {
  return createXeroAdapter({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    redirectUri: REDIRECT_URI,
    loginUrl: fake.loginUrl,
    identityUrl: fake.identityUrl,
    apiUrl: fake.apiUrl,
    fetch: globalThis.fetch,
    now,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
}
