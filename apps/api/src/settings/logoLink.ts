// Signed logo links. The web app shows the logo with a plain <img>, which cannot send the bearer
// token, so `logo_url` carries its own proof: an HMAC-SHA256 (the links key, node:crypto) over the
// account, the logo's version and an expiry. A link opens that account's logo only, until it
// expires. Expiries fall on whole hours and are 1–2 hours ahead, so the link stays the same for an
// hour (the browser's cache keeps working) and a leaked link is useless soon after. Links are
// signed with the current key; one signed before a rotation (APP_SECRET_PREVIOUS) still opens.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { keyList, type KeyRing } from '../appKeys.ts';
import { logoUrlFor } from './repository.ts';

const HOUR = 3600;

/** Seconds since the epoch at which a link made at `now` expires. */
export const logoLinkExpiry = (now: Date): number => (Math.floor(now.getTime() / 1000 / HOUR) + 2) * HOUR;

const mac = (key: Uint8Array, accountId: string, version: string, exp: number): Buffer =>
  createHmac('sha256', key).update(`logo\n${accountId}\n${version}\n${exp}`).digest();

/** `/business-settings/logo?v=…&a=…&exp=…&sig=…` — relative to the API base. */
export function signedLogoUrl(key: Uint8Array, accountId: string, sha256: string, now: Date): string {
  const base = logoUrlFor(sha256); // '/business-settings/logo?v=<first 16 hex of sha256>'
  const version = new URL(base, 'http://x').searchParams.get('v') ?? '';
  const exp = logoLinkExpiry(now);
  const sig = mac(key, accountId, version, exp).toString('base64url');
  return `${base}&a=${encodeURIComponent(accountId)}&exp=${exp}&sig=${sig}`;
}

/** The account a signed link opens, or null when it is forged, altered or expired. */
export function verifyLogoLink(keys: KeyRing, query: { v?: string | undefined; a?: string | undefined; exp?: string | undefined; sig?: string | undefined }, now: Date): string | null {
  const { v, a, exp, sig } = query;
  if (!v || !a || !exp || !sig || !/^\d{1,12}$/.test(exp)) return null;
  const expires = Number(exp);
  if (expires * 1000 <= now.getTime()) return null;
  const given = Buffer.from(sig, 'base64url');
  return keyList(keys).some((key) => {
    const expected = mac(key, a, v, expires);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }) ? a : null;
}
