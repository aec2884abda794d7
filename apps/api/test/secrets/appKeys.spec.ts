// The application secret: the start-up rules (checkAppSecret), the generated secret of the embedded
// install in DATA_DIR/app-secret (mode 600, created once even by racing loads, moved there from
// the old app_secrets row, a loose mode tightened), and rotation with APP_SECRET_PREVIOUS: what the
// previous secret signed or sealed is still accepted, while everything new uses the current one.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { projections } from '@tradie/projections';
import { openStore, type Db, type EventStore } from '@tradie/store';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tokensOf, type ConnectionRow } from '../../src/integrations/xero/connections.ts';
import { open, seal } from '../../src/integrations/xero/secretBox.ts';
import { ISSUER, signAccessToken, verifyAccessToken } from '../../src/auth/tokens.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { buildDeps } from '../../src/main.ts';
import { allMigrations } from '../../src/migrations.ts';
import { checkAppSecret, isWeakSecret, loadSecrets, secretFilePath, secretsFrom, verificationKeys, type Secrets, type SecretsConfig } from '../../src/appKeys.ts';
import { signedLogoUrl, verifyLogoLink } from '../../src/settings/logoLink.ts';
import { createTestApp, signUp, TestClock } from '../support/testApp.ts';

const GOOD = randomBytes(48).toString('base64');
const OTHER_GOOD = randomBytes(48).toString('base64');
const PG = 'postgres://tradie@127.0.0.1:9/never-reached';
const posix = process.platform !== 'win32';

describe('checkAppSecret: the start-up rules', () => {
  it('requires APP_SECRET with DATABASE_URL, and says how to make one', () => {
    const message = checkAppSecret({ databaseUrl: PG, appSecret: undefined });
    expect(message).toMatch(/^APP_SECRET must be set when DATABASE_URL is set/);
    expect(message).toContain('openssl rand -base64 48');
  });

  it('lets the embedded install start without one (it generates its own)', () => {
    expect(checkAppSecret({ databaseUrl: undefined, appSecret: undefined })).toBeNull();
  });

  it.each([
    ['with DATABASE_URL', PG],
    ['without DATABASE_URL', undefined],
  ])('refuses a secret of 31 bytes %s, naming the rule and the length', (_, databaseUrl) => {
    const secret = 'Kx7#mQ2$vL9@pR4!wN6&zT1*bY8^cF3'; // 31 distinct-enough bytes
    expect(Buffer.byteLength(secret)).toBe(31);
    const message = checkAppSecret({ databaseUrl, appSecret: secret });
    expect(message).toBe('APP_SECRET is too short: it must be at least 32 bytes, and it is 31. Generate one with `openssl rand -base64 48`.');
  });

  it('counts bytes (UTF-8), not characters', () => {
    const secret = 'āēīōūĀĒĪŌŪabcdefghijkl'; // 22 characters, 32 bytes
    expect(secret.length).toBe(22);
    expect(checkAppSecret({ databaseUrl: PG, appSecret: secret })).toBeNull();
    expect(checkAppSecret({ databaseUrl: PG, appSecret: secret.slice(0, -1) })).toMatch(/too short.*it is 31/);
  });

  it.each([
    ['one character', 'a'.repeat(48)],
    ['fewer than 10 different characters', 'abcdefghiabcdefghiihgfedcbaihgfedcbaabc'],
    ['0123456789 over and over', '0123456789'.repeat(4)],
    ['a block repeated, cut short at the end', 'abcdefghijklm'.repeat(3).slice(0, 35)],
    ['a long block twice', 'Kx7#mQ2$vL9@pR4!wN6&Kx7#mQ2$vL9@pR4!wN6&'],
  ])('refuses an obviously weak secret: %s', (_, secret) => {
    expect(Buffer.byteLength(secret)).toBeGreaterThanOrEqual(32);
    expect(isWeakSecret(secret)).toBe(true);
    for (const databaseUrl of [PG, undefined]) {
      const message = checkAppSecret({ databaseUrl, appSecret: secret });
      expect(message).toMatch(/^APP_SECRET is too easy to guess: it must use at least 10 different characters/);
      expect(message).toContain('openssl rand -base64 48');
      expect(message).not.toContain(secret);
    }
  });

  it('accepts a generated secret, and a long passphrase', () => {
    expect(checkAppSecret({ databaseUrl: PG, appSecret: GOOD })).toBeNull();
    expect(checkAppSecret({ databaseUrl: undefined, appSecret: GOOD })).toBeNull();
    expect(checkAppSecret({ databaseUrl: PG, appSecret: 'correct horse battery staple, quite long' })).toBeNull();
  });

  it('stops buildDeps before any database is opened', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tradie-secret-'));
    try {
      const attempt = buildDeps(loadConfig({ DATABASE_URL: PG, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
      await expect(attempt).rejects.toBeInstanceOf(ConfigError);
      await expect(attempt).rejects.toThrow(/APP_SECRET must be set when DATABASE_URL is set/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('the server refuses to start: one log line with the rule, exit code 1', async () => {
    const main = resolve(import.meta.dirname, '../../src/main.ts');
    const dataDir = mkdtempSync(join(tmpdir(), 'tradie-secret-'));
    try {
      const env = { PATH: process.env.PATH ?? '', DATABASE_URL: PG, DATA_DIR: dataDir, APP_SECRET: 'too-short', LOG_LEVEL: 'info', PORT: '0' };
      const outcome = await promisify(execFile)(process.execPath, [main], { env, timeout: 60_000 }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code?: number; stderr?: string }) => ({ code: e.code, stderr: e.stderr ?? '' }),
      );
      expect(outcome.code).toBe(1);
      const lines = outcome.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'error', message: expect.stringMatching(/^Tradie Quotes cannot start: APP_SECRET is too short: it must be at least 32 bytes, and it is 9\. Generate one with `openssl rand -base64 48`/) });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('loadSecrets', () => {
  let store: EventStore;
  let db: Db;
  const dirs: string[] = [];
  const logged: string[] = [];
  const log = (_level: 'error' | 'info', message: string): void => void logged.push(message);
  const embedded = (dataDir: string, extra: Partial<SecretsConfig> = {}): SecretsConfig => ({ dataDir, databaseUrl: undefined, appSecret: undefined, appSecretPrevious: undefined, ...extra });
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'tradie-secret-'));
    dirs.push(dir);
    return dir;
  };
  const rows = async () => db.query<{ name: string; value: string }>('SELECT name, value FROM app_secrets');
  const mode = (file: string): number => statSync(file).mode & 0o777;

  beforeAll(async () => {
    store = await openStore({ databaseUrl: undefined }, projections, allMigrations);
    db = store.db;
  });
  afterEach(async () => {
    await db.query('DELETE FROM app_secrets');
    logged.length = 0;
  });
  afterAll(async () => {
    await store.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('generates the embedded secret into DATA_DIR/app-secret, mode 600, not into the database', async () => {
    const dataDir = join(tempDir(), 'not-yet-made');
    const secrets = await loadSecrets(db, embedded(dataDir), log);
    const file = secretFilePath(dataDir);
    expect(file).toBe(join(dataDir, 'app-secret'));
    const text = readFileSync(file, 'utf8').trim();
    expect(Buffer.from(text, 'base64')).toHaveLength(32);
    if (posix) expect(mode(file)).toBe(0o600);
    expect(await rows()).toEqual([]);
    expect(secrets).toEqual(secretsFrom(Buffer.from(text, 'base64')));
    expect(readdirSync(dataDir)).toEqual(['app-secret']);
    expect(logged).toEqual([]);
  });

  it('reads the same secret on the next start', async () => {
    const dataDir = tempDir();
    const first = await loadSecrets(db, embedded(dataDir), log);
    const second = await loadSecrets(db, embedded(dataDir), log);
    expect(second).toEqual(first);
    const token = await signAccessToken(first.jwtKey, 'user-1', new Date(), 900);
    expect(await verifyAccessToken(verificationKeys(second, 'jwtKey'), token, new Date())).toBe('user-1');
  });

  it('two loads racing on an empty directory end with one file and the same keys', async () => {
    const dataDir = tempDir();
    const all = await Promise.all(Array.from({ length: 6 }, () => loadSecrets(db, embedded(dataDir), log)));
    for (const s of all) expect(s).toEqual(all[0]);
    expect(readdirSync(dataDir)).toEqual(['app-secret']);
    expect(all[0]).toEqual(secretsFrom(Buffer.from(readFileSync(secretFilePath(dataDir), 'utf8').trim(), 'base64')));
  });

  it('moves an older install\'s secret from app_secrets to the file once, and deletes the row', async () => {
    const dataDir = tempDir();
    const old = randomBytes(32).toString('base64');
    await db.query(`INSERT INTO app_secrets (name, value) VALUES ('app', $1)`, [old]);
    const before = secretsFrom(Buffer.from(old, 'base64')); // what sessions and Xero tokens were made with
    const sealed = seal(before.encryptionKey, 'xero-refresh-token', 'xero:acc-1:refresh_token');

    const secrets = await loadSecrets(db, embedded(dataDir), log);
    expect(secrets).toEqual(before);
    expect(readFileSync(secretFilePath(dataDir), 'utf8').trim()).toBe(old);
    if (posix) expect(mode(secretFilePath(dataDir))).toBe(0o600);
    expect(await rows()).toEqual([]);
    expect(open(verificationKeys(secrets, 'encryptionKey'), sealed, 'xero:acc-1:refresh_token')).toBe('xero-refresh-token');
    expect(logged).toEqual([`Moved the application secret from the database to ${secretFilePath(dataDir)}`]);
    expect(await loadSecrets(db, embedded(dataDir), log)).toEqual(before);
  });

  it('finishes a move that stopped after the file was written (the row is deleted)', async () => {
    const dataDir = tempDir();
    const old = randomBytes(32).toString('base64');
    writeFileSync(secretFilePath(dataDir), `${old}\n`, { mode: 0o600 });
    await db.query(`INSERT INTO app_secrets (name, value) VALUES ('app', $1)`, [old]);
    expect(await loadSecrets(db, embedded(dataDir), log)).toEqual(secretsFrom(Buffer.from(old, 'base64')));
    expect(await rows()).toEqual([]);
  });

  it.skipIf(!posix)('tightens a file others could read to 600, with a warning', async () => {
    const dataDir = tempDir();
    const first = await loadSecrets(db, embedded(dataDir), log);
    const file = secretFilePath(dataDir);
    chmodSync(file, 0o644);
    expect(await loadSecrets(db, embedded(dataDir), log)).toEqual(first);
    expect(mode(file)).toBe(0o600);
    expect(logged).toEqual([`Warning: ${file} had mode 644, more open than 600; it is now 600 (readable by its owner only)`]);
    logged.length = 0;
    await loadSecrets(db, embedded(dataDir), log);
    expect(logged).toEqual([]);
  });

  it('refuses a damaged secret file rather than replacing it', async () => {
    const dataDir = tempDir();
    writeFileSync(secretFilePath(dataDir), 'not a secret\n', { mode: 0o600 });
    await expect(loadSecrets(db, embedded(dataDir), log)).rejects.toThrow(ConfigError);
    await expect(loadSecrets(db, embedded(dataDir), log)).rejects.toThrow(/does not hold a generated secret/);
    expect(readFileSync(secretFilePath(dataDir), 'utf8')).toBe('not a secret\n');
  });

  it('with DATABASE_URL and a valid APP_SECRET, neither app_secrets nor DATA_DIR is touched', async () => {
    const dataDir = tempDir();
    const untouchable = new Proxy({} as Db, {
      get() {
        throw new Error('the database was used');
      },
    });
    const secrets = await loadSecrets(untouchable, { dataDir, databaseUrl: PG, appSecret: GOOD, appSecretPrevious: undefined }, log);
    expect(secrets).toEqual(secretsFrom(Buffer.from(GOOD, 'utf8')));
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses to load with a missing or weak APP_SECRET', async () => {
    const dataDir = tempDir();
    await expect(loadSecrets(db, { dataDir, databaseUrl: PG, appSecret: undefined, appSecretPrevious: undefined }, log)).rejects.toThrow(/APP_SECRET must be set/);
    await expect(loadSecrets(db, embedded(dataDir, { appSecret: '0123456789'.repeat(4) }), log)).rejects.toThrow(/too easy to guess/);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('takes APP_SECRET_PREVIOUS as text, or as base64: for a generated secret', async () => {
    const dataDir = tempDir();
    const rotated = await loadSecrets(db, { dataDir, databaseUrl: PG, appSecret: GOOD, appSecretPrevious: OTHER_GOOD }, log);
    expect(rotated).toEqual(secretsFrom(Buffer.from(GOOD), Buffer.from(OTHER_GOOD)));
    const generated = randomBytes(32).toString('base64');
    const fromRow = await loadSecrets(db, { dataDir, databaseUrl: PG, appSecret: GOOD, appSecretPrevious: `base64:${generated}` }, log);
    expect(fromRow.previous).toEqual(secretsFrom(Buffer.from(generated, 'base64')));
    await expect(loadSecrets(db, { dataDir, databaseUrl: PG, appSecret: GOOD, appSecretPrevious: 'base64:short' }, log)).rejects.toThrow(/APP_SECRET_PREVIOUS/);
    expect(secretsFrom(Buffer.from(GOOD), Buffer.from(GOOD)).previous).toBeUndefined();
  });
});

describe('rotation with APP_SECRET_PREVIOUS', () => {
  const now = new Date('2026-05-04T21:30:00.000Z');
  const before = secretsFrom(Buffer.from(OTHER_GOOD)); // the old APP_SECRET
  const after: Secrets = secretsFrom(Buffer.from(GOOD), Buffer.from(OTHER_GOOD)); // APP_SECRET=GOOD, APP_SECRET_PREVIOUS=OTHER_GOOD
  const unrelated = secretsFrom(randomBytes(48));
  const jwtKeys = verificationKeys(after, 'jwtKey');
  const linkKeys = verificationKeys(after, 'linkKey');
  const encryptionKeys = verificationKeys(after, 'encryptionKey');

  it('orders the keys current first, then previous', () => {
    expect(jwtKeys).toEqual([after.jwtKey, before.jwtKey]);
    expect(verificationKeys(before, 'linkKey')).toEqual([before.linkKey]);
  });

  it('an access token signed with the previous secret still verifies; one from an unrelated secret does not', async () => {
    expect(await verifyAccessToken(jwtKeys, await signAccessToken(before.jwtKey, 'user-old', now, 900), now)).toBe('user-old');
    expect(await verifyAccessToken(jwtKeys, await signAccessToken(after.jwtKey, 'user-new', now, 900), now)).toBe('user-new');
    expect(await verifyAccessToken(jwtKeys, await signAccessToken(unrelated.jwtKey, 'user-forged', now, 900), now)).toBeNull();
    // Once the previous secret is dropped, its tokens stop working.
    expect(await verifyAccessToken(after.jwtKey, await signAccessToken(before.jwtKey, 'user-old', now, 900), now)).toBeNull();
    // Expired is expired, whichever key signed it.
    expect(await verifyAccessToken(jwtKeys, await signAccessToken(before.jwtKey, 'user-old', new Date(now.getTime() - 3_600_000), 900), now)).toBeNull();
  });

  it('keeps the algorithm pinned to HS256 for the previous key too', async () => {
    const iat = Math.floor(now.getTime() / 1000);
    const hs512 = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('user-old').setIssuer(ISSUER).setAudience('tradie-quotes-api').setIssuedAt(iat).setExpirationTime(iat + 900)
      .sign(new Uint8Array([...before.jwtKey, ...before.jwtKey]));
    expect(await verifyAccessToken(jwtKeys, hs512, now)).toBeNull();
  });

  it('a logo link signed with the previous secret still opens; one from an unrelated secret does not', () => {
    const params = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);
    const toQuery = (p: Record<string, string>) => ({ v: p.v, a: p.a, exp: p.exp, sig: p.sig });
    const sha = 'ab'.repeat(32);
    expect(verifyLogoLink(linkKeys, toQuery(params(signedLogoUrl(before.linkKey, 'acc-1', sha, now))), now)).toBe('acc-1');
    expect(verifyLogoLink(linkKeys, toQuery(params(signedLogoUrl(unrelated.linkKey, 'acc-1', sha, now))), now)).toBeNull();
  });

  it('Xero tokens sealed with the previous secret still open; new ones are sealed with the current key only', () => {
    const row: ConnectionRow = {
      account_id: 'acc-1', tenant_id: 't', tenant_name: 'Org', connection_id: 'c',
      access_token_enc: seal(before.encryptionKey, 'access-1', 'xero:acc-1:access_token'),
      refresh_token_enc: seal(before.encryptionKey, 'refresh-1', 'xero:acc-1:refresh_token'),
      expires_at: now.toISOString(), scope: 'accounting.transactions', auth_event_id: null, needs_reauth: false,
    };
    expect(tokensOf(encryptionKeys, row)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    const fresh = seal(after.encryptionKey, 'access-2', 'xero:acc-1:access_token');
    expect(() => open(before.encryptionKey, fresh, 'xero:acc-1:access_token')).toThrow();
    expect(open(encryptionKeys, fresh, 'xero:acc-1:access_token')).toBe('access-2');
    const foreign = seal(unrelated.encryptionKey, 'access-3', 'xero:acc-1:access_token');
    expect(() => open(encryptionKeys, foreign, 'xero:acc-1:access_token')).toThrow();
    // The context still binds, whichever key sealed it.
    expect(() => open(encryptionKeys, row.access_token_enc, 'xero:acc-2:access_token')).toThrow();
  });

  describe('through the app', () => {
    let t: Awaited<ReturnType<typeof createTestApp>>;
    const clock = new TestClock();
    beforeAll(async () => {
      t = await createTestApp({ clock, overrides: { secrets: after } });
    });
    afterAll(() => t.close());

    it('accepts a bearer token and logo links signed before the rotation; download links are stored tokens, not signed, and keep working', async () => {
      const user = await signUp(t);
      const oldToken = await signAccessToken(before.jwtKey, user.userId, clock.now(), 900);
      expect((await t.get('/auth/me', oldToken)).status).toBe(200);
      expect((await t.get('/auth/me', await signAccessToken(unrelated.jwtKey, user.userId, clock.now(), 900))).status).toBe(401);

      const link = await t.post('/reports/export-links', { kind: 'annual-csv', year: 2026 }, user.token);
      expect((await t.call('GET', link.json.url as string)).status).toBe(200);

      // No logo yet: a link that verifies reaches the 404; a forged one stops at 403.
      expect((await t.call('GET', signedLogoUrl(before.linkKey, user.userId, 'ab'.repeat(32), clock.now()))).status).toBe(404);
      expect((await t.call('GET', signedLogoUrl(unrelated.linkKey, user.userId, 'ab'.repeat(32), clock.now()))).status).toBe(403);
    });

    it('signs new tokens with the current secret', async () => {
      const user = await signUp(t);
      expect(await verifyAccessToken(after.jwtKey, user.token, clock.now())).toBe(user.userId);
      expect(await verifyAccessToken(before.jwtKey, user.token, clock.now())).toBeNull();
    });
  });
});
