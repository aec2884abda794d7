// The default adapter: every message becomes an RFC 822 .eml file in DATA_DIR/outbox, built by
// nodemailer's stream transport (the same MIME the SMTP adapter would send, CRLF line ends).
// Bcc stays in the file's headers: the outbox is a local record, nothing is delivered from it, so
// every answer says `notDelivered: 'outbox'` (a document emailed this way is not marked sent).
//
// File names sort by time: 20261105T090000123Z-<message id>.eml. Each file is written under a
// temporary name and renamed, so a reader never sees half a message.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { bareAddresses, toNodemailer } from './compose.ts';
import { MailUnavailableError, type Mailer, type OutgoingMail, type SentMail } from './mailer.ts';

export interface OutboxMailerOptions {
  dir: string;
  now: () => Date;
}

export function outboxFileName(at: Date, messageId: string): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('.', '');
  const id = messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._@-]/g, '_');
  return `${stamp}-${id}.eml`;
}

export function createOutboxMailer({ dir, now }: OutboxMailerOptions): Mailer {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'outbox',

    async send(mail: OutgoingMail): Promise<SentMail> {
      const info = await transport.sendMail(toNodemailer(mail));
      const file = join(dir, outboxFileName(now(), info.messageId));
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(`${file}.tmp`, info.message as Buffer, { flag: 'wx' });
        await rename(`${file}.tmp`, file);
      } catch (e) {
        throw new MailUnavailableError('storage', `Could not write ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      return { messageId: info.messageId, accepted: [...bareAddresses(mail.to), ...bareAddresses(mail.cc), ...bareAddresses(mail.bcc)], rejected: [], notDelivered: 'outbox' };
    },

    async close() {},
  };
}
