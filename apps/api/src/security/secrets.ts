// Secrets handed out as links, cookies and one-time tokens: made here, stored only as a digest,
// and compared in constant time. One implementation for every feature that hands one out (client
// links, sign-in and reset tokens, the Xero connection's state and browser nonce).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `bytes` random bytes as base64url: 24 bytes are 192 bits, 32 are 256. */
export const randomSecret = (bytes: number): string => randomBytes(bytes).toString('base64url');

/** How a secret is kept: its SHA-256 (of its UTF-8 bytes) as hex, found again by that alone. */
export const secretDigest = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Two digests compared in constant time (different lengths are simply not the same). */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
