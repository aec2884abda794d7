// The email that carries a quote or invoice: the business settings' subject and message with
// their placeholders filled in, CC/BCC from the settings unless the request names its own, the
// tradie's address as Reply-To (From stays on our own domain: DMARC), and the PDF attached.
import { type DocumentView, type Variation, documentTotals, formatNzd, siteOnOneLine, variationName } from '@tradie/domain';
import { z } from 'zod';
import type { OutgoingMail } from '../mail/index.ts';
import { type BusinessSettings, DEFAULT_EMAIL_MESSAGE, DEFAULT_EMAIL_SUBJECT } from '../settings/repository.ts';
import type { UserNames } from './repository.ts';

export const DEFAULT_MAIL_FROM = 'no-reply@tradiequotes.nz';

/** A quote sent with the untouched default wording says "quote", not "invoice". */
const DEFAULT_QUOTE_SUBJECT = DEFAULT_EMAIL_SUBJECT.replace('Invoice', 'Quote');
const DEFAULT_QUOTE_MESSAGE = DEFAULT_EMAIL_MESSAGE.replace('attached invoice', 'attached quote');

export interface Placeholders {
  businessName: string;
  invoiceNumber: string;
  clientName: string;
  yourName: string;
  /** The document's job title ('' none). */
  jobTitle?: string;
  /** The document's site address on one line ('' none). */
  siteAddress?: string;
}

/** Fills [Business Name], [Invoice Number], [Client Name], [Your Name], [Job Title] and [Site Address] wherever they appear. */
export function fillPlaceholders(text: string, p: Placeholders): string {
  return text
    .split('[Business Name]').join(p.businessName)
    .split('[Invoice Number]').join(p.invoiceNumber)
    .split('[Client Name]').join(p.clientName)
    .split('[Your Name]').join(p.yourName)
    .split('[Job Title]').join(p.jobTitle ?? '')
    .split('[Site Address]').join(p.siteAddress ?? '');
}

/** What the job is and where, under the message: 'Job: …' and 'Site: …' (the address on one line); '' when neither is set. */
export function jobLinesOf(d: Pick<DocumentView, 'jobTitle' | 'siteAddress'>): string {
  const site = siteOnOneLine(d.siteAddress);
  const lines = [d.jobTitle.trim() ? `Job: ${d.jobTitle.trim()}` : '', site ? `Site: ${site}` : ''].filter((l) => l !== '');
  return lines.length > 0 ? `\n\n${lines.join('\n')}` : '';
}

/** A settings field holding one or more addresses ('a@x.nz, b@x.nz'); anything that is not an address is left out. */
export const addressList = (s: string): string[] =>
  s.split(/[,;\s]+/).map((a) => a.trim()).filter((a) => a !== '' && z.email().safeParse(a).success);

export interface SendOverrides {
  to?: string[] | undefined;
  cc?: string[] | undefined;
  bcc?: string[] | undefined;
  subject?: string | undefined;
  message?: string | undefined;
}

/**
 * How the client reaches the business, at the foot of every email to a client: the name, phone,
 * email and address from the settings (each left out when blank; '' when all are).
 */
export function businessContactFooter(s: Pick<BusinessSettings, 'business_name' | 'trading_as' | 'phone' | 'email' | 'address' | 'city' | 'postcode'>): string {
  const name = s.business_name.trim() || s.trading_as.trim();
  const reach = [s.phone.trim() ? `Phone ${s.phone.trim()}` : '', s.email.trim()].filter((v) => v !== '').join(' · ');
  const address = [s.address, s.city, s.postcode].map((p) => p.replace(/\s*\n\s*/g, ', ').trim()).filter((p) => p !== '').join(', ');
  const lines = [name, reach, address].filter((v) => v !== '');
  return lines.length > 0 ? `\n\n--\n${lines.join('\n')}` : '';
}

/** The line that carries the client's link in the email. */
export const clientLinkLine = (type: DocumentView['type'], url: string): string =>
  type === 'quote' ? `View and accept your quote online: ${url}` : `View and pay your invoice online: ${url}`;

export interface ComposedMail {
  mail: OutgoingMail;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
}

/**
 * The envelope every email to a client has: To (the client unless changed), Cc and Bcc from the
 * settings unless changed, Reply-To the business (else the user), From the business 'via Tradie
 * Quotes', the PDF attached and the record it is about in X-Entity-Ref-ID.
 */
export function clientEnvelope(e: {
  settings: BusinessSettings;
  clientEmail: string | undefined | null;
  overrides: SendOverrides;
  userEmail: string;
  businessName: string;
  mailFrom: string | undefined;
  subject: string;
  text: string;
  pdf: { bytes: Buffer; filename: string };
  refId: string;
}): ComposedMail {
  const { settings: s, overrides: o, subject } = e;
  const to = o.to ?? (e.clientEmail ? [e.clientEmail] : []);
  const cc = o.cc ?? addressList(s.cc_email);
  const bcc = o.bcc ?? addressList(s.bcc_email);
  const replyTo = s.email.trim() || e.userEmail;
  return {
    to,
    cc,
    bcc,
    subject,
    mail: {
      from: { name: e.businessName ? `${e.businessName} via Tradie Quotes` : 'Tradie Quotes', address: e.mailFrom ?? DEFAULT_MAIL_FROM },
      ...(replyTo ? { replyTo } : {}),
      to,
      cc,
      bcc,
      subject,
      text: e.text,
      attachments: [{ filename: e.pdf.filename, content: e.pdf.bytes, contentType: 'application/pdf' }],
      headers: { 'X-Entity-Ref-ID': e.refId },
    },
  };
}

/** The subject and the tradie's message (placeholders filled) of a document's email: the part the Send sheet shows to edit. */
function draftOf(d: DocumentView, s: BusinessSettings, user: UserNames, o: SendOverrides): { placeholders: Placeholders; subject: string; message: string } {
  const placeholders: Placeholders = {
    businessName: s.business_name.trim() || user.full_name,
    invoiceNumber: d.reference,
    clientName: d.client?.name ?? '',
    yourName: user.full_name,
    jobTitle: d.jobTitle.trim(),
    siteAddress: siteOnOneLine(d.siteAddress),
  };
  const quote = d.type === 'quote';
  // The untouched default subject names the job when it has a title: 'Quote from Kiwi Plumbing: New hot water cylinder'.
  const defaultSubject = s.default_email_subject === DEFAULT_EMAIL_SUBJECT;
  const subjectTemplate = o.subject ?? ((quote && defaultSubject ? DEFAULT_QUOTE_SUBJECT : s.default_email_subject) + (defaultSubject && placeholders.jobTitle ? ': [Job Title]' : ''));
  const messageTemplate = o.message ?? (quote && s.default_email_message === DEFAULT_EMAIL_MESSAGE ? DEFAULT_QUOTE_MESSAGE : s.default_email_message);
  return { placeholders, subject: fillPlaceholders(subjectTemplate, placeholders).replace(/[\r\n]+/g, ' ').trim(), message: fillPlaceholders(messageTemplate, placeholders) };
}

/** What follows the tradie's message in every document email, in words for the Send sheet's preview. */
export const SEND_PREVIEW_AFTER = {
  quote: 'Below your message: the job, a link for the client to view and accept the quote online, your signature and your business details. The PDF is attached.',
  invoice: 'Below your message: the job, a link for the client to view and pay the invoice online, your signature and your business details. The PDF is attached.',
} as const;

/**
 * The email a send would make with no changes (GET /invoices/{id}/send-preview): to, cc and bcc,
 * the subject and the message, from the same code the send uses, so the sheet shows what goes.
 */
export function sendDraftOf(input: { document: DocumentView; settings: BusinessSettings; user: UserNames }): { to: string[]; cc: string[]; bcc: string[]; subject: string; message: string; after: string } {
  const { document: d, settings: s, user } = input;
  const draft = draftOf(d, s, user, {});
  const envelope = composeDocumentMail({ document: d, settings: s, user, overrides: {}, pdf: { bytes: Buffer.alloc(0), filename: '' }, mailFrom: undefined });
  return { to: envelope.to, cc: envelope.cc, bcc: envelope.bcc, subject: draft.subject, message: draft.message, after: SEND_PREVIEW_AFTER[d.type === 'quote' ? 'quote' : 'invoice'] };
}

export function composeDocumentMail(input: {
  document: DocumentView;
  settings: BusinessSettings;
  user: UserNames;
  overrides: SendOverrides;
  pdf: { bytes: Buffer; filename: string };
  mailFrom: string | undefined;
  /** The client's link to the document (clientLinks/), put in the body after the message. */
  clientLinkUrl?: string | null;
  /** A payment claim's statement, amount, dates and Form 1 notice (paymentClaims/view.ts), after the message. */
  claimText?: string | null;
}): ComposedMail {
  const { document: d, settings: s, user, overrides: o } = input;
  const { placeholders, subject, message } = draftOf(d, s, user, o);
  const signature = s.email_signature.trim();
  const link = input.clientLinkUrl ? `\n\n${clientLinkLine(d.type, input.clientLinkUrl)}` : '';
  const claim = input.claimText ? `\n\n${input.claimText}` : '';
  const text = message + jobLinesOf(d) + link + (signature ? `\n\n${signature}` : '') + claim + businessContactFooter(s);
  return clientEnvelope({
    settings: s, clientEmail: d.client?.email, overrides: o, userEmail: user.email, businessName: placeholders.businessName, mailFrom: input.mailFrom, subject, text, pdf: input.pdf, refId: d.id,
  });
}

/**
 * The email that asks the client to approve a variation of the quote they accepted: what the extra
 * work is and costs, that the accepted quote stays as it is unless they approve, and the quote's
 * link where they approve or decline it. The quote's PDF (the quote as accepted, then each
 * variation with where it stands) is attached.
 */
export function composeVariationMail(input: {
  quote: DocumentView;
  variation: Variation;
  settings: BusinessSettings;
  user: UserNames;
  overrides: SendOverrides;
  pdf: { bytes: Buffer; filename: string };
  mailFrom: string | undefined;
  linkUrl: string;
}): ComposedMail {
  const { quote: d, variation: v, settings: s, user, overrides: o } = input;
  const businessName = s.business_name.trim() || user.full_name;
  const name = variationName(v);
  const totals = documentTotals(v.lines, d.gstRounding);
  const subject = (o.subject ?? `${name} to quote ${d.reference}${businessName ? ` from ${businessName}` : ''}`).replace(/[\r\n]+/g, ' ').trim();
  const greeting = d.client?.name ? `Hi ${d.client.name},` : 'Hi,';
  const lines = v.lines.map((l, i) => `- ${l.description}: ${formatNzd(totals.lines[i]!.amountCents)}${l.tax_included ? ' incl. GST' : ''}`);
  const gst = totals.gstCents === 0n ? `${name} total: ${formatNzd(totals.totalCents)}` : `${name} total: ${formatNzd(totals.totalCents)} incl. GST (${formatNzd(totals.gstCents)} GST)`;
  const message = o.message ?? [
    greeting,
    '',
    `Here is ${name} to quote ${d.reference}: extra work that is not part of the quote you accepted.`,
    ...(v.note ? ['', v.note] : []),
    '',
    ...lines,
    gst,
    '',
    'The quote you accepted stays as it is: this work is added only if you approve it.',
  ].join('\n');
  const signature = s.email_signature.trim();
  const text = `${message}\n\nApprove or decline it online: ${input.linkUrl}${signature ? `\n\n${signature}` : ''}${businessContactFooter(s)}`;
  return clientEnvelope({
    settings: s, clientEmail: d.client?.email, overrides: o, userEmail: user.email, businessName, mailFrom: input.mailFrom, subject, text, pdf: input.pdf, refId: `${d.id}/${v.variationId}`,
  });
}
