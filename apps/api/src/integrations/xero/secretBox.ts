// Provider tokens at rest: AES-256-GCM from node:crypto with the API's encryption key
// (secrets.ts, derived from APP_SECRET). A fresh 96-bit IV per value; the value's purpose (which
// account, which column) is bound in as additional data, so a ciphertext copied to another row
// or column does not decrypt. Sealing uses the current key; opening also accepts the key of
// APP_SECRET_PREVIOUS, so values sealed before a rotation still open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keyList, type KeyRing } from '../../appKeys.ts';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function seal(key: Uint8Array, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** Throws when the value was tampered with, sealed for another context or with none of the keys (tried in order). */
export function open(keys: KeyRing, sealed: string, context: string): string {
  const [version, payload] = sealed.split('.');
  if (version !== VERSION || payload === undefined) throw new Error('Unknown sealed value format');
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Sealed value is too short');
  let failure: unknown = new Error('No key to open the sealed value with');
  for (const key of keyList(keys)) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (e) {
      failure = e;
    }
  }
  throw failure;
}
