// Signed download links for the CSV exports. The screens open a download 'in a new tab', which
// cannot send the bearer header, and a token must never travel in a URL. So the signed-in app
// asks for a link: a URL that names the export, its exact query, the account and an expiry five
// minutes ahead, with an HMAC-SHA-256 over all of them (deps.secrets.linkKey, a key derived for
// links alone). Changing any of them — another period, the other export, another account, a
// later expiry — breaks the signature. Links are stateless and may be opened more than once
// until they expire (a browser may fetch a download twice); they grant one export, read-only.
// Links are signed with the current key; one signed before a rotation (APP_SECRET_PREVIOUS) still opens.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ExportKind } from '@tradie/contracts';
import { API_PREFIX } from '@tradie/contracts';
import { ApiError } from '../http/problem.ts';
import { keyList, type KeyRing } from '../secrets.ts';

export const LINK_TTL_SECONDS = 5 * 60;
/** Clock skew tolerated between API processes for an expiry in the future. */
const FUTURE_SKEW_SECONDS = 60;
const SIGNATURE_BYTES = 32;

/** What a link can open: a CSV export, or the accountant's ZIP (accountantExport.ts). */
export type LinkKind = ExportKind | 'accountant-zip';

/** The query parameters each export is signed over, in a fixed order. */
export const SIGNED_PARAMS: Record<LinkKind, readonly string[]> = {
  'gst-csv': ['start_date', 'end_date', 'basis'],
  'annual-csv': ['year'],
  'accountant-zip': ['start_date', 'end_date', 'basis'],
};

export const LINK_INVALID = 'This download link is not valid. Go back to Tax Reports and download the CSV again.';
export const LINK_EXPIRED = 'This download link has expired (links last 5 minutes). Go back to Tax Reports and download the CSV again.';

function mac(key: Uint8Array, kind: LinkKind, accountId: string, exp: number, values: readonly string[]): Buffer {
  // Length-prefixed fields: no value can run into the next one, whatever characters it holds.
  const fields = ['tradie-quotes/report-export/v1', kind, accountId, String(exp), ...values];
  const h = createHmac('sha256', key);
  for (const f of fields) h.update(`${Buffer.byteLength(f, 'utf8')}:${f};`, 'utf8');
  return h.digest();
}

/** A same-origin URL for one export of one account, valid for LINK_TTL_SECONDS. */
export function signExportLink(key: Uint8Array, kind: LinkKind, accountId: string, query: Readonly<Record<string, string>>, now: Date): { url: string; expiresAt: Date } {
  const exp = Math.floor(now.getTime() / 1000) + LINK_TTL_SECONDS;
  const values = SIGNED_PARAMS[kind].map((p) => query[p] ?? '');
  const sig = mac(key, kind, accountId, exp, values).toString('base64url');
  const params = new URLSearchParams([...SIGNED_PARAMS[kind].map((p, i): [string, string] => [p, values[i] ?? '']), ['account', accountId], ['exp', String(exp)], ['sig', sig]]);
  return { url: `${API_PREFIX}/reports/export/${kind}?${params.toString()}`, expiresAt: new Date(exp * 1000) };
}

/**
 * Checks a link's signature over the request's own query values; answers the account it was
 * made for. 403 with a detail a person can act on when it was altered or has expired.
 */
export function verifyExportLink(keys: KeyRing, kind: LinkKind, query: (name: string) => string | undefined, now: Date): string {
  const sig = query('sig') ?? '';
  const accountId = query('account') ?? '';
  const expText = query('exp') ?? '';
  if (!/^\d{1,12}$/.test(expText) || accountId === '' || !/^[A-Za-z0-9_-]+$/.test(sig)) throw new ApiError(403, LINK_INVALID);
  const given = Buffer.from(sig, 'base64url');
  const exp = Number(expText);
  const values = SIGNED_PARAMS[kind].map((p) => query(p) ?? '');
  const signedByOurs = given.length === SIGNATURE_BYTES && keyList(keys).some((key) => timingSafeEqual(given, mac(key, kind, accountId, exp, values)));
  if (!signedByOurs) throw new ApiError(403, LINK_INVALID);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (nowSeconds > exp) throw new ApiError(403, LINK_EXPIRED);
  // This server never signs further ahead than the TTL: anything else was not made here.
  if (exp - nowSeconds > LINK_TTL_SECONDS + FUTURE_SKEW_SECONDS) throw new ApiError(403, LINK_INVALID);
  return accountId;
}
