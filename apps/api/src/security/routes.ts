// /api/v1/security/* — the signed-in account's security activity (docs/api/security.md).
//
//   GET /audit?limit=50&before=<id>  → {items, next_before}: the audit log (security/audit.ts),
//                                      newest first, this account's entries only.
//
// Pages are keyed on (at, id), the order they are shown in, so an entry recorded while someone
// pages is never shown twice or skipped. `before` names the last entry of the previous page; an id
// that is not this account's names nothing and gives an empty page.
import { type AuditDetail, type AuditLogEntry, type AuditLogPage, auditLogPage, auditLogQuery, describeAuditEntry } from '@tradie/contracts';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { parseQuery } from '../http/body.ts';
import { describe } from '../openapi/describe.ts';

interface AuditRow {
  id: string;
  at: string | Date;
  kind: string;
  ip: string | null;
  user_agent: string | null;
  detail: unknown;
}

/** jsonb arrives parsed from one driver and as text from another; only flat values are passed on. */
function detailOf(raw: unknown): AuditDetail {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return {};
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: AuditDetail = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

export async function readAuditPage(deps: Pick<AppDeps, 'store'>, accountId: string, query: { limit: number; before: string | null }): Promise<AuditLogPage> {
  const rows = await deps.store.db.query<AuditRow>(
    `SELECT id::text AS id, at, kind, ip, user_agent, detail FROM audit_log
      WHERE account_id = $1
        AND ($2::bigint IS NULL OR (at, id) < (SELECT b.at, b.id FROM audit_log b WHERE b.id = $2::bigint AND b.account_id = $1))
      ORDER BY at DESC, id DESC
      LIMIT $3`,
    [accountId, query.before, query.limit + 1],
  );
  const page = rows.slice(0, query.limit);
  const items: AuditLogEntry[] = page.map((r) => {
    const detail = detailOf(r.detail);
    return {
      id: String(r.id),
      at: new Date(r.at).toISOString(),
      kind: r.kind,
      ip: r.ip,
      user_agent: r.user_agent,
      detail,
      description: describeAuditEntry(r.kind, detail),
    };
  });
  return { items, next_before: rows.length > query.limit ? (items.at(-1)?.id ?? null) : null };
}

export function securityRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/audit', describe({ tag: 'Security', summary: "The account's security activity (sign-ins, password changes, Xero connections…), newest first, paged with `before`", query: auditLogQuery, response: { status: 200, schema: auditLogPage } }), async (c) => {
    const query = parseQuery(c, auditLogQuery);
    return c.json(await readAuditPage(deps, c.get('accountId'), query));
  });

  return r;
}
