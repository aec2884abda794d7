// The one-time tokens module (security/oneTimeTokens.ts), tried directly on a database: the same
// tests on PGlite (oneTimeTokens.int.spec.ts) and on PostgreSQL (oneTimeTokens.pg.spec.ts).
// An upgrade keeps every live link working; a token opens only its own kind, once, before it
// expires, unless revoked; many consumers at once: one wins; a revocation names kinds and ends
// only those, of that account.
import { createHash, randomBytes } from 'node:crypto';
import { projections } from '@tradie/projections';
import { migrate, openStore, type Db, type EventStore } from '@tradie/store';
import { expect, it } from 'vitest';
import { allMigrations } from '../../src/migrations.ts';
import {
  ALL_TOKEN_KINDS, consumeToken, EMAIL_CHANGED, issueToken, peekToken, revokeTokens, SIGNED_OUT_EVERYWHERE, TOKEN_POLICIES, type TokenKind,
} from '../../src/security/oneTimeTokens.ts';

const NOW = new Date('2026-05-04T21:30:00.000Z');
const later = (ms: number): Date => new Date(NOW.getTime() + ms);
let seq = 0;

async function account(db: Db): Promise<string> {
  const id = `ott-${++seq}-${randomBytes(4).toString('hex')}`;
  await db.query('INSERT INTO users (id, email, full_name, password_hash, created_at, trial_started_at) VALUES ($1, $2, $3, $4, $5, $5)', [
    id, `${id}@example.nz`, 'Token Tester', 'x', NOW.toISOString(),
  ]);
  return id;
}

const issue = (db: Db, accountId: string, kind: TokenKind, data = {}) => db.tx((sql) => issueToken(sql, { accountId, kind, data, now: NOW }));
const use = (db: Db, token: string, kind: TokenKind, at = NOW) => consumeToken(db, token, kind, at, async (_sql, live) => live);

/** `openStore(…)` with the given migrations: an in-memory PGlite, or a fresh PostgreSQL database. */
export type OpenWith = (migrations: typeof allMigrations) => Promise<EventStore>;

export function oneTimeTokenTests(store: () => EventStore, openWith: OpenWith): void {
  it('keeps only the digest; opens only its own kind, once, before it expires', async () => {
    const db = store().db;
    const a = await account(db);
    const { token, expiresAt } = await issue(db, a, 'password_reset');
    expect(expiresAt).toEqual(later(TOKEN_POLICIES.password_reset.lifetimeMs));
    const rows = await db.query<{ token_hash: string }>('SELECT token_hash FROM one_time_tokens WHERE account_id = $1', [a]);
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
    for (const other of ALL_TOKEN_KINDS.filter((k) => k !== 'password_reset')) {
      expect(await use(db, token, other)).toEqual({ ok: false, reason: 'unknown' });
    }
    expect(await use(db, token, 'password_reset', expiresAt)).toEqual({ ok: false, reason: 'expired' });
    expect(await use(db, 'made-up', 'password_reset')).toEqual({ ok: false, reason: 'unknown' });
    expect(await use(db, token, 'password_reset')).toMatchObject({ ok: true, value: { accountId: a, kind: 'password_reset' } });
    expect(await use(db, token, 'password_reset')).toEqual({ ok: false, reason: 'used' });
    expect(await peekToken(db, token, 'password_reset', NOW)).toEqual({ ok: false, reason: 'used' });
  });

  it('a change the consumer makes fails: the token is not spent', async () => {
    const db = store().db;
    const { token } = await issue(db, await account(db), 'email_change', { new_email: 'x@example.nz' });
    await expect(consumeToken(db, token, 'email_change', NOW, async () => { throw new Error('refused'); })).rejects.toThrow('refused');
    expect(await use(db, token, 'email_change')).toMatchObject({ ok: true, value: { data: { new_email: 'x@example.nz' } } });
  });

  it('a newer link of a one-at-a-time kind ends the older; download links and cancel links live side by side', async () => {
    const db = store().db;
    const a = await account(db);
    const first = await issue(db, a, 'email_change', { new_email: 'one@example.nz' });
    const second = await issue(db, a, 'email_change', { new_email: 'two@example.nz' });
    expect(await use(db, first.token, 'email_change')).toEqual({ ok: false, reason: 'revoked' });
    const cancels = [await issue(db, a, 'email_change_cancel'), await issue(db, a, 'email_change_cancel')];
    const downloads = [await issue(db, a, 'report_export'), await issue(db, a, 'report_export')];
    for (const c of cancels) expect((await peekToken(db, c.token, 'email_change_cancel', NOW)).ok).toBe(true);
    // A download may be fetched again until it expires.
    for (const d of downloads) for (let i = 0; i < 2; i++) expect((await use(db, d.token, 'report_export')).ok).toBe(true);
    expect((await use(db, second.token, 'email_change')).ok).toBe(true);
  });

  it("revokeTokens ends the named kinds of that account only, downloads already opened included", async () => {
    const db = store().db;
    const a = await account(db);
    const b = await account(db);
    const mine = Object.fromEntries(await Promise.all(ALL_TOKEN_KINDS.map(async (k) => [k, (await issue(db, a, k)).token] as const))) as Record<TokenKind, string>;
    const theirs = await issue(db, b, 'email_change');
    expect((await use(db, mine.report_export, 'report_export')).ok).toBe(true);
    const revoked = await db.tx((sql) => revokeTokens(sql, a, SIGNED_OUT_EVERYWHERE, later(1000)));
    expect(revoked).toBe(SIGNED_OUT_EVERYWHERE.length);
    for (const k of ALL_TOKEN_KINDS) {
      expect((await use(db, mine[k], k, later(2000))).ok, k).toBe(!SIGNED_OUT_EVERYWHERE.includes(k));
    }
    expect((await use(db, theirs.token, 'email_change', later(2000))).ok).toBe(true);
    // A confirmed change ends what was tied to the old address, reset links first.
    expect(EMAIL_CHANGED).toEqual(expect.arrayContaining(['password_reset', 'email_confirmation', 'email_change', 'email_change_cancel']));
  });

  it('20 consumers of one token at once: exactly one wins', async () => {
    const db = store().db;
    const { token } = await issue(db, await account(db), 'password_reset');
    const results = await Promise.all(Array.from({ length: 20 }, () => use(db, token, 'password_reset')));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.reason))).toEqual(Array<string>(19).fill('used'));
  });

  it('the upgrade moves every reset, confirmation and change link: live ones keep working, spent and expired ones stay refused', async () => {
    const before = allMigrations.filter((m) => m.id !== 'security-004-one-time-tokens');
    const old = await openWith(before);
    try {
      const db = old.db;
      const a = await account(db);
      const hash = (t: string) => createHash('sha256').update(t).digest('hex');
      const ins = (table: string, cols: string, values: unknown[]) =>
        db.query(`INSERT INTO ${table} (${cols}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
      await ins('password_reset_tokens', 'token_hash, user_id, created_at, expires_at', [hash('reset-live'), a, NOW.toISOString(), later(3_600_000).toISOString()]);
      await ins('password_reset_tokens', 'token_hash, user_id, created_at, expires_at, used_at', [hash('reset-used'), a, NOW.toISOString(), later(3_600_000).toISOString(), NOW.toISOString()]);
      await ins('email_confirmation_tokens', 'token_hash, user_id, email, created_at, expires_at', [hash('confirm-live'), a, `${a}@example.nz`, NOW.toISOString(), later(86_400_000).toISOString()]);
      await ins('email_change_tokens', 'token_hash, user_id, new_email, created_at, expires_at', [hash('change-live'), a, 'new@example.nz', NOW.toISOString(), later(86_400_000).toISOString()]);
      await ins('email_change_tokens', 'token_hash, user_id, new_email, created_at, expires_at', [hash('change-expired'), a, 'old@example.nz', NOW.toISOString(), later(-1).toISOString()]);

      expect(await migrate(db, allMigrations)).toEqual(['security-004-one-time-tokens']);
      expect(await use(db, 'reset-live', 'password_reset')).toMatchObject({ ok: true, value: { accountId: a } });
      expect(await use(db, 'reset-used', 'password_reset')).toEqual({ ok: false, reason: 'used' });
      expect(await use(db, 'confirm-live', 'email_confirmation')).toMatchObject({ ok: true, value: { data: { email: `${a}@example.nz` } } });
      expect(await use(db, 'change-live', 'email_change')).toMatchObject({ ok: true, value: { data: { new_email: 'new@example.nz' } } });
      expect(await use(db, 'change-expired', 'email_change')).toEqual({ ok: false, reason: 'expired' });
      const tables = await db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN ('password_reset_tokens', 'email_confirmation_tokens', 'email_change_tokens')",
      );
      expect(tables).toEqual([]);
    } finally {
      await old.close();
    }
  });
}

/** An in-memory PGlite, or a PostgreSQL database from `databaseUrl`, with the given migrations. */
export const opener = (databaseUrl?: () => Promise<string>): OpenWith => async (migrations) =>
  openStore({ databaseUrl: databaseUrl ? await databaseUrl() : undefined }, projections, migrations);
