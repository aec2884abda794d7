import { join } from 'node:path';
import type { Mailer } from './mailer.ts';
import { createOutboxMailer } from './outboxMailer.ts';
import { createSmtpMailer } from './smtpMailer.ts';

export * from './mailer.ts';
export { createOutboxMailer, outboxFileName } from './outboxMailer.ts';
export { createSmtpMailer, mapSmtpError } from './smtpMailer.ts';

/** SMTP when SMTP_URL is set, otherwise .eml files in `${dataDir}/outbox`. */
export function mailerFromEnv(env: Readonly<Record<string, string | undefined>>, deps: { dataDir: string; now: () => Date }): Mailer {
  const url = env.SMTP_URL?.trim();
  return url ? createSmtpMailer({ url }) : createOutboxMailer({ dir: join(deps.dataDir, 'outbox'), now: deps.now });
}
