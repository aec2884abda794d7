// Shared by the suites that bill through the fake Stripe server: the app with Stripe billing
// configured against the fake on loopback (the real Stripe SDK calls it), and the fake's signed
// webhooks going straight into app.fetch.
import { startFakeStripe, type FakePriceSpec, type FakeStripe } from '@tradie/testkit/fake-stripe';
import { afterAll, beforeAll } from 'vitest';
import { createStripeBilling, parseApiBase } from '../../src/integrations/stripe/index.ts';
import { createTestApp, type TestApp, type TestClock } from '../support/testApp.ts';

export const STRIPE_WHSEC = 'whsec_api_test_secret';
export const STRIPE_KEY = 'sk_test_api_key';
export const STRIPE_PRICE = 'price_full_access_nzd750';

/** A 1×1 PNG, for a logo upload. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * Starts the fake Stripe and the app billing against it (both on `clock`) before the tests of the
 * enclosing describe, and stops them after. `prices` are the fake's (default: any price id is NZD
 * 750 a month). Answers handles that stand for the app and the fake: use them inside tests and hooks.
 */
export function useBillingApp(clock: TestClock, options: { prices?: FakePriceSpec[]; databaseUrl?: () => Promise<string>; env?: Record<string, string> } = {}): { t: TestApp; fake: FakeStripe } {
  let started: { t: TestApp; fake: FakeStripe } | undefined;
  beforeAll(async () => {
    const holder: { app?: TestApp } = {};
    const fake = await startFakeStripe({
      webhookSecret: STRIPE_WHSEC,
      secretKey: STRIPE_KEY,
      now: () => clock.now(),
      webhookUrl: 'http://app.test/api/v1/billing/webhook',
      fetch: async (req) => holder.app!.app.fetch(req),
      ...(options.prices && { prices: options.prices }),
    });
    const billing = createStripeBilling({ secretKey: STRIPE_KEY, priceId: STRIPE_PRICE, webhookSecret: STRIPE_WHSEC, api: parseApiBase(fake.url), maxNetworkRetries: 0 }, { now: () => clock.now() });
    const databaseUrl = await options.databaseUrl?.();
    holder.app = await createTestApp({ clock, databaseUrl, env: options.env, overrides: { billing } });
    started = { t: holder.app, fake };
  });
  afterAll(async () => {
    await started?.fake.stop();
    await started?.t.close();
  });
  const handle = <K extends 't' | 'fake'>(key: K) => {
    const current = () => {
      if (!started) throw new Error('The billing app starts in beforeAll: use it inside tests and hooks');
      return started[key];
    };
    return new Proxy({} as { t: TestApp; fake: FakeStripe }[K], {
      get: (_target, prop) => Reflect.get(current(), prop),
      set: (_target, prop, value) => Reflect.set(current(), prop, value),
    });
  };
  return { t: handle('t'), fake: handle('fake') };
}
