// The Mailer port: send one email. Two adapters: SMTP (smtpMailer.ts, when SMTP_URL is set)
// and the outbox of .eml files in DATA_DIR/outbox (outboxMailer.ts, the default). Both build
// the message with nodemailer, so what lands in the outbox is what SMTP would have sent.

export type MailAddress = string | { name: string; address: string };

export interface MailAttachment {
  filename: string;
  content: Buffer | Uint8Array;
  contentType: string;
}

export interface OutgoingMail {
  from: MailAddress;
  /** Put the tradie's own address here, not in `from` (DMARC alignment). */
  replyTo?: MailAddress;
  to: MailAddress[];
  cc?: MailAddress[];
  bcc?: MailAddress[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** Extra headers, e.g. `X-Entity-Ref-ID` with the document id. */
  headers?: Record<string, string>;
}

export interface SentMail {
  /** The Message-ID header, with its angle brackets. */
  messageId: string;
  /** Envelope recipients the server took (the outbox takes all). */
  accepted: string[];
  /** Cc/Bcc recipients the server refused; a refused To recipient throws MailRejectedError instead. */
  rejected: string[];
  /** The server's answer to each refused recipient, by lower-cased address, when it gave one. */
  refusals?: Record<string, string>;
  /**
   * Set when the message was only kept on this server and nobody received it: 'outbox' (no mail
   * server is set up, outboxMailer.ts). Absent when a mail server took it for delivery.
   */
  notDelivered?: 'outbox';
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<SentMail>;
  /** Releases connections (SMTP); a no-op for the outbox. */
  close(): Promise<void>;
}

export type MailErrorCode = 'MAIL_UNAVAILABLE' | 'MAIL_REJECTED';

export class MailError extends Error {
  readonly code: MailErrorCode;
  /** What a person may read. */
  readonly detail: string;
  constructor(code: MailErrorCode, detail: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MailError';
    this.code = code;
    this.detail = detail;
  }
}

export type MailUnavailableReason = 'connection' | 'timeout' | 'tls' | 'auth' | 'temporary' | 'protocol' | 'storage';

/**
 * 503: the mail server could not be reached, timed out, refused our credentials or TLS, or
 * deferred the message (4xx). Nothing was sent; the API must not mark anything sent.
 */
export class MailUnavailableError extends MailError {
  readonly reason: MailUnavailableReason;
  constructor(reason: MailUnavailableReason, message: string, options?: ErrorOptions) {
    super('MAIL_UNAVAILABLE', "We couldn't send the email right now. Please try again in a few minutes.", message, options);
    this.name = 'MailUnavailableError';
    this.reason = reason;
  }
}

/**
 * 422: the server refused a To recipient for good (5xx), or the message itself. `delivered`
 * says whether other recipients (Cc, Bcc, other To) did get it, so a retry may repeat it for them.
 */
export class MailRejectedError extends MailError {
  readonly rejected: readonly string[];
  readonly delivered: boolean;
  /** The mail server's own answer (e.g. '550 5.1.1 <gone@example.nz>: Recipient address rejected: User unknown'), when it gave one. */
  readonly serverAnswer: string | null;
  constructor(rejected: readonly string[], delivered: boolean, message: string, options?: ErrorOptions & { serverAnswer?: string | undefined }) {
    const detail =
      rejected.length > 0
        ? `The mail server refused ${rejected.join(', ')}. Please check the email address and try again.`
        : 'The mail server refused the email. Please try again, or contact support if it keeps happening.';
    super('MAIL_REJECTED', detail, message, options);
    this.name = 'MailRejectedError';
    this.rejected = rejected;
    this.delivered = delivered;
    this.serverAnswer = options?.serverAnswer?.trim() || null;
  }
}

export const addressOf = (a: MailAddress): string => (typeof a === 'string' ? a : a.address);
