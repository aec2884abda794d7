// Keys the API signs and encrypts with, all from one application secret. Each purpose gets its own
// key derived with HKDF (node:crypto), never the raw secret.
//
// Where the secret comes from (the rules are in checkAppSecret; docs/reliability.md):
// - APP_SECRET, when set. It must be at least 32 bytes and not an obviously weak value. With
//   DATABASE_URL it is required: every API process on that database must sign with the same one,
//   and a secret kept in the database would travel with every dump and backup of it.
// - Otherwise (the embedded PGlite in DATA_DIR): generated once into DATA_DIR/app-secret, readable by
//   its owner only (mode 600). An older install kept it in the app_secrets table; it is moved to the
//   file once, so sessions and stored Xero tokens keep working, and the row is deleted.
// APP_SECRET_PREVIOUS is for rotation: what the previous secret signed still verifies and what it
// encrypted still decrypts, while everything new is signed and encrypted with the current secret.
import { hkdfSync, randomBytes } from 'node:crypto';
import { type FileHandle, link, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '@tradie/store';
import { ConfigError, type Config } from './config.ts';
import type { Logger } from './http/problem.ts';

export interface Keys {
  /** HMAC key for access-token JWTs (HS256). */
  jwtKey: Uint8Array;
  /** HMAC key for signed links (the logo's). */
  linkKey: Uint8Array;
  /** HMAC key for account exports: the signature `npm run import` checks (account/export.ts). */
  exportKey: Uint8Array;
  /** AES-256-GCM key for provider tokens at rest. */
  encryptionKey: Uint8Array;
}

export interface Secrets extends Keys {
  /** The keys of APP_SECRET_PREVIOUS: accepted by the verifiers and decrypters, never used to sign or encrypt. */
  previous?: Keys;
}

/** One key, or the keys to try in order (the current one first). Verifiers and decrypters take these. */
export type KeyRing = Uint8Array | readonly Uint8Array[];

export const keyList = (keys: KeyRing): readonly Uint8Array[] => (keys instanceof Uint8Array ? [keys] : keys);

/** The keys a verifier or decrypter accepts for one purpose: the current one, then the previous one. */
export const verificationKeys = (secrets: Secrets, purpose: keyof Keys): readonly Uint8Array[] =>
  secrets.previous ? [secrets[purpose], secrets.previous[purpose]] : [secrets[purpose]];

const derive = (secret: Buffer, purpose: string): Uint8Array => new Uint8Array(hkdfSync('sha256', secret, Buffer.alloc(0), `tradie-quotes/${purpose}`, 32));

/** The HKDF info of the export key is tradie-quotes/account-export (a signed export names it). */
export const EXPORT_KEY_PURPOSE = 'account-export';

const keysFrom = (secret: Buffer): Keys => ({
  jwtKey: derive(secret, 'jwt'), linkKey: derive(secret, 'links'), exportKey: derive(secret, EXPORT_KEY_PURPOSE), encryptionKey: derive(secret, 'encryption'),
});

/** The keys of a secret, and of the previous one during a rotation. */
export function secretsFrom(secret: Buffer, previous?: Buffer): Secrets {
  const current = keysFrom(secret);
  return previous && !previous.equals(secret) ? { ...current, previous: keysFrom(previous) } : current;
}

// ---- the rules for APP_SECRET ------------------------------------------------------------------

export const MIN_SECRET_BYTES = 32;
export const MIN_DISTINCT_CHARACTERS = 10;
export const GENERATE_HINT = 'Generate one with `openssl rand -base64 48`';

/**
 * Obviously weak: fewer than MIN_DISTINCT_CHARACTERS different characters ('aaaa…'), or one short
 * block written over and over ('0123456789' repeated): the block is all there is to guess.
 */
export function isWeakSecret(secret: string): boolean {
  const chars = [...secret];
  if (new Set(chars).size < MIN_DISTINCT_CHARACTERS) return true;
  for (let block = 1; block <= chars.length / 2; block++) {
    if (chars.every((c, i) => i < block || c === chars[i - block])) return true;
  }
  return false;
}

/**
 * Why the server must not start with this APP_SECRET, or null when it may. With DATABASE_URL the
 * secret must be set; whenever it is set it must be at least 32 bytes (UTF-8) and not weak
 * (isWeakSecret). The message never contains the secret.
 */
export function checkAppSecret(config: Pick<Config, 'databaseUrl' | 'appSecret'>): string | null {
  const secret = config.appSecret;
  if (secret === undefined || secret === '') {
    return config.databaseUrl
      ? `APP_SECRET must be set when DATABASE_URL is set: every API process on the database signs and encrypts with it, and it is not kept in the database. ${GENERATE_HINT} and give every API process the same value.`
      : null;
  }
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_SECRET_BYTES) return `APP_SECRET is too short: it must be at least ${MIN_SECRET_BYTES} bytes, and it is ${bytes}. ${GENERATE_HINT}.`;
  if (isWeakSecret(secret)) {
    return `APP_SECRET is too easy to guess: it must use at least ${MIN_DISTINCT_CHARACTERS} different characters and must not be one short run of characters repeated (like 0123456789 over and over). ${GENERATE_HINT}.`;
  }
  return null;
}

// ---- loading -----------------------------------------------------------------------------------

export type SecretsConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'appSecret' | 'appSecretPrevious'>;

/** The file the embedded install keeps its generated secret in. */
export const secretFilePath = (dataDir: string): string => join(dataDir, 'app-secret');

/**
 * The keys for this configuration. Throws ConfigError when APP_SECRET breaks the rules
 * (checkAppSecret) or the secret file is damaged. With APP_SECRET set, app_secrets is not touched.
 */
export async function loadSecrets(db: Db, config: SecretsConfig, log: Logger = () => {}): Promise<Secrets> {
  const problem = checkAppSecret(config);
  if (problem) throw new ConfigError(problem);
  const previous = config.appSecretPrevious ? previousSecret(config.appSecretPrevious) : undefined;
  const current = config.appSecret ? Buffer.from(config.appSecret, 'utf8') : await generatedSecret(db, config.dataDir, log);
  return secretsFrom(current, previous);
}

/**
 * APP_SECRET_PREVIOUS as bytes. `base64:…` names a generated secret (the value of the old
 * app_secrets row, or the contents of DATA_DIR/app-secret); anything else is the text itself, like APP_SECRET.
 */
function previousSecret(value: string): Buffer {
  if (!value.startsWith('base64:')) return Buffer.from(value, 'utf8');
  const bytes = decodeGenerated(value.slice('base64:'.length).trim());
  if (!bytes) throw new ConfigError('APP_SECRET_PREVIOUS starts with base64: but what follows is not a generated secret (base64 of at least 32 bytes).');
  return bytes;
}

const decodeGenerated = (text: string): Buffer | undefined => {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length >= MIN_SECRET_BYTES ? bytes : undefined;
};

const errorCode = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

/** DATA_DIR/app-secret: read, or moved there from app_secrets, or generated; the row is deleted once the file holds it. */
async function generatedSecret(db: Db, dataDir: string, log: Logger): Promise<Buffer> {
  const file = secretFilePath(dataDir);
  await mkdir(dataDir, { recursive: true });
  const [row] = await db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'app'`);
  const stored = row?.value.trim();
  let text = await readSecretFile(file, log);
  if (text === undefined) {
    text = await createExclusively(file, stored ?? randomBytes(32).toString('base64'), log);
    if (stored !== undefined && text === stored) log('info', `Moved the application secret from the database to ${file}`);
  }
  if (row) {
    // Only once the file holds it (and is on disk): a crash before this line leaves both, and the next start deletes the row.
    if (stored === text) await db.query(`DELETE FROM app_secrets WHERE name = 'app' AND value = $1`, [row.value]);
    else log('error', `The app_secrets table holds a secret other than the one in ${file}; it is not used. Delete that row once nothing needs it.`);
  }
  const bytes = decodeGenerated(text);
  if (!bytes) {
    throw new ConfigError(
      `${file} does not hold a generated secret (base64 of at least ${MIN_SECRET_BYTES} bytes). Restore it from a backup; or delete it to generate a new one, after which everyone signs in again and Xero must be connected again. Or set APP_SECRET (${GENERATE_HINT}).`,
    );
  }
  return bytes;
}

/** The file's text, or undefined when there is none. A file others could read or change is made 600 first, with a warning. */
async function readSecretFile(file: string, log: Logger): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const mode = (await handle.stat()).mode & 0o777;
    if (process.platform !== 'win32' && (mode & 0o177) !== 0) {
      await handle.chmod(0o600);
      log('error', `Warning: ${file} had mode ${mode.toString(8).padStart(3, '0')}, more open than 600; it is now 600 (readable by its owner only)`);
    }
    // A process that created the file without hard links writes it just after creating it.
    for (let attempt = 0; ; attempt++) {
      const text = (await handle.readFile('utf8')).trim();
      if (text !== '' || attempt >= 20) return text;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await handle.close();
  }
}

/**
 * Creates `file` holding `content`, unless it exists: the content that is in the file afterwards.
 * Written to a private temporary file first, then hard-linked into place, which fails when the name
 * is taken, so two processes racing both end with the one file's content and no one ever reads a
 * half-written file. Where hard links are not supported, an exclusive create ('wx') instead.
 */
async function createExclusively(file: string, content: string, log: Logger): Promise<string> {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeDurably(temporary, content);
    try {
      await link(temporary, file);
    } catch (e) {
      if (errorCode(e) === 'EEXIST') return (await readSecretFile(file, log)) ?? content;
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(errorCode(e) ?? '')) throw e;
      try {
        await writeDurably(file, content);
      } catch (e2) {
        if (errorCode(e2) === 'EEXIST') return (await readSecretFile(file, log)) ?? content;
        throw e2;
      }
    }
    await syncDirectory(file);
    return content;
  } finally {
    await rm(temporary, { force: true });
  }
}

async function writeDurably(path: string, content: string): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.chmod(0o600); // whatever the umask
    await handle.writeFile(`${content}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The new name survives a power cut (best effort: not every platform can sync a directory). */
async function syncDirectory(file: string): Promise<void> {
  try {
    const dir = await open(join(file, '..'), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Windows and some file systems cannot open or sync a directory.
  }
}
