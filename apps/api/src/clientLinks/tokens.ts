// Link tokens: 24 random bytes (192 bits) as base64url, found again by their SHA-256 only. The
// token itself is sealed with the API's encryption key so the business can copy the same address.
import { CLIENT_LINK_TOKEN } from '@tradie/contracts';
import { open, seal } from '../integrations/xero/secretBox.ts';
import { randomSecret, secretDigest } from '../security/secrets.ts';
import { type Secrets, verificationKeys } from '../appKeys.ts';

export const TOKEN_BYTES = 24;

export type LinkKind = 'quote' | 'invoice';

export const newToken = (): string => randomSecret(TOKEN_BYTES);

export const tokenSha256 = secretDigest;

/** Whether the string can be a token at all (checked before any lookup). */
export const plausibleToken = (token: string): boolean => CLIENT_LINK_TOKEN.test(token);

export { sameDigest } from '../security/secrets.ts';

const context = (accountId: string, linkId: string): string => `client_links.token:${accountId}:${linkId}`;

export const sealToken = (secrets: Secrets, accountId: string, linkId: string, token: string): string => seal(secrets.encryptionKey, token, context(accountId, linkId));

export const openToken = (secrets: Secrets, accountId: string, linkId: string, sealed: string): string =>
  open(verificationKeys(secrets, 'encryptionKey'), sealed, context(accountId, linkId));

/** The address the client opens: /q/{token} for a quote, /i/{token} for an invoice. */
export const linkUrl = (appUrl: string, kind: LinkKind, token: string): string => `${appUrl}/${kind === 'quote' ? 'q' : 'i'}/${token}`;
