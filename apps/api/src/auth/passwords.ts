// Password hashing with scrypt from node:crypto (never hand-rolled). The stored string names its
// parameters, so the cost can rise later and old hashes still verify.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scryptAsync = (password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

const KEY_LENGTH = 32;

/** log2 of scrypt's N. 17 is OWASP's recommendation (128 MiB with r = 8); tests may lower it. */
export const DEFAULT_PASSWORD_COST = 17;

export async function hashPassword(password: string, cost = DEFAULT_PASSWORD_COST): Promise<string> {
  const N = 2 ** cost;
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFC'), salt, KEY_LENGTH, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return `scrypt$${cost}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, costS, rS, pS, saltB64, keyB64] = stored.split('$');
  if (scheme !== 'scrypt' || !costS || !rS || !pS || !saltB64 || !keyB64) return false;
  const N = 2 ** Number(costS);
  const r = Number(rS);
  const expected = Buffer.from(keyB64, 'base64');
  const key = await scryptAsync(password.normalize('NFC'), Buffer.from(saltB64, 'base64'), expected.length, { N, r, p: Number(pS), maxmem: 256 * N * r });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to verify against when the email is unknown, so both paths take the same time. */
let dummy: Promise<string> | undefined;
export const dummyHash = (cost: number): Promise<string> => (dummy ??= hashPassword('not-a-real-password', cost));
