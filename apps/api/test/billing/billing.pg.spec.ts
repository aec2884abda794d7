// Settings, logo and billing on a real PostgreSQL server (postgres.js): the driver-sensitive parts
// — the reducer's state as jsonb, the logo as bytea, the upsert of a partial save — and the
// webhook's claim on an event id under real concurrency.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { describe, expect, it } from 'vitest';
import { loadLogo } from '../../src/settings/repository.ts';
import { signUp, TestClock } from '../support/testApp.ts';
import { PNG, useBillingApp } from './support.ts';

describe('settings and billing on PostgreSQL', () => {
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  const { t, fake } = useBillingApp(clock, { databaseUrl: () => freshDatabaseUrl('billing') });

  it('saves settings partially and reads the same record back', async () => {
    const { token } = await signUp(t);
    await t.put('/business-settings', { business_name: 'Kōwhai Plumbing', gst_rounding: 'line', default_email_subject: 'Hi' }, token);
    const r = await t.put('/business-settings', { city: 'Ōtaki', default_email_subject: '' }, token);
    // A rounding change waits for the next GST period: the method in use stays, the change is kept beside it.
    expect(r.json).toMatchObject({ business_name: 'Kōwhai Plumbing', city: 'Ōtaki', gst_rounding: 'total', gst_rounding_next: { rounding: 'line' }, default_email_subject: 'Invoice from [Business Name]' });
  });

  it('stores the re-encoded logo in bytea exactly and serves those bytes back', async () => {
    const { token, userId } = await signUp(t);
    const fd = new FormData();
    fd.append('file', new File([PNG], 'logo.png'));
    const up = await t.call('POST', '/business-settings/logo', { token, body: fd });
    expect(up.status).toBe(200);
    // Kept as the upload path re-encoded it: still a PNG, not the uploaded bytes.
    const stored = (await loadLogo(t.deps.store.db, userId))?.bytes;
    expect(stored?.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);
    const res = await t.app.request(`/api/v1${up.json.logo_url as string}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(stored!)).toBe(true);
  });

  it('keeps the reducer state in jsonb through checkout, and claims a concurrently redelivered event once', async () => {
    const user = await signUp(t);
    const r = await t.post('/billing/create-checkout-session', undefined, user.token);
    const done = await fake.completeCheckout((r.json.checkout_url as string).split('/').at(-1)!);
    expect(done.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    expect((await t.get('/billing/subscription-status', user.token)).json).toMatchObject({ subscription_active: true, subscription_status: 'trialing' });
    const [row] = await t.deps.store.db.query<{ state: { customerId: string; subscription: { id: string; provisional: boolean } } }>(
      'SELECT state FROM billing_accounts WHERE account_id = $1',
      [user.userId],
    );
    expect(row?.state).toMatchObject({ customerId: done.customer.id, subscription: { id: done.subscription.id, provisional: false } });

    const event = fake.events.find((e) => e.type === 'invoice.paid' && e.data.object.customer === done.customer.id)!;
    const body = JSON.stringify({ ...event, id: `${event.id}_again` });
    const post = () => t.call('POST', '/billing/webhook', { body, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': fake.sign(body) } });
    const answers = await Promise.all([post(), post(), post()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.json.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate']);
  });
});
