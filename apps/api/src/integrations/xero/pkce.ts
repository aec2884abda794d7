// PKCE (RFC 7636) and the OAuth `state`, from node:crypto: 32 random bytes give a 43-character
// base64url verifier (the allowed alphabet is A-Z a-z 0-9 - . _ ~), the challenge is its SHA-256.
import { createHash } from 'node:crypto';
import { randomSecret } from '../../security/secrets.ts';

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

export function createPkcePair(): PkcePair {
  const verifier = randomSecret(32);
  return { verifier, challenge: pkceChallenge(verifier) };
}

/** An unguessable value bound to the user's session and checked on the callback. */
export const createOAuthState = (): string => randomSecret(24);
