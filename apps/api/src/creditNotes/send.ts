// Emailing a credit note to the client, its PDF attached (POST /credit-notes/{id}/send). The same
// path as a document's send (documents/commands/send.ts): the account's address confirmed and the
// daily recipients and burst limits counted by the one send guard (documents/sendGuard.ts) before
// any mail goes; the Idempotency-Key claimed before the mail and answered in the transaction that
// records it; and what is recorded (CreditNoteEmailed) is what happened to the mail:
// - a mail server took it: 'delivered';
// - no mail server is set up (the outbox keeps it on this server): 'saved_not_delivered', answered
//   200 with the words the screen shows — nobody received it;
// - the mail server refused it for good: 'failed' with the server's answer, then 422;
// - the mail server could not be reached: nothing recorded, 503 — try again.
import { SEND_MESSAGES, type CreditNoteSendResult, type creditNoteSendInput } from '@tradie/contracts';
import { type CreditNote, type DocumentView, documentFigures, formatNzd, refundedOn, toCents } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../commands.ts';
import type { AppDeps } from '../deps.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from '../documents/commands/run.ts';
import { mailProblem, refusalDetail } from '../documents/commands/send.ts';
import { businessContactFooter, clientEnvelope, fillPlaceholders, type Placeholders } from '../documents/email.ts';
import { userNames } from '../documents/repository.ts';
import { gstRefusal, requireConfirmedEmail, sendForAccount } from '../documents/sendGuard.ts';
import { activeLinkOf } from '../clientLinks/links.ts';
import { type KeyClaim, claimKey, releaseKey, requestHash, storeAnswer } from '../http/idempotency.ts';
import { MailRejectedError, type OutgoingMail, type SentMail } from '../mail/index.ts';
import { type BusinessSettings, loadBusinessSettings } from '../settings/repository.ts';
import { loadCreditNote } from './commands.ts';
import { creditNotePdfOf } from './pdf.ts';
import { creditNoteRecordOf } from './view.ts';
import { Invalid } from '../errors.ts';

export type SendCreditNote = z.output<typeof creditNoteSendInput>;
export type SendCreditNotePorts = CommandPorts & Pick<AppDeps, 'mailer'>;

const ALREADY_SENDING = 'This credit note is already being sent. Please wait a moment and reload.';
export const NO_RECIPIENT = "The client has no email address: add one to the client, or say who the credit note goes to.";

/** What the credit note does to the invoice, in the client's words. */
function effectLine(invoice: DocumentView, note: CreditNote): string {
  const owedBack = -documentFigures(invoice).balanceCents;
  if (owedBack > 0n) return `As the invoice was already paid, ${formatNzd(owedBack)} is owed back to you.`;
  const paidBack = refundedOn(note);
  if (paidBack > 0n) return `${formatNzd(paidBack)} of it has been paid back to you.`;
  return `It reduces what is owed on invoice ${note.invoiceReference}.`;
}

/** The email: the subject and message (the request's, or ours about the credit note), the business's CC and BCC, the PDF attached. */
export function composeCreditNoteMail(input: {
  invoice: DocumentView;
  note: CreditNote;
  settings: BusinessSettings;
  yourName: string;
  userEmail: string;
  overrides: SendCreditNote;
  pdf: { bytes: Buffer; filename: string };
  mailFrom: string | undefined;
  /** The client's active link to the invoice, where the credit notes show; null when there is none. */
  invoiceLinkUrl: string | null;
}): { mail: OutgoingMail; to: string[]; cc: string[]; bcc: string[]; subject: string } {
  const { invoice: d, note, settings: s, overrides: o } = input;
  const p: Placeholders = { businessName: s.business_name.trim() || s.trading_as.trim() || input.yourName, invoiceNumber: d.reference, clientName: d.client?.name ?? '', yourName: input.yourName };
  const subject = fillPlaceholders(o.subject ?? `Credit note ${note.reference} for invoice ${d.reference} from [Business Name]`, p).replace(/[\r\n]+/g, ' ').trim();
  const defaultMessage = [
    'Hi [Client Name],',
    `Please find attached credit note ${note.reference} for invoice [Invoice Number]: ${formatNzd(toCents(note.total))}${d.gstRegistered === false ? '' : ' including GST'}.`,
    `Reason: ${note.reason.trim()}`,
    effectLine(d, note),
    'Kind regards,\n[Your Name]',
  ].join('\n\n');
  const link = input.invoiceLinkUrl ? `\n\nSee the invoice and its credit notes online: ${input.invoiceLinkUrl}` : '';
  const signature = s.email_signature.trim();
  const text = fillPlaceholders(o.message ?? defaultMessage, p) + link + (signature ? `\n\n${signature}` : '') + businessContactFooter(s);
  return clientEnvelope({
    settings: s, clientEmail: d.client?.email, overrides: o, userEmail: input.userEmail, businessName: p.businessName, mailFrom: input.mailFrom, subject, text, pdf: input.pdf, refId: note.creditNoteId,
  });
}

export async function sendCreditNote(ports: SendCreditNotePorts, actor: Actor, creditNoteId: string, input: SendCreditNote, key: string | undefined): Promise<Answer<CreditNoteSendResult>> {
  // The one send guard: an unconfirmed address sends nothing and records nothing.
  await requireConfirmedEmail(ports, actor.userId);
  const claim: KeyClaim | undefined = key ? { accountId: actor.accountId, scope: `credit-notes:send:${creditNoteId}`, key, hash: requestHash(input) } : undefined;
  if (claim) {
    const got = await claimKey(ports.store.db, claim, ALREADY_SENDING);
    if (!got.claimed) return { status: got.status, body: got.body as CreditNoteSendResult, replayed: true };
  }
  let mailed = false;
  try {
    const { invoice, note } = await loadCreditNote(ports.store, actor.accountId, creditNoteId);
    // What the business's GST registration forbids is refused before the PDF is made; sendForAccount asks again.
    const gst = await gstRefusal(ports, actor.accountId, invoice.state);
    if (gst) throw gst;
    const pdf = await creditNotePdfOf(ports, actor.accountId, creditNoteId);
    const settings = await loadBusinessSettings(ports.store.db, actor.accountId);
    const user = await userNames(ports.store.db, actor.userId);
    const link = await activeLinkOf(ports, ports.store.db, actor.accountId, invoice.state);
    const composed = composeCreditNoteMail({
      invoice: invoice.state, note, settings, yourName: user.full_name, userEmail: user.email, overrides: input,
      pdf: { bytes: pdf.bytes, filename: pdf.filename }, mailFrom: ports.config.env.MAIL_FROM, invoiceLinkUrl: link?.url ?? null,
    });
    const { to, cc, bcc, subject } = composed;
    if (to.length === 0) throw new Invalid(NO_RECIPIENT);
    // Through the one door for mail on the account's behalf (documents/sendGuard.ts): the daily
    // recipients and the burst of sends, 429 before any mail goes; given back when the mail server took nothing.
    const sent: SentMail | MailRejectedError = await sendForAccount(ports, actor.accountId, composed.mail, invoice.state).catch((e: unknown) => {
      if (e instanceof MailRejectedError) return e;
      throw e;
    });
    const invoiceId = invoice.state.id;
    /** Records one attempt (its own transaction); a delivered or outbox one is the answer, kept with the Idempotency-Key. */
    const record = (outcome: 'delivered' | 'saved_not_delivered' | 'failed', detail: string | null, who: { to: string[]; cc: string[]; bcc: string[] } = { to, cc, bcc }) =>
      runDocumentCommand(ports, actor, {}, async (w) => {
        const done = await w.decide(invoiceId, { type: 'RecordCreditNoteEmail', data: { creditNoteId, ...who, subject, outcome, detail } });
        const now = done.view.creditNotes.find((n) => n.creditNoteId === creditNoteId)!;
        if (outcome === 'failed') return null;
        const body: CreditNoteSendResult = { outcome, detail, ...who, subject, credit_note: creditNoteRecordOf(done.view, now) };
        if (claim) await storeAnswer(w.tx, claim, { status: 200, body });
        return body;
      });
    const answered = async (outcome: 'delivered' | 'saved_not_delivered', detail: string | null, who?: { to: string[]; cc: string[]; bcc: string[] }): Promise<Answer<CreditNoteSendResult>> => {
      const done = await record(outcome, detail, who);
      return { ...done, body: done.body! };
    };
    if (sent instanceof MailRejectedError) {
      await record('failed', refusalDetail(sent));
      throw sent;
    }
    mailed = true;
    if (sent.notDelivered === 'outbox') return await answered('saved_not_delivered', SEND_MESSAGES.savedNotDelivered);
    // Addresses the mail server refused did not get it: recorded on their own, with its answer.
    const refused = new Set(sent.rejected.map((a) => a.toLowerCase()));
    const keep = (list: string[]) => list.filter((a) => !refused.has(a.toLowerCase()));
    const drop = (list: string[]) => list.filter((a) => refused.has(a.toLowerCase()));
    if (refused.size > 0) {
      const why = [...refused].map((a) => sent.refusals?.[a] ?? `The mail server refused ${a}`).join('; ');
      await record('failed', why, { to: drop(to), cc: drop(cc), bcc: drop(bcc) });
    }
    return await answered('delivered', refused.size > 0 ? `Sent, but not to ${[...refused].join(', ')}` : null, { to: keep(to), cc: keep(cc), bcc: keep(bcc) });
  } catch (e) {
    if (claim && !mailed) await releaseKey(ports.store.db, claim);
    if (mailed) ports.log('error', 'a credit note was emailed but could not be recorded', { creditNoteId, error: e instanceof Error ? e.message : String(e) });
    throw mailProblem(e);
  }
}
