// The email of a payment reminder: the step's subject and message with the send email's
// placeholders and the reminder's own ([Balance], [Due Date], [Days Overdue], [Pay Link]), to
// whoever the invoice was last emailed to, with the invoice's PDF attached. From stays on our
// domain and Reply-To is the tradie (as for documents). When the invoice has a link, the reminder
// always carries it: a message written without [Pay Link] gets the line at its end.
import type { ReminderStepRecord } from '@tradie/contracts';
import { type DocumentView, formatNzd, formatNzDateLong, type LocalDate } from '@tradie/domain';
import { businessContactFooter, DEFAULT_MAIL_FROM, fillPlaceholders } from '../documents/email.ts';
import type { UserNames } from '../documents/repository.ts';
import type { OutgoingMail } from '../mail/index.ts';
import type { BusinessSettings } from '../settings/repository.ts';

export interface ReminderMailInput {
  document: DocumentView;
  step: ReminderStepRecord;
  to: string[];
  balanceCents: bigint;
  daysOverdue: number;
  /** The client's invoice page (with Pay now when card payments are on), or null when there is no link. */
  payLink: string | null;
  settings: BusinessSettings;
  user: UserNames;
  pdf: { bytes: Buffer; filename: string } | null;
  mailFrom: string | undefined;
}

/** Fills the reminder's own placeholders; the send email's are filled by fillPlaceholders. */
export function fillReminderPlaceholders(text: string, p: { balance: string; dueDate: LocalDate; daysOverdue: number; payLink: string | null }): string {
  const payLine = p.payLink ? `View and pay the invoice online: ${p.payLink}` : '';
  return text
    .split('[Balance]').join(p.balance)
    .split('[Due Date]').join(formatNzDateLong(p.dueDate))
    .split('[Days Overdue]').join(String(p.daysOverdue))
    .split('[Pay Link]').join(payLine)
    // A [Pay Link] line left empty leaves no gap of blank lines.
    .replace(/\n{3,}/g, '\n\n');
}

export function composeReminderMail(input: ReminderMailInput): { mail: OutgoingMail; subject: string } {
  const { document: d, settings: s, user } = input;
  const businessName = s.business_name.trim() || user.full_name;
  const fill = (t: string): string =>
    fillReminderPlaceholders(
      fillPlaceholders(t, { businessName, invoiceNumber: d.reference, clientName: d.client?.name ?? '', yourName: user.full_name }),
      { balance: formatNzd(input.balanceCents), dueDate: d.dueDate, daysOverdue: input.daysOverdue, payLink: input.payLink },
    );
  const subject = fill(input.step.subject).replace(/[\r\n]+/g, ' ').trim();
  const message = input.payLink && !input.step.message.includes('[Pay Link]') ? `${input.step.message.trim()}\n\n[Pay Link]` : input.step.message;
  const signature = s.email_signature.trim();
  const replyTo = s.email.trim() || user.email;
  return {
    subject,
    mail: {
      from: { name: businessName ? `${businessName} via Tradie Quotes` : 'Tradie Quotes', address: input.mailFrom ?? DEFAULT_MAIL_FROM },
      ...(replyTo ? { replyTo } : {}),
      to: input.to,
      subject,
      text: fill(message).trim() + (signature ? `\n\n${signature}` : '') + businessContactFooter(s),
      attachments: input.pdf ? [{ filename: input.pdf.filename, content: input.pdf.bytes, contentType: 'application/pdf' }] : [],
      headers: { 'X-Entity-Ref-ID': `${d.id}/reminder/${input.step.id}` },
    },
  };
}
