// Access tokens: short-lived HS256 JWTs (jose). Refresh and reset tokens: opaque random strings,
// stored only as SHA-256 hashes.
import { SignJWT, jwtVerify } from 'jose';
import { keyList, type KeyRing } from '../appKeys.ts';
import { randomSecret, secretDigest } from '../security/secrets.ts';

export const ISSUER = 'tradie-quotes';
const AUDIENCE = 'tradie-quotes-api';

export async function signAccessToken(key: Uint8Array, userId: string, now: Date, ttlSeconds: number): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .setJti(randomSecret(9))
    .sign(key);
}

/**
 * The user id, or null for a token that is missing, malformed, forged, of another kind, or expired.
 * Each key is tried in turn (the current one, then the one before a rotation); HS256 only.
 */
export async function verifyAccessToken(keys: KeyRing, token: string, now: Date): Promise<string | null> {
  for (const key of keyList(keys)) {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, currentDate: now });
      return payload.typ === 'access' && typeof payload.sub === 'string' ? payload.sub : null;
    } catch {
      // Not this key (or not a usable token at all): the next key, if any.
    }
  }
  return null;
}

export const newOpaqueToken = (): string => randomSecret(32);
export const tokenHash = secretDigest;
