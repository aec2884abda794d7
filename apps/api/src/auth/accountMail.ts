// The emails the product sends a tradie about their own account (password reset, email
// confirmation): one sender, one greeting and sign-off, plain text.
import type { AppDeps } from '../deps.ts';
import type { SentMail } from '../mail/index.ts';

export function sendAccountMail(
  deps: Pick<AppDeps, 'mailer' | 'config'>,
  to: { email: string; full_name: string },
  subject: string,
  body: readonly string[],
): Promise<SentMail> {
  return deps.mailer.send({
    from: { name: 'Tradie Quotes', address: deps.config.env.MAIL_FROM ?? 'no-reply@tradiequotes.nz' },
    to: [to.email],
    subject,
    text: [`Kia ora ${to.full_name},`, '', ...body, '', 'Ngā mihi,', 'Tradie Quotes'].join('\n'),
  });
}
