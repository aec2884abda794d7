// PKCE (RFC 7636) and the OAuth `state`, from node:crypto: 32 random bytes give a 43-character
// base64url verifier (the allowed alphabet is A-Z a-z 0-9 - . _ ~), the challenge is its SHA-256.
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}

/** An unguessable value bound to the user's session and checked on the callback. */
export const createOAuthState = (): string => randomBytes(24).toString('base64url');
