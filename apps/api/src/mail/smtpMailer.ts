// The SMTP adapter: nodemailer over SMTP from SMTP_URL.
//
//   smtp://user:pass@host:587   plain connection, upgraded with STARTTLS whenever the server
//                               offers it (add ?requireTLS=true to refuse a server that doesn't)
//   smtps://user:pass@host:465  TLS from the first byte
// Credentials are percent-decoded; query parameters become nodemailer options
// (e.g. ?name=app.example.nz for the EHLO name, ?tls.servername=...).
//
// Timeouts are short so a dead server fails in seconds, not nodemailer's minutes: the API
// answers 503 and marks nothing sent.
import { createTransport } from 'nodemailer';
import type { NodemailerError } from 'nodemailer/lib/errors';
import { bareAddresses, toNodemailer } from './compose.ts';
import { MailRejectedError, MailUnavailableError, type Mailer, type MailUnavailableReason, type OutgoingMail, type SentMail } from './mailer.ts';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port or smtps://... */
  url: string;
  /** TCP connect, ms. Default 5 s. */
  connectionTimeout?: number;
  /** From connect to the server's 220 greeting, ms. Default 5 s. */
  greetingTimeout?: number;
  /** Silence on an open connection, ms. Default 15 s. */
  socketTimeout?: number;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const protocol = new URL(options.url).protocol;
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new Error(`SMTP_URL must start smtp:// or smtps://, got ${protocol}//`);
  const transport = createTransport({
    url: options.url,
    connectionTimeout: options.connectionTimeout ?? 5_000,
    greetingTimeout: options.greetingTimeout ?? 5_000,
    socketTimeout: options.socketTimeout ?? 15_000,
    dnsTimeout: options.connectionTimeout ?? 5_000,
  });

  return {
    kind: 'smtp',

    async send(mail: OutgoingMail): Promise<SentMail> {
      let info;
      try {
        info = await transport.sendMail(toNodemailer(mail));
      } catch (e) {
        throw mapSmtpError(e as NodemailerError);
      }
      const rejected = info.rejected.map((a) => String(a).toLowerCase());
      const to = new Set(bareAddresses(mail.to));
      const rejectedTo = rejected.filter((a) => to.has(a));
      // The server's own answer to each refused recipient (its RCPT TO reply).
      const answers = (info as { rejectedErrors?: { recipient?: string; response?: string }[] }).rejectedErrors ?? [];
      if (rejectedTo.length > 0) {
        const answer = answers.find((r) => r.recipient !== undefined && to.has(r.recipient.toLowerCase()))?.response;
        throw new MailRejectedError(rejectedTo, info.accepted.length > 0, `SMTP server refused To recipient(s) ${rejectedTo.join(', ')}: ${answer ?? info.response}`, { serverAnswer: answer });
      }
      const refusals: Record<string, string> = {};
      for (const r of answers) if (r.recipient && r.response) refusals[r.recipient.toLowerCase()] = r.response.trim();
      return { messageId: info.messageId, accepted: info.accepted.map((a) => String(a).toLowerCase()), rejected, ...(rejected.length > 0 ? { refusals } : {}) };
    },

    async close() {
      transport.close();
    },
  };
}

// Node's TLS failures (a bad, expired or self-signed certificate) reach us as ESOCKET.
const TLS_FAILURE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME|ALTNAME/;

export function mapSmtpError(e: NodemailerError & { rejected?: string[]; originalCode?: string; response?: string }): Error {
  const message = `SMTP send failed (${e.code ?? 'no code'}${e.responseCode ? ` ${e.responseCode}` : ''}): ${e.message}`;
  const options = { cause: e };
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') {
    // 4xx: deferred (greylisting, a full mailbox, a busy server): try again later.
    if (e.responseCode !== undefined && e.responseCode < 500) return new MailUnavailableError('temporary', message, options);
    if (e.responseCode !== undefined) return new MailRejectedError((e.rejected ?? []).map((a) => a.toLowerCase()), false, message, { ...options, serverAnswer: e.response });
  }
  const reason: MailUnavailableReason =
    e.code === 'ETIMEDOUT'
      ? 'timeout'
      : e.code === 'ETLS' || e.code === 'EREQUIRETLS' || TLS_FAILURE.test(e.originalCode ?? '')
        ? 'tls'
        : e.code === 'EAUTH' || e.code === 'ENOAUTH'
          ? 'auth'
          : e.code === 'EPROTOCOL' || e.code === 'EENVELOPE' || e.code === 'EMESSAGE'
            ? 'protocol'
            : 'connection';
  return new MailUnavailableError(reason, message, options);
}
