// The account's reminder settings with their defaults, and the policy the domain's rule reads.
// Reminders are off until the account's first invoice is emailed; then they are turned on (with a
// one-time notice) unless the tradie already chose.
import {
  REMINDER_MESSAGES, REMINDER_PLACEHOLDERS, type ReminderSettingsInput, type ReminderSettingsRecord, type ReminderStepRecord, type reminderSettingsInput,
} from '@tradie/contracts';
import { centsToNumber, centsToString, type ReminderPolicy, toCents } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { z } from 'zod';

const SIGN_OFF = `If you have already paid, thank you, and please ignore this email.

Kind regards,
[Your Name]
[Business Name]`;

/** The steps a new account starts with: on the due date, then 7, 14 and 21 days overdue. */
export const DEFAULT_REMINDER_STEPS: readonly ReminderStepRecord[] = [
  {
    id: 'due', offset_days: 0, subject: 'Invoice [Invoice Number] is due today',
    message: `Hi [Client Name],\n\nA friendly reminder that invoice [Invoice Number] for [Balance] is due today, [Due Date].\n\n[Pay Link]\n\n${SIGN_OFF}`,
  },
  {
    id: 'd7', offset_days: 7, subject: 'Invoice [Invoice Number] is overdue',
    message: `Hi [Client Name],\n\nInvoice [Invoice Number] was due on [Due Date] and [Balance] is still owing ([Days Overdue] days overdue).\n\n[Pay Link]\n\n${SIGN_OFF}`,
  },
  {
    id: 'd14', offset_days: 14, subject: 'Second reminder: invoice [Invoice Number] is overdue',
    message: `Hi [Client Name],\n\nWe have not yet received payment of [Balance] for invoice [Invoice Number], due on [Due Date] ([Days Overdue] days ago). Please pay as soon as you can, or reply to let us know when to expect it.\n\n[Pay Link]\n\n${SIGN_OFF}`,
  },
  {
    id: 'd21', offset_days: 21, subject: 'Final reminder: invoice [Invoice Number] is [Days Overdue] days overdue',
    message: `Hi [Client Name],\n\nInvoice [Invoice Number] is now [Days Overdue] days overdue, with [Balance] owing. Please pay it now, or contact us today to arrange payment.\n\n[Pay Link]\n\n${SIGN_OFF}`,
  },
];

/** The optional step a tradie may add: three days before the due date. */
export const BEFORE_DUE_STEP: ReminderStepRecord = {
  id: 'before', offset_days: -3, subject: 'Invoice [Invoice Number] is due on [Due Date]',
  message: `Hi [Client Name],\n\nA heads-up that invoice [Invoice Number] for [Balance] is due on [Due Date].\n\n[Pay Link]\n\n${SIGN_OFF}`,
};

export interface ReminderSettings {
  enabled: boolean;
  steps: ReminderStepRecord[];
  minimumBalanceCents: bigint;
  noticePending: boolean;
  /** A row exists: the tradie chose, or reminders were turned on by default. */
  stored: boolean;
}

const storedSteps = z.array(z.object({ id: z.string(), offset_days: z.number().int(), subject: z.string(), message: z.string() }));

interface Row {
  enabled: boolean;
  steps: unknown;
  minimum_balance_cents: string;
  notice_pending: boolean;
}

const settingsOf = (r: Row | undefined): ReminderSettings =>
  r
    ? { enabled: r.enabled, steps: storedSteps.parse(r.steps), minimumBalanceCents: BigInt(r.minimum_balance_cents), noticePending: r.notice_pending, stored: true }
    : { enabled: false, steps: [...DEFAULT_REMINDER_STEPS], minimumBalanceCents: 0n, noticePending: false, stored: false };

export async function loadReminderSettings(sql: Sql, accountId: string): Promise<ReminderSettings> {
  const [row] = await sql.query<Row>('SELECT enabled, steps, minimum_balance_cents::text AS minimum_balance_cents, notice_pending FROM reminder_settings WHERE account_id = $1', [accountId]);
  return settingsOf(row);
}

/** The settings of every account with reminders on. */
export async function enabledReminderSettings(sql: Sql, accountId?: string): Promise<Map<string, ReminderSettings>> {
  const rows = await sql.query<Row & { account_id: string }>(
    `SELECT account_id, enabled, steps, minimum_balance_cents::text AS minimum_balance_cents, notice_pending FROM reminder_settings
     WHERE enabled${accountId === undefined ? '' : ' AND account_id = $1'}`,
    accountId === undefined ? [] : [accountId],
  );
  return new Map(rows.map((r) => [r.account_id, settingsOf(r)]));
}

export type ValidReminderSettings = z.output<typeof reminderSettingsInput>;

export async function saveReminderSettings(sql: Sql, accountId: string, input: ValidReminderSettings, now: Date): Promise<ReminderSettings> {
  const cents = toCents(input.minimum_balance.toFixed(2));
  await sql.query(
    `INSERT INTO reminder_settings (account_id, enabled, steps, minimum_balance_cents, notice_pending, updated_at) VALUES ($1, $2, $3::jsonb, $4::bigint, false, $5::timestamptz)
     ON CONFLICT (account_id) DO UPDATE SET enabled = EXCLUDED.enabled, steps = EXCLUDED.steps, minimum_balance_cents = EXCLUDED.minimum_balance_cents,
       notice_pending = false, updated_at = EXCLUDED.updated_at`,
    [accountId, input.enabled, [...input.steps].sort((a, b) => a.offset_days - b.offset_days), cents.toString(), now.toISOString()],
  );
  return loadReminderSettings(sql, accountId);
}

/** After the account's first emailed invoice: reminders on with the default steps and a notice, unless the tradie already chose. */
export async function turnOnByDefault(sql: Sql, accountId: string, now: Date): Promise<boolean> {
  const rows = await sql.query<{ account_id: string }>(
    `INSERT INTO reminder_settings (account_id, enabled, steps, minimum_balance_cents, notice_pending, updated_at) VALUES ($1, true, $2::jsonb, 0, true, $3::timestamptz)
     ON CONFLICT (account_id) DO NOTHING RETURNING account_id`,
    [accountId, DEFAULT_REMINDER_STEPS, now.toISOString()],
  );
  return rows.length > 0;
}

export async function noticeSeen(sql: Sql, accountId: string): Promise<void> {
  await sql.query('UPDATE reminder_settings SET notice_pending = false WHERE account_id = $1', [accountId]);
}

export function settingsRecordOf(s: ReminderSettings): ReminderSettingsRecord {
  return {
    enabled: s.enabled,
    steps: s.steps,
    minimum_balance: centsToNumber(s.minimumBalanceCents),
    notice: s.noticePending && s.enabled ? REMINDER_MESSAGES.noticeOn : null,
    placeholders: [...REMINDER_PLACEHOLDERS],
  };
}

/** The domain's view of the settings. */
export const policyOf = (s: ReminderSettings): ReminderPolicy => ({
  enabled: s.enabled,
  steps: s.steps.map((x) => ({ id: x.id, offsetDays: x.offset_days })),
  minimumBalance: centsToString(s.minimumBalanceCents),
});

export type { ReminderSettingsInput };

/** Clients who asked for no reminders. */
export async function optedOutClients(sql: Sql, accountIds: readonly string[]): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  const rows = await sql.query<{ account_id: string; client_id: string }>('SELECT account_id, client_id FROM reminder_client_optouts WHERE account_id = ANY($1::text[])', [accountIds]);
  return new Set(rows.map((r) => `${r.account_id}/${r.client_id}`));
}

export async function setClientOptOut(sql: Sql, accountId: string, clientId: string, noReminders: boolean, now: Date): Promise<void> {
  if (noReminders) {
    await sql.query('INSERT INTO reminder_client_optouts (account_id, client_id, created_at) VALUES ($1, $2, $3::timestamptz) ON CONFLICT DO NOTHING', [accountId, clientId, now.toISOString()]);
  } else {
    await sql.query('DELETE FROM reminder_client_optouts WHERE account_id = $1 AND client_id = $2', [accountId, clientId]);
  }
}
