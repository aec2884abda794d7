// The one mapping from our OutgoingMail to nodemailer's message options, shared by both adapters.
import addressparser from 'nodemailer/lib/addressparser';
import type { SendMailOptions } from 'nodemailer/lib/mailer';
import type { MailAddress, OutgoingMail } from './mailer.ts';

export function toNodemailer(mail: OutgoingMail): SendMailOptions {
  if (mail.to.length === 0) throw new TypeError('An email needs at least one To recipient');
  return {
    from: mail.from,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    to: mail.to,
    cc: mail.cc ?? [],
    bcc: mail.bcc ?? [],
    subject: mail.subject,
    text: mail.text,
    ...(mail.html !== undefined ? { html: mail.html } : {}),
    attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, content: Buffer.from(a.content), contentType: a.contentType })),
    ...(mail.headers ? { headers: mail.headers } : {}),
    // Content only ever comes from our Buffers: never let a message read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** Bare, lower-cased addresses ('Sam <Sam@X.nz>' → 'sam@x.nz'), as the SMTP envelope carries them. */
export function bareAddresses(list: readonly MailAddress[] | undefined): string[] {
  return (list ?? []).flatMap((a) => (typeof a === 'string' ? addressparser(a, { flatten: true }).map((m) => m.address) : [a.address])).map((a) => a.toLowerCase());
}
