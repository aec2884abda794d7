// A real SMTP server on loopback that keeps every message it receives, parsed by mailparser:
// what an SMTP adapter test (or an API test that sends an invoice) checks against.
//
// STARTTLS is switched off unless asked for (its built-in certificate is self-signed, so a
// client that checks certificates refuses it), AUTH is optional and any credentials are taken unless `auth` is given.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

export interface SinkMessage {
  envelope: { mailFrom: string | null; rcptTo: string[] };
  /** The username the client authenticated as, if it did. */
  user: string | null;
  /** True when the session had been upgraded with STARTTLS. */
  secure: boolean;
  mail: ParsedMail;
  raw: Buffer;
}

export interface SmtpSinkOptions {
  /** Require these credentials (AUTH stays optional: a client without credentials still gets in). */
  auth?: { user: string; pass: string };
  /** Refuse these recipients at RCPT TO with 550 (or with `code`, e.g. 450 for a deferral). */
  rejectRecipients?: readonly string[];
  rejectCode?: number;
  /** Offer STARTTLS with smtp-server's built-in self-signed certificate (off by default). */
  starttls?: boolean;
}

export interface SmtpSink {
  host: string;
  port: number;
  /** smtp://127.0.0.1:PORT — what SMTP_URL should be. */
  url: string;
  messages: SinkMessage[];
  /** The first message (already here or yet to come) that matches; rejects after `timeoutMs`. */
  waitFor(predicate?: (m: SinkMessage) => boolean, timeoutMs?: number): Promise<SinkMessage>;
  stop(): Promise<void>;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<(m: SinkMessage) => void>();
  const refused = new Set((options.rejectRecipients ?? []).map((a) => a.toLowerCase()));

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: options.starttls ? [] : ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 200,
    size: 25 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (options.auth && (auth.username !== options.auth.user || auth.password !== options.auth.pass)) {
        const err: SMTPServerError = new Error('Invalid username or password');
        err.responseCode = 535;
        return callback(err);
      }
      callback(null, { user: auth.username ?? '' });
    },
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        const err: SMTPServerError = new Error(`<${address.address}>: Recipient address rejected: User unknown`);
        err.responseCode = options.rejectCode ?? 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (mail) => {
            const mf = session.envelope.mailFrom;
            const message: SinkMessage = {
              envelope: { mailFrom: mf ? mf.address : null, rcptTo: session.envelope.rcptTo.map((r) => r.address) },
              user: typeof session.user === 'string' ? session.user : null,
              secure: session.secure === true,
              mail,
              raw,
            };
            messages.push(message);
            for (const w of [...waiters]) w(message);
            callback();
          },
          (e: unknown) => callback(e instanceof Error ? e : new Error(String(e))),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    host: '127.0.0.1',
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate = () => true, timeoutMs = 5_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<SinkMessage>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`smtp-sink: no matching message within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        const waiter = (m: SinkMessage): void => {
          if (!predicate(m)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(m);
        };
        waiters.add(waiter);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
