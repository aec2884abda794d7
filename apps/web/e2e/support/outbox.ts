/**
 * The emails the e2e API servers "sent": with no SMTP_URL the API writes each message as an .eml
 * file to DATA_DIR/outbox. playwright.config.ts puts the data directories in E2E_DATA_DIR (the main
 * server) and E2E_SHORT_TTL_DATA_DIR (the short-token server).
 */
import { join } from 'node:path';
import { addressesOf, waitForOutbox, type OutboxMessage } from '@tradie/testkit/outbox';

export function outboxDir(server: 'main' | 'shortTtl' = 'main'): string {
  const dir = server === 'main' ? process.env.E2E_DATA_DIR : process.env.E2E_SHORT_TTL_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the tests through apps/web/playwright.config.ts');
  return join(dir, 'outbox');
}

/** Waits for the newest message to `email` whose subject contains `subject`. */
export function waitForEmailTo(email: string, subject = '', server: 'main' | 'shortTtl' = 'main'): Promise<OutboxMessage> {
  const to = email.toLowerCase();
  return waitForOutbox(outboxDir(server), (m) => addressesOf(m.mail.to).includes(to) && (m.mail.subject ?? '').includes(subject), 10_000);
}

/** The first http(s) link in a message's text. */
export function firstLink(message: OutboxMessage): string {
  const found = /https?:\/\/\S+/.exec(message.mail.text ?? '');
  if (!found) throw new Error(`no link in the email '${message.mail.subject ?? ''}'`);
  return found[0];
}
