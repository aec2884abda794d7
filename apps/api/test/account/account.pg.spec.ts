// Settings → Account on a real PostgreSQL server (postgres.js): the streamed export matches the
// CLI's document with the driver's own types (timestamptz, bytea, jsonb, bigint positions), and a
// deleted account's purge leaves no row of it in any table, with a logo, a subscription record and
// a history in them, while another account keeps everything.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { ACCOUNT_PURGE_DAYS } from '@tradie/contracts';
import { describe, expect, it } from 'vitest';
import { buildAccountExport } from '../../src/account/export.ts';
import { purgeDeletedAccounts } from '../../src/account/purge.ts';
import { makeFixtures } from '../reliability/support.ts';
import { PNG, useBillingApp } from '../billing/support.ts';
import { TestClock } from '../support/testApp.ts';
import { DAY, ownedRowCounts, rowsMentioning } from './support.ts';

describe('account export and deletion on PostgreSQL', () => {
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  const { t, fake } = useBillingApp(clock, { databaseUrl: () => freshDatabaseUrl('account') });

  async function account(name: string) {
    const f = await makeFixtures(t, name);
    const fd = new FormData();
    fd.append('file', new File([PNG], 'logo.png'));
    expect((await t.call('POST', '/business-settings/logo', { token: f.user.token, body: fd })).status).toBeLessThan(300);
    const checkout = await t.post('/billing/create-checkout-session', undefined, f.user.token);
    const done = await fake.completeCheckout((checkout.json.checkout_url as string).split('/').at(-1)!);
    return { ...f, subscriptionId: done.subscription.id };
  }

  it('streams the same bytes the CLI writes', async () => {
    const a = await account('Export Tradie');
    const res = await t.get('/account/export', a.user.token);
    expect(res.status).toBe(200);
    expect(res.text).toBe(`${JSON.stringify(await buildAccountExport(t.deps.store, a.user.userId, clock.now(), t.deps.secrets.exportKey), null, 2)}\n`);
    expect(res.json.tables.business_logos).toHaveLength(1);
  });

  it('deletes, cancels the subscription and purges every row after the window; another account keeps its own', async () => {
    const other = await account('Staying Tradie');
    const a = await account('Leaving Tradie');
    const otherBefore = await ownedRowCounts(t, other.user.userId);
    const res = await t.post('/account/delete', { confirm: 'DELETE', password: a.user.password }, a.user.token);
    expect(res.status).toBe(200);
    expect((await t.post('/auth/login', { email: a.user.email, password: a.user.password })).status).toBe(401);
    expect((await t.post('/auth/refresh', { refresh_token: a.user.refresh })).status).toBe(401);
    expect(fake.subscriptions.get(a.subscriptionId)?.status).toBe('canceled');
    clock.advance(ACCOUNT_PURGE_DAYS * DAY);
    expect(await purgeDeletedAccounts(t.deps)).toEqual([a.user.userId]);
    expect(await ownedRowCounts(t, a.user.userId)).toEqual({});
    expect(await rowsMentioning(t, [a.user.userId, a.user.email])).toEqual([]);
    expect(await ownedRowCounts(t, other.user.userId)).toEqual(otherBefore);
  });
});
