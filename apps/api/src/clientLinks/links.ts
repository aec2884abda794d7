// The tradie's side of a document's client link: the active link (issued when there is none),
// withdrawing it, and its record with the views the page's beacon counted. Issuing and
// withdrawing are document commands (ClientLinkIssued / ClientLinkWithdrawn on the document's
// stream); the client_links row, written in the same transaction, finds the link by its token.
import type { ClientLinkRecord } from '@tradie/contracts';
import { type DocumentView, type LocalDate, addDays } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import type { Actor } from '../commands.ts';
import type { AppDeps } from '../deps.ts';
import { gstRegistrationOf, loadBusinessSettings } from '../settings/repository.ts';
import { type Answer, type CommandPorts, type DocumentWork, runDocumentCommand } from '../documents/commands/run.ts';
import { type LinkKind, linkUrl, newToken, openToken, sealToken, tokenSha256 } from './tokens.ts';
import { NotFound } from '../errors.ts';

export const NO_ACTIVE_LINK = 'This document has no active link. Send it, or make a link first.';

/** How long a quote's link works when it has no valid-until date. */
export const QUOTE_LINK_DAYS = 30;
/** How long an invoice's link works after its due date (a late payer can still pay). */
export const INVOICE_LINK_DAYS_AFTER_DUE = 365;

/**
 * The last NZ day a new link works: a quote's valid-until (or 30 days), an invoice's due date + 365
 * days. An accepted quote's link is for its variations and its PDF: at least 30 days from today.
 */
export function linkExpiry(d: Pick<DocumentView, 'type' | 'status' | 'validUntil' | 'dueDate'>, today: LocalDate): LocalDate {
  if (d.type === 'quote') {
    const base = d.validUntil ?? addDays(today, QUOTE_LINK_DAYS);
    const least = addDays(today, QUOTE_LINK_DAYS);
    return d.status === 'accepted' && base < least ? least : base;
  }
  return addDays(d.dueDate, INVOICE_LINK_DAYS_AFTER_DUE);
}

export interface ActiveLink {
  id: string;
  kind: LinkKind;
  token: string;
  url: string;
  issuedAt: string;
  expiresOn: LocalDate;
}

interface LinkRow {
  id: string;
  kind: LinkKind;
  token_enc: string;
  issued_at: string | Date;
  expires_on: string;
}

const iso = (v: string | Date): string => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());

async function linkRow(sql: Sql, accountId: string, linkId: string): Promise<LinkRow | undefined> {
  const [row] = await sql.query<LinkRow>(
    'SELECT id, kind, token_enc, issued_at, expires_on::text AS expires_on FROM client_links WHERE account_id = $1 AND id = $2',
    [accountId, linkId],
  );
  return row;
}

function activeOf(deps: Pick<AppDeps, 'secrets' | 'config'>, accountId: string, row: LinkRow): ActiveLink {
  const token = openToken(deps.secrets, accountId, row.id, row.token_enc);
  return { id: row.id, kind: row.kind, token, url: linkUrl(deps.config.appUrl, row.kind, token), issuedAt: iso(row.issued_at), expiresOn: row.expires_on.slice(0, 10) as LocalDate };
}

/** The document's link that works now, or null (none issued, or the last one withdrawn or superseded). */
export async function activeLinkOf(deps: Pick<AppDeps, 'secrets' | 'config'>, sql: Sql, accountId: string, d: DocumentView): Promise<ActiveLink | null> {
  if (!d.clientLink) return null;
  const row = await linkRow(sql, accountId, d.clientLink.linkId);
  if (!row) return null;
  try {
    return activeOf(deps, accountId, row);
  } catch {
    // Sealed with a secret this server no longer has (APP_SECRET changed without
    // APP_SECRET_PREVIOUS, or an import from another install): the address cannot be shown again,
    // so it is treated as gone and a new link supersedes it when one is needed.
    return null;
  }
}

/**
 * Inside a document command: the document's active link, or a new one (192 random bits; the
 * row keeps its SHA-256 and a sealed copy) issued on its stream in the same transaction.
 */
export async function ensureLinkIn(w: DocumentWork, deps: Pick<AppDeps, 'secrets' | 'config' | 'ids' | 'clock'>, accountId: string, documentId: string): Promise<ActiveLink> {
  const loaded = await w.load(documentId);
  const existing = await activeLinkOf(deps, w.tx, accountId, loaded.state);
  if (existing) return existing;
  return issueIn(w, deps, accountId, documentId, deps.ids.uuid(), newToken());
}

/**
 * Issues the link `linkId` with `token` on the document now. A link that became active since the
 * caller looked (a concurrent request) is superseded by this one: the token is already on its way.
 */
async function issueIn(w: DocumentWork, deps: Pick<AppDeps, 'secrets' | 'config'>, accountId: string, documentId: string, linkId: string, token: string): Promise<ActiveLink> {
  let loaded = await w.load(documentId);
  const meta = w.meta();
  const other = loaded.state.clientLink;
  if (other) {
    await w.decide(loaded, { type: 'WithdrawClientLink', data: { linkId: other.linkId, reason: 'superseded' } }, { meta });
    await markWithdrawn(w.tx, accountId, other.linkId, 'superseded', meta.at);
    loaded = await w.load(documentId);
  }
  const d = loaded.state;
  const expiresOn = linkExpiry(d, w.today());
  // A link shows the document to the client: refused, like a send, while its GST can't go out.
  const gst = gstRegistrationOf(await loadBusinessSettings(w.tx, accountId));
  const decided = await w.decide(loaded, { type: 'IssueClientLink', data: { linkId, expiresOn, gst } }, { meta });
  await w.tx.query(
    `INSERT INTO client_links (id, account_id, document_id, kind, token_sha256, token_enc, issued_at, expires_on, document_version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [linkId, accountId, documentId, d.type, tokenSha256(token), sealToken(deps.secrets, accountId, linkId, token), meta.at, expiresOn, decided.version],
  );
  return { id: linkId, kind: d.type, token, url: linkUrl(deps.config.appUrl, d.type, token), issuedAt: meta.at, expiresOn };
}

/** The link an email about to be sent carries: the active one, or a new one recorded with the send. */
export interface LinkForSending {
  url: string;
  /** In the transaction that records the send: issues the new link (nothing for the active one). */
  record(w: DocumentWork): Promise<void>;
}

/**
 * `worksUntil`: the active link is used only if it works until that NZ day (a variation sent on an
 * accepted quote whose link ends soon gets a new one, which replaces it when the send is recorded).
 */
export async function linkForSending(deps: Pick<AppDeps, 'store' | 'secrets' | 'config' | 'ids'>, accountId: string, d: DocumentView, worksUntil: LocalDate | null = null): Promise<LinkForSending> {
  const active = await activeLinkOf(deps, deps.store.db, accountId, d);
  if (active && (worksUntil === null || active.expiresOn >= worksUntil)) return { url: active.url, record: async () => {} };
  const linkId = deps.ids.uuid();
  const token = newToken();
  return {
    url: linkUrl(deps.config.appUrl, d.type, token),
    async record(w) {
      await issueIn(w, deps, accountId, d.id, linkId, token);
    },
  };
}

/** How often the page's beacon counted the link, and when last. */
export async function viewsOf(sql: Sql, accountId: string, linkId: string): Promise<{ views: number; lastViewedAt: string | null }> {
  const [row] = await sql.query<{ n: number | string; last: string | Date | null }>(
    'SELECT count(*) AS n, max(at) AS last FROM client_link_views WHERE account_id = $1 AND link_id = $2',
    [accountId, linkId],
  );
  return { views: Number(row?.n ?? 0), lastViewedAt: row?.last ? iso(row.last) : null };
}

export async function linkRecordOf(sql: Sql, accountId: string, link: ActiveLink): Promise<ClientLinkRecord> {
  const v = await viewsOf(sql, accountId, link.id);
  return { id: link.id, url: link.url, issued_at: link.issuedAt, expires_on: link.expiresOn, views: v.views, last_viewed_at: v.lastViewedAt };
}

export type LinkPorts = CommandPorts;

/** POST /invoices/{id}/link: the active link, issued now when there is none. */
export function issueLink(ports: LinkPorts, actor: Actor, documentId: string): Promise<Answer<ClientLinkRecord>> {
  return runDocumentCommand(ports, actor, {}, async (w) => linkRecordOf(w.tx, actor.accountId, await ensureLinkIn(w, ports, actor.accountId, documentId)));
}

/** GET /invoices/{id}/link: the active link, or 404 when there is none. */
export async function getLink(ports: Pick<AppDeps, 'store' | 'secrets' | 'config'>, accountId: string, d: DocumentView): Promise<ClientLinkRecord> {
  const link = await activeLinkOf(ports, ports.store.db, accountId, d);
  if (!link) throw new NotFound(NO_ACTIVE_LINK);
  return linkRecordOf(ports.store.db, accountId, link);
}

/** DELETE /invoices/{id}/link: the active link stops working (410 for the client from now on). */
export async function withdrawLink(ports: LinkPorts, actor: Actor, documentId: string): Promise<void> {
  await runDocumentCommand(ports, actor, {}, async (w) => {
    const loaded = await w.load(documentId);
    const linkId = loaded.state.clientLink?.linkId;
    if (!linkId) throw new NotFound(NO_ACTIVE_LINK);
    const meta = w.meta();
    await w.decide(loaded, { type: 'WithdrawClientLink', data: { linkId, reason: 'withdrawn' } }, { meta });
    await markWithdrawn(w.tx, actor.accountId, linkId, 'withdrawn', meta.at);
  });
}

/** Keeps the row in step with the stream (the stream decides; the row says when, for people reading the table). */
export async function markWithdrawn(sql: Sql, accountId: string, linkId: string, reason: string, at: string): Promise<void> {
  await sql.query('UPDATE client_links SET withdrawn_at = $3, withdrawn_reason = $4 WHERE account_id = $1 AND id = $2 AND withdrawn_at IS NULL', [accountId, linkId, at, reason]);
}
