// Keys the API signs and encrypts with. From APP_SECRET when set; otherwise generated once and
// kept in the database, so every API process on one database shares them and tokens survive a
// restart. Each purpose gets its own key derived with HKDF (node:crypto), never the raw secret.
import { hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '@tradie/store';

export interface Secrets {
  /** HMAC key for access-token JWTs (HS256). */
  jwtKey: Uint8Array;
  /** HMAC key for short-lived signed download links. */
  linkKey: Uint8Array;
  /** AES-256-GCM key for provider tokens at rest. */
  encryptionKey: Uint8Array;
}

const derive = (secret: Buffer, purpose: string): Uint8Array => new Uint8Array(hkdfSync('sha256', secret, Buffer.alloc(0), `tradie-quotes/${purpose}`, 32));

export function secretsFrom(secret: Buffer): Secrets {
  return { jwtKey: derive(secret, 'jwt'), linkKey: derive(secret, 'links'), encryptionKey: derive(secret, 'encryption') };
}

export async function loadSecrets(db: Db, appSecret: string | undefined): Promise<Secrets> {
  if (appSecret) return secretsFrom(Buffer.from(appSecret, 'utf8'));
  await db.query(`INSERT INTO app_secrets (name, value) VALUES ('app', $1) ON CONFLICT (name) DO NOTHING`, [randomBytes(32).toString('base64')]);
  const [row] = await db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'app'`);
  if (!row) throw new Error('Could not read the application secret');
  return secretsFrom(Buffer.from(row.value, 'base64'));
}
