// The default mailer: .eml files in DATA_DIR/outbox, read back with mailparser.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addressesOf, readOutbox } from '@tradie/testkit/outbox';
import { createOutboxMailer, mailerFromEnv, MailUnavailableError, outboxFileName, type OutgoingMail } from '../../src/mail/index.ts';

const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0, 1, 2, 253, 254, 255]), Buffer.from('\n%%EOF\n')]);
const mail: OutgoingMail = {
  from: 'Tradie Quotes <no-reply@tradie.test>',
  to: ['sam@sparky.co.nz'],
  cc: ['office@sparky.co.nz'],
  bcc: ['books@sparky.co.nz'],
  subject: 'Reset your password',
  text: 'Open this link to choose a new password: http://localhost:3000/reset-password?token=abc123',
  attachments: [{ filename: 'INV-0007.pdf', content: pdf, contentType: 'application/pdf' }],
};

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'outbox-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('outbox mailer', () => {
  it('writes each message as a parseable RFC 822 .eml file named by time and message id', async () => {
    let clock = new Date('2026-11-05T09:00:00.123Z');
    const mailer = mailerFromEnv({}, { dataDir, now: () => clock });
    expect(mailer.kind).toBe('outbox');

    const first = await mailer.send(mail);
    clock = new Date('2026-11-05T09:00:01.000Z');
    const second = await mailer.send({ ...mail, subject: 'Second', attachments: [] });
    expect(first.accepted).toEqual(['sam@sparky.co.nz', 'office@sparky.co.nz', 'books@sparky.co.nz']);
    // Kept here, delivered to nobody: the answer says so (a document sent this way is not marked sent).
    expect(first.notDelivered).toBe('outbox');

    const outbox = join(dataDir, 'outbox');
    const names = await readdir(outbox);
    expect(names.sort()).toEqual([outboxFileName(new Date('2026-11-05T09:00:00.123Z'), first.messageId), outboxFileName(clock, second.messageId)]);
    expect(names[0]).toMatch(/^20261105T090000123Z-[A-Za-z0-9._@-]+\.eml$/);

    const raw = await readFile(join(outbox, names.sort()[0]!), 'latin1');
    expect(raw).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(raw.includes('\r\n')).toBe(true);
    expect(raw.replace(/\r\n/g, '')).not.toContain('\n'); // CRLF line ends throughout

    const [a, b] = await readOutbox(outbox);
    expect(a!.mail.messageId).toBe(first.messageId);
    expect(a!.mail.subject).toBe('Reset your password');
    expect(a!.mail.text).toContain('http://localhost:3000/reset-password?token=abc123');
    expect(addressesOf(a!.mail.from)).toEqual(['no-reply@tradie.test']);
    expect(addressesOf(a!.mail.to)).toEqual(['sam@sparky.co.nz']);
    expect(addressesOf(a!.mail.cc)).toEqual(['office@sparky.co.nz']);
    // Kept in the local record so a test can see who would have been copied.
    expect(addressesOf(a!.mail.bcc)).toEqual(['books@sparky.co.nz']);
    expect(a!.mail.attachments).toHaveLength(1);
    expect(a!.mail.attachments[0]).toMatchObject({ filename: 'INV-0007.pdf', contentType: 'application/pdf' });
    expect(Buffer.compare(a!.mail.attachments[0]!.content, pdf)).toBe(0);
    expect(b!.mail.subject).toBe('Second');
  });

  it('reads an outbox that does not exist yet as empty, and ignores files that are not .eml', async () => {
    expect(await readOutbox(join(dataDir, 'outbox'))).toEqual([]);
    await createOutboxMailer({ dir: join(dataDir, 'outbox'), now: () => new Date() }).send(mail);
    await writeFile(join(dataDir, 'outbox', 'zzz.eml.tmp'), 'half a mess');
    expect(await readOutbox(join(dataDir, 'outbox'))).toHaveLength(1);
  });

  it('a directory it cannot write is MailUnavailableError(storage)', async () => {
    const blocker = join(dataDir, 'not-a-dir');
    await writeFile(blocker, 'a file where the outbox should be');
    const error = await createOutboxMailer({ dir: blocker, now: () => new Date() }).send(mail).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailUnavailableError);
    expect(error).toMatchObject({ reason: 'storage' });
  });
});
