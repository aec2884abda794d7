// Syncing to Xero is new work (docs/decisions/0004-expired-trial.md): after the free trial, with
// no subscription, POST /sync/{id} answers 402 and sends nothing to Xero; push, status and
// disconnect stay open.
import { BILLING_MESSAGES, SUBSCRIPTION_REQUIRED_CODE } from '@tradie/contracts';
import { type FakeXero, startFakeXero } from '@tradie/testkit/fake-xero';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingProvider } from '../../../src/integrations/stripe/index.ts';
import { createTestApp, TestClock } from '../../support/testApp.ts';
import { adapterOnFake, REDIRECT_URI } from './fakeXero.ts';
import { connectedUser, makeDocument, sendCmd, type XeroTestApp } from './support.ts';

/** Billing set up on the server: the gate only looks at `configured` and the stored state. */
const configuredBilling = { configured: true } as unknown as BillingProvider;
const DAY = 86_400_000;

describe('Xero sync after the free trial', () => {
  let x: XeroTestApp;
  let fake: FakeXero;

  beforeAll(async () => {
    const clock = new TestClock('2026-05-04T21:30:00.000Z');
    fake = await startFakeXero({ redirectUris: [REDIRECT_URI], now: () => clock.now() });
    const sleeps: number[] = [];
    const accounting = adapterOnFake(fake, () => clock.now(), sleeps);
    const t = await createTestApp({ clock, env: { ACCESS_TOKEN_TTL_SECONDS: String(60 * 24 * 3600) }, overrides: { accounting, billing: configuredBilling } });
    x = { t, fake, clock, sleeps, logs: [], close: async () => { await t.close(); await fake.stop(); } };
  });
  afterAll(() => x.close());

  it('syncs during the trial; afterwards answers 402 and sends nothing, while push, status and disconnect stay open', async () => {
    const user = await connectedUser(x);
    const during = await makeDocument(x.t, user, { then: [sendCmd] });
    expect((await x.t.post(`/integrations/xero/sync/${during.id}`, undefined, user.token)).status).toBe(200);
    const after = await makeDocument(x.t, user, { then: [sendCmd] });

    x.clock.advance(15 * DAY);
    const requests = fake.state.requests.length;
    const blocked = await x.t.post(`/integrations/xero/sync/${after.id}`, undefined, user.token);
    expect(blocked.status).toBe(402);
    expect(blocked.json).toEqual({ detail: BILLING_MESSAGES.trialEnded, code: SUBSCRIPTION_REQUIRED_CODE });
    expect(fake.state.requests).toHaveLength(requests);
    expect(fake.state.invoices.filter((i) => i.Reference === after.reference)).toHaveLength(0);

    // Looking after what is already in Xero is not new work.
    expect((await x.t.post(`/integrations/xero/push/${during.id}`, undefined, user.token)).status).toBe(200);
    expect((await x.t.get('/integrations/xero/status', user.token)).status).toBe(200);
    expect((await x.t.del('/integrations/xero/disconnect', user.token)).status).toBe(200);
  });
});
