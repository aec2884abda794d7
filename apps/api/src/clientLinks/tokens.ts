// Link tokens: 24 random bytes (192 bits) as base64url, found again by their SHA-256 only. The
// token itself is sealed with the API's encryption key so the business can copy the same address.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { CLIENT_LINK_TOKEN } from '@tradie/contracts';
import { open, seal } from '../integrations/xero/secretBox.ts';
import { type Secrets, verificationKeys } from '../secrets.ts';

export const TOKEN_BYTES = 24;

export type LinkKind = 'quote' | 'invoice';

export const newToken = (): string => randomBytes(TOKEN_BYTES).toString('base64url');

export const tokenSha256 = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether the string can be a token at all (checked before any lookup). */
export const plausibleToken = (token: string): boolean => CLIENT_LINK_TOKEN.test(token);

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

const context = (accountId: string, linkId: string): string => `client_links.token:${accountId}:${linkId}`;

export const sealToken = (secrets: Secrets, accountId: string, linkId: string, token: string): string => seal(secrets.encryptionKey, token, context(accountId, linkId));

export const openToken = (secrets: Secrets, accountId: string, linkId: string, sealed: string): string =>
  open(verificationKeys(secrets, 'encryptionKey'), sealed, context(accountId, linkId));

/** The address the client opens: /q/{token} for a quote, /i/{token} for an invoice. */
export const linkUrl = (appUrl: string, kind: LinkKind, token: string): string => `${appUrl}/${kind === 'quote' ? 'q' : 'i'}/${token}`;
