// The security audit log: who signed in, failed to, changed or reset a password, ended sessions,
// connected or disconnected Xero, exported their data — per account, newest first, shown in
// Settings. Rows are written in the same transaction as the change they describe where there is one.
import type { Migration, Sql } from '@tradie/store';

export const AUDIT_KINDS = [
  'signed_in',
  'sign_in_failed',
  'signed_out',
  'signed_out_everywhere',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'session_reuse_detected',
  'email_confirmed',
  'xero_connected',
  'xero_disconnected',
  'data_exported',
  'account_deleted',
  'email_change_requested',
  'email_changed',
  'email_change_cancelled',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const auditMigrations: Migration[] = [
  {
    id: 'security-002-audit-log',
    sql: `
CREATE TABLE IF NOT EXISTS audit_log (
  id          bigserial   PRIMARY KEY,
  account_id  text        NOT NULL,
  at          timestamptz NOT NULL,
  kind        text        NOT NULL,
  ip          text,
  user_agent  text,
  detail      jsonb       NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX IF NOT EXISTS audit_log_account_at ON audit_log (account_id, at DESC, id DESC);
`,
  },
];

/** Where a request came from (its client IP and user agent): for per-IP limits and the audit entries it leaves. */
export interface RequestOrigin {
  ip: string;
  userAgent: string | undefined;
}

export interface AuditEntry {
  accountId: string;
  kind: AuditKind;
  at: Date;
  ip?: string | undefined;
  userAgent?: string | undefined;
  detail?: Record<string, string | number | boolean | null>;
}

/** The user agent as stored: bounded, so a hostile header cannot grow the table. */
const clip = (s: string | undefined, n: number): string | null => (s ? s.slice(0, n) : null);

export async function recordAudit(sql: Sql, entry: AuditEntry): Promise<void> {
  await sql.query('INSERT INTO audit_log (account_id, at, kind, ip, user_agent, detail) VALUES ($1, $2, $3, $4, $5, $6)', [
    entry.accountId,
    entry.at.toISOString(),
    entry.kind,
    clip(entry.ip, 64),
    clip(entry.userAgent, 300),
    JSON.stringify(entry.detail ?? {}),
  ]);
}
