// Emailing a quote or invoice to the client with its PDF attached. The mail can't be rolled back
// with a transaction, so its Idempotency-Key is claimed (pending) in its own small transaction
// before the mail goes, and its answer stored in the transaction that records the send. A retry
// with the same key meanwhile gets 409; after, the stored answer. If the mail could not be sent
// the claim is released, so the same key may try again; if the mail went but recording failed,
// the claim stays pending: the key never sends twice. Every refusal comes before any mail goes.
//
// What is recorded is what happened to the mail (docs/api/documents.md, "Sending"):
// - a mail server took it: DocumentSent, outcome 'delivered' — the document is sent;
// - no mail server is set up (the outbox keeps it on this server): DocumentSendNotDelivered,
//   outcome 'saved_not_delivered' — answered 200, and the document is not sent;
// - the mail server refused it for good (MailRejectedError): DocumentSendNotDelivered, outcome
//   'failed' with the server's answer, then 422 — the document is not sent;
// - the mail server could not be reached (MailUnavailableError): nothing recorded, 503 — try again.
import { SEND_MESSAGES, type DocumentDetail, type SendResult, type sendDocumentInput } from '@tradie/contracts';
import type { DocumentCommand, SendNotDeliveredOutcome } from '@tradie/domain';
import { documentDecider, form1PlainText, nzDateOf, requireGstReady } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import type { AppDeps } from '../../deps.ts';
import { type KeyClaim, claimKey, releaseKey, requestHash, storeAnswer } from '../../http/idempotency.ts';
import { MailRejectedError, type SentMail } from '../../mail/index.ts';
import { linkForSending } from '../../clientLinks/links.ts';
import { claimEmailText, claimFiguresOf, stageQuoteOf } from '../../paymentClaims/view.ts';
import { composeDocumentMail } from '../email.ts';
import { pdfFileName, renderPdfFor } from '../pdf.ts';
import { gstRegistrationOf, loadBusinessSettings } from '../../settings/repository.ts';
import { loadDocument, userNames } from '../repository.ts';
import { requireConfirmedEmail, sendForAccount } from '../sendGuard.ts';
import { detailOf } from '../view.ts';
import { gstNoticeOf } from '../../reports/gstExports.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from './run.ts';
import { Invalid, RetryLater } from '../../errors.ts';

export type SendDocument = z.output<typeof sendDocumentInput>;

const ALREADY_SENDING = 'This is already being sent. Please wait a moment and reload.';

export type SendPorts = CommandPorts & Pick<AppDeps, 'renderPdf'>;

export async function sendDocument(ports: SendPorts, actor: Actor, id: string, input: SendDocument, key: string | undefined): Promise<Answer<SendResult>> {
  // No mail relay (sendGuard.ts): an unconfirmed address sends nothing and records nothing. Asked
  // first, before the PDF is made; sendForAccount asks again as the mail goes.
  await requireConfirmedEmail(ports, actor.userId);
  const claim: KeyClaim | undefined = key ? { accountId: actor.accountId, scope: `documents:send:${id}`, key, hash: requestHash(input) } : undefined;
  if (claim) {
    const got = await claimKey(ports.store.db, claim, ALREADY_SENDING);
    if (!got.claimed) return { status: got.status, body: got.body as SendResult, replayed: true };
  }
  let mailed = false;
  try {
    const loaded = await loadDocument(ports.store, actor.accountId, id);
    const d = loaded.state;
    // A send the business's GST registration forbids is refused before the PDF is made (the decider checks it again below).
    requireGstReady(d, gstRegistrationOf(await loadBusinessSettings(ports.store.db, actor.accountId)));
    const pdf = await renderPdfFor(ports, actor.accountId, d);
    const user = await userNames(ports.store.db, actor.userId);
    // The client's link goes in the email, and is recorded with the send (clientLinks/links.ts).
    const link = await linkForSending(ports, actor.accountId, d);
    const composed = composeDocumentMail({
      document: d,
      settings: pdf.settings,
      user,
      overrides: input,
      pdf: { bytes: pdf.bytes, filename: pdfFileName(d) },
      mailFrom: ports.config.env.MAIL_FROM,
      clientLinkUrl: link.url,
      claimText: d.paymentClaim ? claimEmailText(claimFiguresOf(d, await stageQuoteOf(ports.store, actor.accountId, d), nzDateOf(ports.clock.now())), form1PlainText()) : null,
    });
    const { to, cc, bcc, subject } = composed;
    const gst = gstRegistrationOf(pdf.settings);
    const sendCommand: DocumentCommand = { type: 'SendDocument', data: { to, cc, bcc, subject, gst } };
    // The decider's refusals (void, converted, no email, GST registration) come before any mail goes.
    documentDecider.decide(sendCommand, d);
    // Through the one door for mail on the account's behalf (sendGuard.ts): the account's daily
    // recipients and burst of sends, 429 before any mail goes; given back when the mail server took
    // nothing. A refusal for good is recorded on the document (below); anything else is answered as it is.
    const sent: SentMail | MailRejectedError = await sendForAccount(ports, actor.accountId, composed.mail, d).catch((e: unknown) => {
      if (e instanceof MailRejectedError) return e;
      throw e;
    });
    if (sent instanceof MailRejectedError) {
      await recordNotDelivered(ports, actor, id, { to, cc, bcc, subject, outcome: 'failed', detail: refusalDetail(sent) });
      throw sent;
    }
    mailed = true;
    const notDelivered = sent.notDelivered === 'outbox';
    // A Cc or Bcc the mail server refused (a refused To was answered above) did not get it: the
    // send is recorded for the others, and the refusal on its own with the server's answer, so the
    // document never shows as sent to that address and the home screen says so.
    const refused = new Set(sent.rejected.map((a) => a.toLowerCase()));
    const isRefused = (a: string): boolean => refused.has(a.toLowerCase());
    const refusedCc = cc.filter(isRefused);
    const refusedBcc = bcc.filter(isRefused);
    const refusedDetail = [...refusedCc, ...refusedBcc].map((a) => sent.refusals?.[a.toLowerCase()] ?? `The mail server refused ${a}`).join('; ');
    return await runDocumentCommand(ports, actor, {}, async (w) => {
      await link.record(w);
      const done = notDelivered
        ? await w.decide(id, { type: 'RecordUndeliveredSend', data: { to, cc, bcc, subject, outcome: 'saved_not_delivered', detail: SEND_MESSAGES.savedNotDelivered } })
        : await w.decide(id, refused.size === 0 ? sendCommand : { type: 'SendDocument', data: { to, cc: cc.filter((a) => !isRefused(a)), bcc: bcc.filter((a) => !isRefused(a)), subject, gst } });
      if (!notDelivered && refused.size > 0) {
        await w.decide(id, { type: 'RecordUndeliveredSend', data: { to: [], cc: refusedCc, bcc: refusedBcc, subject, outcome: 'failed', detail: refusedDetail } });
      }
      const detail: DocumentDetail = detailOf(done.view, done.version, w.today(), await gstNoticeOf(w.tx, actor.accountId, done.view));
      await w.decide(id, { type: 'RecordPdf', data: { sha256: pdf.sha256 } });
      const at = ports.clock.now().toISOString();
      const result: SendResult = {
        id, status: detail.status, to, cc: cc.filter((a) => !isRefused(a)), bcc: bcc.filter((a) => !isRefused(a)), subject, message_id: sent.messageId, sent_at: at,
        outcome: notDelivered ? 'saved_not_delivered' : 'delivered',
        detail: notDelivered ? SEND_MESSAGES.savedNotDelivered : refused.size > 0 ? `Sent, but not to ${[...refusedCc, ...refusedBcc].join(', ')}: ${refusedDetail}` : null,
        gst_notice: detail.gst_notice,
      };
      if (claim) await storeAnswer(w.tx, claim, { status: 200, body: result });
      return result;
    });
  } catch (e) {
    if (claim && !mailed) await releaseKey(ports.store.db, claim);
    if (mailed) ports.log('error', 'an email was sent but could not be recorded', { documentId: id, error: e instanceof Error ? e.message : String(e) });
    throw mailProblem(e);
  }
}

/** What a refusal records: the mail server's own answer when it gave one. */
export function refusalDetail(e: MailRejectedError): string {
  return e.serverAnswer ? `The mail server refused it: ${e.serverAnswer}` : e.detail;
}

/**
 * Records an attempt that delivered nothing, in its own transaction (the answer to the request is
 * the refusal, so there is no Idempotency-Key answer to store with it).
 */
async function recordNotDelivered(
  ports: SendPorts,
  actor: Actor,
  id: string,
  data: { to: string[]; cc: string[]; bcc: string[]; subject: string; outcome: SendNotDeliveredOutcome; detail: string },
): Promise<void> {
  await runDocumentCommand(ports, actor, {}, async (w) => {
    await w.decide(id, { type: 'RecordUndeliveredSend', data });
  });
}

/** The mail server's refusals as answers: 503 (try again in a minute) when it is down, 422 when it refused the message. */
export function mailProblem(e: unknown): unknown {
  const mailError = e as { code?: unknown; detail?: unknown };
  if (mailError?.code === 'MAIL_UNAVAILABLE') return new RetryLater(typeof mailError.detail === 'string' ? mailError.detail : "We couldn't send the email right now. Please try again in a few minutes.", undefined, 60);
  if (mailError?.code === 'MAIL_REJECTED' && typeof mailError.detail === 'string') return new Invalid(mailError.detail);
  return e;
}
