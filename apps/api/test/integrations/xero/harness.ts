// A fake Xero on loopback and the real adapter pointed at it, with a recorded, instant sleep.
import { type FakeXero, type FakeXeroOptions, startFakeXero } from '@tradie/testkit/fake-xero';
import type { AccountingProvider, ProviderConnection } from '../../../src/integrations/xero/port.ts';
import { createPkcePair } from '../../../src/integrations/xero/pkce.ts';
import type { XeroConfig } from '../../../src/integrations/xero/xeroAdapter.ts';
import { adapterOnFake, REDIRECT_URI } from './fakeXero.ts';

export { REDIRECT_URI };

export interface Harness {
  fake: FakeXero;
  xero: AccountingProvider;
  /** Every delay the adapter asked to wait, in ms. */
  sleeps: number[];
  clock: { now: Date };
  /** The whole consent: authorise → callback → code exchange → connections. */
  connect(): Promise<{ conn: ProviderConnection; refreshToken: string }>;
}

export async function startHarness(opts: { fake?: FakeXeroOptions; adapter?: Partial<XeroConfig> } = {}): Promise<Harness> {
  const clock = { now: new Date('2026-05-04T09:00:00Z') };
  const fake = await startFakeXero({ redirectUris: [REDIRECT_URI], now: () => clock.now, ...opts.fake });
  const sleeps: number[] = [];
  const xero = adapterOnFake(fake, () => clock.now, sleeps, opts.adapter);
  async function connect() {
    const pkce = createPkcePair();
    const res = await fetch(xero.authorizationUrl('state-1', pkce.challenge), { redirect: 'manual' });
    const back = new URL(res.headers.get('location') ?? '');
    const tokens = await xero.exchangeCode(back.searchParams.get('code') ?? '', pkce.verifier);
    const [tenant] = await xero.connections(tokens.accessToken);
    if (!tenant) throw new Error('no tenant');
    return { conn: { accessToken: tokens.accessToken, tenantId: tenant.tenantId }, refreshToken: tokens.refreshToken };
  }
  return { fake, xero, sleeps, clock, connect };
}
