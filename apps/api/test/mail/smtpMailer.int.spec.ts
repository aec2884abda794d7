// The SMTP adapter against a real SMTP server on loopback (smtp-server + mailparser).
import { createHash } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '@tradie/testkit/smtp-sink';
import { createSmtpMailer, mailerFromEnv, MailRejectedError, MailUnavailableError, type OutgoingMail } from '../../src/mail/index.ts';
import { addressing } from './support.ts';

// A small but real PDF: the adapter must carry its bytes unchanged.
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n' +
    '\u0000\u00ff\u0080 binary tail',
  'latin1',
);

const invoiceMail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  from: { name: 'Tāmaki Sparky via Tradie Quotes', address: 'invoices@mail.tradie.test' },
  replyTo: 'owner@tamakisparky.co.nz',
  to: ['Client Person <client@example.nz>'],
  cc: ['office@tamakisparky.co.nz'],
  bcc: [{ name: 'Books', address: 'books@tamakisparky.co.nz' }],
  subject: 'Invoice INV-0042 from Tāmaki Sparky',
  text: 'Kia ora Client,\n\nPlease find attached invoice INV-0042.\n\nNgā mihi,\nAroha',
  html: '<p>Kia ora Client,</p><p>Please find attached invoice INV-0042.</p>',
  attachments: [{ filename: 'INV-0042.pdf', content: pdf, contentType: 'application/pdf' }],
  headers: { 'X-Entity-Ref-ID': 'doc-42' },
  ...overrides,
});

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink({ rejectRecipients: ['nobody@example.nz'] });
});
afterAll(() => sink.stop());

describe('SMTP mailer → SMTP server on loopback', () => {
  it('delivers to, cc and bcc, the subject, text and the PDF attachment byte for byte', async () => {
    const mailer = createSmtpMailer({ url: sink.url });
    try {
      const sent = await mailer.send(invoiceMail());
      expect(sent.messageId).toMatch(/^<.+@mail\.tradie\.test>$/);
      expect(sent.accepted.sort()).toEqual(['books@tamakisparky.co.nz', 'client@example.nz', 'office@tamakisparky.co.nz']);
      expect(sent.rejected).toEqual([]);

      const got = await sink.waitFor((m) => m.mail.messageId === sent.messageId);
      // Bcc travels in the envelope only, never in the headers the recipients see.
      expect(addressing(got)).toEqual({
        mailFrom: 'invoices@mail.tradie.test', rcptTo: ['books@tamakisparky.co.nz', 'client@example.nz', 'office@tamakisparky.co.nz'],
        to: ['client@example.nz'], cc: ['office@tamakisparky.co.nz'], replyTo: ['owner@tamakisparky.co.nz'], bccHeader: false,
      });
      expect(got.mail.subject).toBe('Invoice INV-0042 from Tāmaki Sparky');
      expect(got.mail.text?.trim()).toBe('Kia ora Client,\n\nPlease find attached invoice INV-0042.\n\nNgā mihi,\nAroha');
      expect(got.mail.html).toContain('Please find attached invoice INV-0042.');
      expect(got.mail.headers.get('x-entity-ref-id')).toBe('doc-42');

      expect(got.mail.attachments).toHaveLength(1);
      const [att] = got.mail.attachments;
      expect(att).toMatchObject({ filename: 'INV-0042.pdf', contentType: 'application/pdf', contentDisposition: 'attachment' });
      expect(Buffer.compare(att!.content, pdf)).toBe(0);
      expect(att!.checksum).toBe(createHash('md5').update(pdf).digest('hex'));
    } finally {
      await mailer.close();
    }
  });

  it('keeps a line break in the subject from adding a header or a recipient', async () => {
    const mailer = createSmtpMailer({ url: sink.url });
    const sent = await mailer.send(invoiceMail({ subject: 'Invoice\r\nBcc: evil@attacker.test', cc: [], bcc: [] }));
    const got = await sink.waitFor((m) => m.mail.messageId === sent.messageId);
    expect(got.envelope.rcptTo).toEqual(['client@example.nz']);
    expect(got.mail.headers.has('bcc')).toBe(false);
    await mailer.close();
  });

  it('logs in with the credentials in SMTP_URL, and a wrong password is MailUnavailableError(auth)', async () => {
    const guarded = await startSmtpSink({ auth: { user: 'mailer@tradie.test', pass: 'p@ss:word' } });
    try {
      const ok = createSmtpMailer({ url: `smtp://${encodeURIComponent('mailer@tradie.test')}:${encodeURIComponent('p@ss:word')}@127.0.0.1:${guarded.port}` });
      const sent = await ok.send(invoiceMail());
      expect((await guarded.waitFor((m) => m.mail.messageId === sent.messageId)).user).toBe('mailer@tradie.test');
      await ok.close();

      const wrong = createSmtpMailer({ url: `smtp://mailer%40tradie.test:nope@127.0.0.1:${guarded.port}` });
      await expect(wrong.send(invoiceMail())).rejects.toMatchObject({ name: 'MailUnavailableError', reason: 'auth', code: 'MAIL_UNAVAILABLE' });
      await wrong.close();
    } finally {
      await guarded.stop();
    }
  });

  it('upgrades with STARTTLS when the server offers it, and checks its certificate', async () => {
    const tlsSink = await startSmtpSink({ starttls: true });
    try {
      // smtp-server's built-in certificate is self-signed: a checking client refuses it...
      const strict = createSmtpMailer({ url: tlsSink.url });
      await expect(strict.send(invoiceMail())).rejects.toMatchObject({ name: 'MailUnavailableError', reason: 'tls' });
      await strict.close();
      // ...and one told to trust it goes through encrypted.
      const trusting = createSmtpMailer({ url: `${tlsSink.url}?tls.rejectUnauthorized=false` });
      const sent = await trusting.send(invoiceMail());
      expect((await tlsSink.waitFor((m) => m.mail.messageId === sent.messageId)).secure).toBe(true);
      await trusting.close();
      expect(sink.messages.every((m) => !m.secure)).toBe(true);
    } finally {
      await tlsSink.stop();
    }
  });

  describe('refused recipients', () => {
    it('a refused To recipient is MailRejectedError, saying whether anyone else got it', async () => {
      const mailer = createSmtpMailer({ url: sink.url });
      const partly = await mailer.send(invoiceMail({ to: ['nobody@example.nz'] })).catch((e: unknown) => e);
      expect(partly).toBeInstanceOf(MailRejectedError);
      expect(partly).toMatchObject({ rejected: ['nobody@example.nz'], delivered: true, code: 'MAIL_REJECTED' });
      expect((partly as MailRejectedError).detail).toBe('The mail server refused nobody@example.nz. Please check the email address and try again.');

      const nobody = await mailer.send(invoiceMail({ to: ['Nobody <nobody@example.nz>'], cc: [], bcc: [] })).catch((e: unknown) => e);
      expect(nobody).toMatchObject({ name: 'MailRejectedError', rejected: ['nobody@example.nz'], delivered: false });
      // Both carry the server's own answer, which the document records (documents/commands/send.ts).
      for (const e of [partly, nobody]) expect((e as MailRejectedError).serverAnswer).toMatch(/^550 .*nobody@example\.nz.*Recipient address rejected: User unknown$/);
      await mailer.close();
    });

    it('a refused Cc recipient is reported, and the send stands', async () => {
      const mailer = createSmtpMailer({ url: sink.url });
      const sent = await mailer.send(invoiceMail({ cc: ['nobody@example.nz'] }));
      expect(sent.rejected).toEqual(['nobody@example.nz']);
      expect(sent.notDelivered).toBeUndefined(); // taken for delivery
      expect((await sink.waitFor((m) => m.mail.messageId === sent.messageId)).envelope.rcptTo).not.toContain('nobody@example.nz');
      await mailer.close();
    });

    it('a deferral (4xx) is MailUnavailableError(temporary): try again later', async () => {
      const busy = await startSmtpSink({ rejectRecipients: ['client@example.nz'], rejectCode: 451 });
      try {
        const mailer = createSmtpMailer({ url: busy.url });
        await expect(mailer.send(invoiceMail({ cc: [], bcc: [] }))).rejects.toMatchObject({ name: 'MailUnavailableError', reason: 'temporary' });
        await mailer.close();
      } finally {
        await busy.stop();
      }
    });
  });

  describe('a server that is down', () => {
    it('nothing listening: MailUnavailableError(connection)', async () => {
      const port = await new Promise<number>((resolve) => {
        const s = createServer().listen(0, '127.0.0.1', () => {
          const p = (s.address() as AddressInfo).port;
          s.close(() => resolve(p));
        });
      });
      const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}` });
      const error = await mailer.send(invoiceMail()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MailUnavailableError);
      expect(error).toMatchObject({ reason: 'connection', detail: "We couldn't send the email right now. Please try again in a few minutes." });
    });

    it('accepts the connection but never greets: MailUnavailableError(timeout) after the greeting timeout', async () => {
      const sockets = new Set<Socket>();
      const silent: Server = createServer((s) => sockets.add(s));
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      try {
        const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, greetingTimeout: 300 });
        await expect(mailer.send(invoiceMail())).rejects.toMatchObject({ name: 'MailUnavailableError', reason: 'timeout' });
      } finally {
        for (const s of sockets) s.destroy();
        await new Promise<void>((r) => silent.close(() => r()));
      }
    });
  });
});

describe('mailerFromEnv', () => {
  it('uses SMTP when SMTP_URL is set, the outbox otherwise', () => {
    expect(mailerFromEnv({ SMTP_URL: 'smtp://127.0.0.1:2525' }, { dataDir: '/tmp/x', now: () => new Date() }).kind).toBe('smtp');
    expect(mailerFromEnv({ SMTP_URL: '  ' }, { dataDir: '/tmp/x', now: () => new Date() }).kind).toBe('outbox');
    expect(() => createSmtpMailer({ url: 'http://127.0.0.1:25' })).toThrow(/smtp/);
  });
});
