// Two API processes on one PostgreSQL database (two apps, each with its own in-process locks
// and its own adapter), one fake Xero: a single-use refresh token must be spent exactly once,
// and one invoice synced from both at once must become one Xero invoice.
import { describe, expect, it } from 'vitest';
import { connectedUser, makeDocument, tokenCalls, until } from './support.ts';
import { twoProcesses } from './twoProcesses.ts';

const apps = twoProcesses('xero');
const { clock } = apps;

/** Sessions blocked on a row lock of xero_connections (the second process waiting for the first's refresh). */
async function waitingOnConnectionRow(): Promise<number> {
  const [row] = await apps.one.t.deps.store.db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM xero_connections%FOR UPDATE%'`,
  );
  return Number(row?.n ?? 0);
}

describe('two API processes, one database', () => {
  it('both find the access token expired and sync at once: one refresh at Xero, both syncs go through', async () => {
    const user = await connectedUser(apps.one);
    const a = await makeDocument(apps.one.t, user);
    const b = await makeDocument(apps.one.t, user);
    clock.advance(31 * 60_000);
    const before = tokenCalls(apps.fake, 'refresh_token').length;
    const release = apps.fake.hold('/connect/token');
    let answers;
    try {
      const syncs = [apps.one.t.post(`/integrations/xero/sync/${a.id}`, undefined, user.token), apps.two.t.post(`/integrations/xero/sync/${b.id}`, undefined, user.token)];
      // One process is refreshing (its request held at Xero, the row locked); the other waits
      // for the row — or, were the lock broken, sends a second refresh of its own.
      await until(() => tokenCalls(apps.fake, 'refresh_token').length > before);
      await until(async () => (await waitingOnConnectionRow()) > 0 || tokenCalls(apps.fake, 'refresh_token').length > before + 1);
      release();
      answers = await Promise.all(syncs);
    } finally {
      release();
    }
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(tokenCalls(apps.fake, 'refresh_token')).toHaveLength(before + 1);
    expect(apps.fake.state.refreshTokenUses.map((u) => u.outcome)).not.toContain('reused');
    expect(apps.fake.state.invoices.filter((i) => i.Reference === a.reference || i.Reference === b.reference)).toHaveLength(2);
  });

  it('one invoice synced from both at once: the second process is told it is busy, then finds it synced; one Xero invoice', async () => {
    const user = await connectedUser(apps.one);
    const doc = await makeDocument(apps.one.t, user);
    const release = apps.fake.hold('PUT /Invoices');
    let first;
    let second;
    try {
      const pending = apps.one.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token);
      await until(() => apps.fake.state.requests.some((r) => r.method === 'PUT' && r.body.includes(doc.reference)));
      second = await apps.two.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token);
      release();
      first = await pending;
    } finally {
      release();
    }
    expect(first.status).toBe(200);
    expect(first.json.already_synced).toBe(false);
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toBe('5');
    const again = await apps.two.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token);
    expect(again.json).toEqual({ already_synced: true, xero_invoice_number: doc.reference, xero_invoice_id: first.json.xero_invoice_id });
    expect(apps.fake.state.invoices.filter((i) => i.Reference === doc.reference)).toHaveLength(1);
  });
});
