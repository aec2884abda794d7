// Download links for the CSV exports and the accountant's ZIP. The screens download by sending the
// page to a URL (a plain navigation), which cannot send the bearer header, and a token must never travel in a URL. So the
// signed-in app asks for a link: a URL that names the export and its exact query, with a one-time
// token (security/oneTimeTokens.ts, kind 'report_export': kept only as a digest, with the account,
// the export and its query; five minutes). Changing the export or any query value — another period,
// the other export — makes the link refused; the account is the token's own, never the URL's. A link
// may be opened more than once until it expires (a browser may fetch a download twice); it grants
// one export, read-only, and ends early when the account signs out everywhere or changes its password.
import type { ExportKind } from '@tradie/contracts';
import { API_PREFIX } from '@tradie/contracts';
import type { Db } from '@tradie/store';
import { consumeToken, issueToken, TOKEN_POLICIES } from '../security/oneTimeTokens.ts';
import { Forbidden } from '../errors.ts';

export const LINK_TTL_SECONDS = TOKEN_POLICIES.report_export.lifetimeMs / 1000;

/** What a link can open: a CSV export, or the accountant's ZIP (accountantExport.ts). */
export type LinkKind = ExportKind | 'accountant-zip';

/** The query parameters each export is bound to, in a fixed order. */
export const SIGNED_PARAMS: Record<LinkKind, readonly string[]> = {
  'gst-csv': ['start_date', 'end_date', 'basis', 'debit_adjustments', 'credit_adjustments'],
  'annual-csv': ['year'],
  'profit-csv': ['start_date', 'end_date', 'group'],
  'accountant-zip': ['start_date', 'end_date', 'basis'],
};

export const LINK_INVALID = 'This download link is not valid. Go back to Tax Reports and download the CSV again.';
export const LINK_EXPIRED = 'This download link has expired (links last 5 minutes). Go back to Tax Reports and download the CSV again.';

/** A same-origin URL for one export of one account, valid for LINK_TTL_SECONDS. */
export async function issueExportLink(db: Db, kind: LinkKind, accountId: string, query: Readonly<Record<string, string>>, now: Date): Promise<{ url: string; expiresAt: Date }> {
  const values = SIGNED_PARAMS[kind].map((p): [string, string] => [p, query[p] ?? '']);
  const { token, expiresAt } = await db.tx((sql) => issueToken(sql, { accountId, kind: 'report_export', data: { export: kind, query: Object.fromEntries(values) }, now }));
  // A parameter left empty (an adjustment not typed) is bound as '' and left out of the URL.
  const params = new URLSearchParams([...values.filter(([, v]) => v !== ''), ['token', token]]);
  return { url: `${API_PREFIX}/reports/export/${kind}?${params.toString()}`, expiresAt };
}

/**
 * Opens a link: its token must be a live export link for this export and exactly the request's
 * query values. Answers the account it was made for; 403 with a detail a person can act on otherwise.
 */
export async function openExportLink(db: Db, kind: LinkKind, query: (name: string) => string | undefined, now: Date): Promise<string> {
  const token = query('token') ?? '';
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(token)) throw new Forbidden(LINK_INVALID);
  const opened = await consumeToken(db, token, 'report_export', now, async (_sql, link) => {
    const granted = link.data.query as Record<string, unknown> | undefined;
    const same = link.data.export === kind && SIGNED_PARAMS[kind].every((p) => (query(p) ?? '') === granted?.[p]);
    return same ? link.accountId : null;
  });
  if (!opened.ok) throw new Forbidden(opened.reason === 'expired' ? LINK_EXPIRED : LINK_INVALID);
  if (opened.value === null) throw new Forbidden(LINK_INVALID);
  return opened.value;
}
