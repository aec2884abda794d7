// Shared by the account suites (PGlite and PostgreSQL): an account with a history, a paid
// subscription on the fake Stripe and a Xero connection on the fake Xero, and a search of every
// table of the schema for anything that still names an account.
import type { FakeStripe } from '@tradie/testkit/fake-stripe';
import type { TestApp } from '../support/testApp.ts';
import { connectXero, makeFixtures, type Fixtures } from '../reliability/support.ts';

export const DAY = 86_400_000;

async function must(r: { status: number; text: string }, what: string, status = 200): Promise<void> {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
}

/** A tradie with clients, quotes, invoices and a payment, settings and a logo-less profile, a subscription and Xero. */
export async function fullAccount(t: TestApp, stripe: FakeStripe, name: string): Promise<Fixtures & { subscriptionId: string; receiptFile: string }> {
  const f = await makeFixtures(t, name);
  const tk = f.user.token;
  await must(await t.put('/business-settings', { business_name: `${name} Electrical`, gst_number: '49-091-850', email: 'me@example.nz', gst_rounding: 'total', default_currency: 'NZD', enable_multi_currency: false, cc_email: '' }, tk), 'settings');
  const checkout = await t.post('/billing/create-checkout-session', undefined, tk);
  await must(checkout, 'checkout');
  const done = await stripe.completeCheckout((checkout.json.checkout_url as string).split('/').at(-1)!);
  await connectXero(t, tk);
  // A cost with its receipt's file: the purge must take the file as well as the rows.
  const cost = await t.post('/costs', { supplier: 'Mitre 10', date: '2026-05-05', amount: '46.00' }, tk);
  await must(cost, 'cost', 201);
  const fd = new FormData();
  fd.append('file', new File([new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')], 'receipt.pdf'));
  await must(await t.call('POST', `/costs/${cost.json.id}/receipt`, { token: tk, body: fd }), 'receipt');
  return { ...f, subscriptionId: done.subscription.id, receiptFile: `accounts/${f.user.userId}/receipts/${cost.json.id}` };
}

/**
 * Every row of every table (and column, cast to text) of the schema that mentions one of
 * `needles`, as 'table.column'. Generic on purpose: a table added later is searched too.
 */
export async function rowsMentioning(t: TestApp, needles: string[]): Promise<string[]> {
  const db = t.deps.store.db;
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = current_schema() AND c.data_type <> 'bytea' ORDER BY c.table_name, c.column_name`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    for (const needle of needles) {
      const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE strpos("${column}"::text, $1) > 0`, [needle]);
      if (Number(row?.n) > 0) found.push(`${table}.${column} (${Number(row?.n)} rows mention ${needle})`);
    }
  }
  return found;
}

/** How many rows name the account in a column called account_id or user_id, by table (and the users row). */
export async function ownedRowCounts(t: TestApp, accountId: string): Promise<Record<string, number>> {
  const db = t.deps.store.db;
  const owned = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = current_schema() AND c.column_name IN ('account_id', 'user_id')`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table, column_name: column } of owned) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE "${column}" = $1`, [accountId]);
    if (Number(row?.n) > 0) counts[table] = Number(row?.n);
  }
  const [user] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE id = $1', [accountId]);
  if (Number(user?.n) > 0) counts.users = Number(user?.n);
  return counts;
}
