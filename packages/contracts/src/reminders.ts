// Payment reminders for overdue invoices, and what happened to the emails the product sends.
//
//   GET  /reminders/settings                    reminderSettingsRecord
//   PUT  /reminders/settings                    reminderSettingsInput → reminderSettingsRecord
//   POST /reminders/settings/notice-seen        204 (the one-time "reminders are on" notice was read)
//   GET  /reminders/upcoming                    upcomingReminders (what will go in the next 7 days; nothing is sent)
//   GET  /reminders/overdue                     overdueSummary (the home screen's Overdue card)
//   GET  /reminders/invoices/{id}               invoiceReminders (what the reminders will do for this invoice, and whether one can be sent now)
//   POST /reminders/invoices/{id}/send-now      reminderSendResult (one reminder now, at most one a day)
//   PUT  /reminders/invoices/{id}/paused        remindersPausedInput → 204
//   PUT  /reminders/clients/{id}                clientRemindersInput → 204 ('No reminders' for a client)
//   GET  /reminders/clients/{id}                clientRemindersInput
//   GET  /mail/failures                         deliveryFailures (emails a mail server refused for good, not dismissed)
//   POST /mail/failures/{id}/dismiss            204
import { z } from 'zod';

/** What a reminder's subject and message may use, filled in when it goes. */
export const REMINDER_PLACEHOLDERS = ['[Business Name]', '[Invoice Number]', '[Client Name]', '[Your Name]', '[Balance]', '[Due Date]', '[Days Overdue]', '[Pay Link]'] as const;

export const REMINDER_LIMITS = { maxSteps: 8, minOffsetDays: -30, maxOffsetDays: 365, subject: 200, message: 5000, maxMinimumBalance: 1_000_000 } as const;

export const REMINDER_MESSAGES = {
  duplicateStep: 'Two reminders cannot be on the same day',
  minimumNotAmount: 'Enter the minimum balance as an amount, like 50 or 50.00',
  noSteps: 'Add at least one reminder, or turn reminders off',
  notOverdueInvoice: 'Only an issued invoice with money owing can be reminded',
  notEmailed: 'This client has no email address. Add one to the client first.',
  noticeOn: 'Payment reminders are on: overdue invoices will chase themselves. You can change or turn them off in Settings → Reminders.',
  paused: 'Reminders are paused for this invoice. Resume them to send one.',
  clientNoReminders: (client: string) => `${client || 'This client'} is set to get no reminders. Change that on the client's page to send one.`,
  oncePerDay: (from: string) => `A reminder went for this invoice in the last 24 hours. You can send another from ${from}.`,
} as const;

export const reminderStep = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, { error: 'A reminder id is 1–40 lower-case letters, digits or dashes' })
    // 'manual' is what a reminder sent by hand is recorded as.
    .refine((id) => id !== 'manual', { error: "A reminder id can't be 'manual'" }),
  /** Days after the due date (negative: before it; 0: on the due date). */
  offset_days: z
    .number({ error: 'Choose when the reminder goes, in days' })
    .int({ error: 'Choose when the reminder goes, in whole days' })
    .min(REMINDER_LIMITS.minOffsetDays, { error: `A reminder can go at most ${-REMINDER_LIMITS.minOffsetDays} days before the due date` })
    .max(REMINDER_LIMITS.maxOffsetDays, { error: `A reminder can go at most ${REMINDER_LIMITS.maxOffsetDays} days after the due date` }),
  subject: z
    .string({ error: "Each reminder's subject must be text" })
    .trim()
    .min(1, { error: 'Each reminder needs a subject' })
    .max(REMINDER_LIMITS.subject, { error: `A reminder's subject can be at most ${REMINDER_LIMITS.subject} characters` }),
  message: z
    .string({ error: "Each reminder's message must be text" })
    .trim()
    .min(1, { error: 'Each reminder needs a message' })
    .max(REMINDER_LIMITS.message, { error: `A reminder's message can be at most ${REMINDER_LIMITS.message} characters` }),
});
export type ReminderStepRecord = z.infer<typeof reminderStep>;

export const reminderSettingsInput = z
  .object({
    enabled: z.boolean({ error: 'Choose whether reminders go automatically (on or off)' }),
    steps: z.array(reminderStep, { error: 'The reminders must be a list' }).min(1, { error: REMINDER_MESSAGES.noSteps }).max(REMINDER_LIMITS.maxSteps, { error: `At most ${REMINDER_LIMITS.maxSteps} reminders` }),
    /** Dollars: an invoice owing less gets no reminder. */
    minimum_balance: z
      .number({ error: REMINDER_MESSAGES.minimumNotAmount })
      .min(0, { error: "The minimum balance can't be less than $0" })
      .max(REMINDER_LIMITS.maxMinimumBalance, { error: 'The minimum balance can be at most $1,000,000' })
      .multipleOf(0.01, { error: 'The minimum balance is in dollars and cents' }),
  })
  .superRefine((v, ctx) => {
    const offsets = v.steps.map((s) => s.offset_days);
    if (new Set(offsets).size !== offsets.length) ctx.addIssue({ code: 'custom', path: ['steps'], message: REMINDER_MESSAGES.duplicateStep });
    const ids = v.steps.map((s) => s.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['steps'], message: 'Each reminder needs its own id' });
  });
export type ReminderSettingsInput = z.input<typeof reminderSettingsInput>;

export const reminderSettingsRecord = z.object({
  enabled: z.boolean(),
  steps: z.array(reminderStep),
  minimum_balance: z.number(),
  /** The one-time notice to show ('Payment reminders are on…'); null once seen or when never turned on by default. */
  notice: z.string().nullable(),
  placeholders: z.array(z.string()),
});
export type ReminderSettingsRecord = z.infer<typeof reminderSettingsRecord>;

export const upcomingReminders = z.object({
  items: z.array(
    z.object({
      document_id: z.string(),
      reference: z.string(),
      client_name: z.string(),
      step_id: z.string(),
      /** When it will go (the first moment allowed: 08:00–18:00 NZ on a business day). */
      at: z.string(),
      formatted_balance: z.string(),
    }),
  ),
});
export type UpcomingReminders = z.infer<typeof upcomingReminders>;

export const overdueSummary = z.object({
  count: z.number().int(),
  total_owed: z.number(),
  formatted_total_owed: z.string(),
  items: z.array(
    z.object({
      document_id: z.string(),
      reference: z.string(),
      client_name: z.string(),
      due_date: z.string(),
      days_overdue: z.number().int(),
      balance: z.number(),
      formatted_balance: z.string(),
      last_reminder_at: z.string().nullable(),
      reminders_paused: z.boolean(),
    }),
  ),
});
export type OverdueSummary = z.infer<typeof overdueSummary>;

/**
 * What the automatic reminders will do for an invoice: 'planned' (the next one goes at `next_at`),
 * 'off' (turned off for the account), 'paused' (for this invoice), 'client_no_reminders', 'not_emailed'
 * (only an invoice emailed from the app is reminded), 'below_minimum' (owing less than the minimum),
 * 'all_sent' (every step has gone) or 'nothing_owing'.
 */
export const AUTOMATIC_REMINDER_STATES = ['planned', 'off', 'paused', 'client_no_reminders', 'not_emailed', 'below_minimum', 'all_sent', 'nothing_owing'] as const;

export const invoiceReminders = z.object({
  automatic: z.object({
    state: z.enum(AUTOMATIC_REMINDER_STATES),
    /** 'planned': the first moment the next one may go (08:00–18:00 NZ on a business day); null otherwise. */
    next_at: z.string().nullable(),
    /** 'planned': the next step's day, in days after the due date (negative: before it); null otherwise. */
    next_offset_days: z.number().int().nullable(),
  }),
  paused: z.boolean(),
  client_no_reminders: z.boolean(),
  send_now: z.object({
    /** Whether 'Send reminder now' would be taken now. */
    allowed: z.boolean(),
    /** Why not, in words to show beside the button; null when allowed. */
    reason: z.string().nullable(),
    /** The subject the reminder would have (the step that fits how overdue the invoice is); null when not allowed. */
    subject: z.string().nullable(),
  }),
});
export type InvoiceReminders = z.infer<typeof invoiceReminders>;

export const reminderSendResult = z.object({
  /** 'delivered': a mail server took it; 'saved_not_delivered': kept in this server's outbox. A refusal is a 422. */
  outcome: z.enum(['delivered', 'saved_not_delivered']),
  to: z.array(z.string()),
  detail: z.string().nullable(),
});
export type ReminderSendResult = z.infer<typeof reminderSendResult>;

export const remindersPausedInput = z.object({ paused: z.boolean() });
export const clientRemindersInput = z.object({ no_reminders: z.boolean() });

export const deliveryFailures = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      document_id: z.string(),
      reference: z.string(),
      kind: z.enum(['document', 'reminder']),
      recipient: z.string(),
      detail: z.string(),
      at: z.string(),
      /** 'Reminder to jo@example.com failed: mailbox unavailable' */
      text: z.string(),
    }),
  ),
});
export type DeliveryFailures = z.infer<typeof deliveryFailures>;
