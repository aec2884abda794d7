// The client hears back when they accept a quote through its link: an email to the quote's client
// confirming the acceptance, with the signed PDF attached (the quote, the terms they accepted and
// the acceptance certificate with their signature). A reaction (reactions/registry.ts), so it runs
// after the acceptance commits, at least once; each acceptance is settled once in
// client_acceptance_confirmations, so a run after the mail went sends nothing.
//
// It leaves through the account's one door for mail (documents/sendGuard.ts): it counts in the
// day's recipients and the burst, and needs a confirmed address where mail really leaves. Held back
// by a limit it waits for the window; the mail server down, it is tried again later. What could not
// go — no email address for the client, an unconfirmed address, the server refusing the client's
// address — is written down as not sent, with why: nothing says it was sent unless it was.
import { documentDecider, documentStreamId, formatNzDateTime } from '@tradie/domain';
import { loadStream } from '../commands.ts';
import type { AppDeps } from '../deps.ts';
import { businessContactFooter, DEFAULT_MAIL_FROM } from '../documents/email.ts';
import { pdfFileName, renderPdfFor } from '../documents/pdf.ts';
import { sendForAccount } from '../documents/sendGuard.ts';
import { AppError, LimitReached } from '../errors.ts';
import { MailRejectedError } from '../mail/index.ts';
import { NotBefore } from '../reactions/notBefore.ts';
import { documentIdOf } from '../reactions/documentOf.ts';
import { certificatesFor } from './pdf.ts';

type ConfirmDeps = Pick<AppDeps, 'config' | 'store' | 'clock' | 'mailer' | 'renderPdf' | 'log'>;

interface AcceptedRow {
  accountId: string;
  streamId: string;
  eventId: string;
  payload: Record<string, unknown>;
}

export type ConfirmationOutcome = 'sent' | 'no_address' | 'not_sent';

async function settle(deps: ConfirmDeps, row: AcceptedRow, documentId: string, outcome: ConfirmationOutcome, detail: string | null, sentTo: string | null): Promise<void> {
  await deps.store.db.query(
    `INSERT INTO client_acceptance_confirmations (event_id, account_id, document_id, outcome, detail, sent_to, settled_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (event_id) DO NOTHING`,
    [row.eventId, row.accountId, documentId, outcome, detail, sentTo, deps.clock.now().toISOString()],
  );
}

/** The email's words: who accepted what and when, and how to reach the business. */
export function confirmationText(p: { signerName: string; reference: string; acceptedAt: string; businessName: string; signed: boolean; footer: string }): { subject: string; text: string } {
  const from = p.businessName || 'the business';
  return {
    subject: `You accepted quote ${p.reference}${p.businessName ? ` from ${p.businessName}` : ''}`,
    text: [
      `Kia ora ${p.signerName},`,
      '',
      `Thank you for accepting quote ${p.reference} from ${from} on ${formatNzDateTime(p.acceptedAt)}.`,
      '',
      `Attached is a copy of the quote as you accepted it, with the terms and the acceptance certificate${p.signed ? ' carrying your signature' : ''}. Please keep it for your records.`,
      '',
      `If anything looks wrong, reply to this email or contact ${from} directly.`,
    ].join('\n') + p.footer,
  };
}

async function confirm(deps: ConfirmDeps, row: AcceptedRow): Promise<void> {
  const db = deps.store.db;
  const [done] = await db.query('SELECT 1 FROM client_acceptance_confirmations WHERE event_id = $1', [row.eventId]);
  if (done) return;
  const documentId = documentIdOf(row);
  const loaded = await loadStream(deps.store, documentStreamId(documentId), documentDecider);
  const d = loaded.state;
  if (d.status === 'none' || loaded.events[0]?.meta.accountId !== row.accountId || !d.clientAcceptance) return;
  const to = d.client?.email.trim() ?? '';
  if (to === '') {
    await settle(deps, row, documentId, 'no_address', "The client has no email address, so they weren't sent a copy.", null);
    return;
  }
  const pdf = await renderPdfFor(deps, row.accountId, d, ...(await certificatesFor(db, row.accountId, d)));
  const s = pdf.settings;
  const businessName = s.business_name.trim() || s.trading_as.trim();
  const { subject, text } = confirmationText({
    signerName: d.clientAcceptance.signerName,
    reference: d.reference,
    acceptedAt: d.clientAcceptance.at ?? d.acceptedAt ?? deps.clock.now().toISOString(),
    businessName,
    signed: d.clientAcceptance.signatureSha256 !== null,
    footer: businessContactFooter(s),
  });
  const now = deps.clock.now();
  try {
    await sendForAccount(deps, row.accountId, {
      from: { name: businessName ? `${businessName} via Tradie Quotes` : 'Tradie Quotes', address: deps.config.env.MAIL_FROM ?? DEFAULT_MAIL_FROM },
      ...(s.email.trim() ? { replyTo: s.email.trim() } : {}),
      to: [to],
      subject,
      text,
      attachments: [{ filename: pdfFileName(d), content: pdf.bytes, contentType: 'application/pdf' }],
      headers: { 'X-Entity-Ref-ID': `${documentId}/acceptance-confirmation` },
    });
  } catch (e) {
    if (e instanceof LimitReached) {
      const seconds = e.retryAfter ?? 0;
      throw new NotBefore(new Date(now.getTime() + (seconds > 0 ? seconds : 60) * 1000), `held back by the account's sending limits: ${e.detail}`);
    }
    // An unconfirmed address where mail really leaves, or the server refusing the client's address:
    // trying again will not help. Written down, with why; the server being down is tried again.
    if (e instanceof AppError || e instanceof MailRejectedError) {
      await settle(deps, row, documentId, 'not_sent', e.detail, to);
      return;
    }
    throw e;
  }
  await settle(deps, row, documentId, 'sent', null, to);
}

/** The reaction (registered in reactions/registry.ts REACTIONS). */
export const acceptanceConfirmation = { name: 'client-acceptance-confirmation', on: ['QuoteAcceptedByClient'] as const, handle: confirm };
