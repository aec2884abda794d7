// /api/v1/security/* — the account's security activity (the audit log) as Settings → Security shows
// it. Shared by the API (validation, the sentences) and the screen.
import { z } from 'zod';

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;

/** What a detail may hold: flat, small values (the API's recordAudit writes only these). */
export type AuditDetail = Record<string, string | number | boolean | null>;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * One plain-English sentence per kind of entry, for people rather than logs. A kind added later
 * without a sentence here reads as its name ('some_new_kind' → 'Some new kind').
 */
export const AUDIT_DESCRIPTIONS = {
  signed_in: () => 'Signed in',
  sign_in_failed: () => 'Failed sign-in attempt',
  signed_out: () => 'Signed out',
  signed_out_everywhere: () => 'Signed out of every device',
  password_changed: () => 'Password changed',
  password_reset_requested: () => 'Password reset link requested',
  password_reset: () => 'Password reset',
  session_reuse_detected: () => 'A reused session token was detected — every device was signed out',
  email_confirmed: () => 'Email address confirmed',
  xero_connected: (detail: AuditDetail) => (text(detail.organisation) ? `Connected to Xero (${text(detail.organisation)})` : 'Connected to Xero'),
  xero_disconnected: () => 'Disconnected from Xero',
  data_exported: () => 'Downloaded a copy of your data',
  account_deleted: () => 'Asked for the account to be deleted',
  email_change_requested: (detail: AuditDetail) => (text(detail.new_email) ? `Asked to change the email address to ${text(detail.new_email)}` : 'Asked to change the email address'),
  email_changed: () => 'Email address changed',
  email_change_cancelled: (detail: AuditDetail) =>
    `Cancelled the change of the email address${text(detail.new_email) ? ` to ${text(detail.new_email)}` : ''} from the emailed link — every device was signed out`,
} as const satisfies Record<string, (detail: AuditDetail) => string>;

export type DescribedAuditKind = keyof typeof AUDIT_DESCRIPTIONS;

export function describeAuditEntry(kind: string, detail: AuditDetail = {}): string {
  const describe = (AUDIT_DESCRIPTIONS as Record<string, ((d: AuditDetail) => string) | undefined>)[kind];
  if (describe) return describe(detail);
  const words = kind.replace(/[_-]+/g, ' ').trim();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : 'Account activity';
}

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${AUDIT_PAGE.maxLimit}`;
const BEFORE_MESSAGE = 'before must be the id of an entry (a whole number)';

/** GET /security/audit?limit=50&before=<id>: newest first; `before` is the `next_before` of the previous page. */
export const auditLogQuery = z.object({
  limit: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return AUDIT_PAGE.defaultLimit;
      const n = /^\d{1,4}$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > AUDIT_PAGE.maxLimit) {
        ctx.addIssue({ code: 'custom', message: LIMIT_MESSAGE });
        return z.NEVER;
      }
      return n;
    }),
  before: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return null;
      // Ids are bigserial: at most 18 digits stays inside a bigint.
      if (!/^[1-9]\d{0,17}$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: BEFORE_MESSAGE });
        return z.NEVER;
      }
      return v;
    }),
});
export type AuditLogQuery = z.input<typeof auditLogQuery>;

export const auditLogEntry = z.object({
  /** The entry's id (digits, as a string); pass it as `before` to page on. */
  id: z.string(),
  /** ISO 8601 instant. */
  at: z.string(),
  kind: z.string(),
  /** The client's address as the server saw it ('unknown' when it could not tell); null when not recorded. */
  ip: z.string().nullable(),
  /** The browser's User-Agent header (at most 300 characters); null when none was sent. */
  user_agent: z.string().nullable(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** What happened, as a sentence for the screen. */
  description: z.string(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntry>;

export const auditLogPage = z.object({
  items: z.array(auditLogEntry),
  /** The `before` of the next (older) page; null when this is the last one. */
  next_before: z.string().nullable(),
});
export type AuditLogPage = z.infer<typeof auditLogPage>;
