// A variation of an accepted quote after it is proposed (commands/stages.ts proposes it): emailed to
// the client with the quote's link, where they approve or decline it (clientLinks/answers.ts), or
// marked approved or declined by the business on the client's word, or withdrawn. Each is a
// document command on the quote's stream; the signed quote never changes.
//
// The email goes the way a document's does (commands/send.ts): the same guard before any mail
// leaves (sendGuard.ts: a confirmed address, the account's limits), its Idempotency-Key claimed
// before the mail goes, every refusal before it goes, and what happened to the mail recorded —
// VariationSent when a mail server took it, VariationSendNotDelivered for the outbox (200) or a
// refusal (422); nothing when the mail server could not be reached (503).
import { SEND_MESSAGES, type DocumentDetail, type VariationSendResult, type sendVariationInput } from '@tradie/contracts';
import { type DocumentCommand, type SendNotDeliveredOutcome, addDays, documentDecider, nzDateOf } from '@tradie/domain';
import type { z } from 'zod';
import { linkForSending, QUOTE_LINK_DAYS } from '../../clientLinks/links.ts';
import { certificatesFor } from '../../clientLinks/pdf.ts';
import type { Actor } from '../../commands.ts';
import { type KeyClaim, claimKey, releaseKey, requestHash, storeAnswer } from '../../http/idempotency.ts';
import { MailRejectedError, type SentMail } from '../../mail/index.ts';
import { composeVariationMail } from '../email.ts';
import { pdfFileName, renderPdfFor } from '../pdf.ts';
import { loadDocument, userNames } from '../repository.ts';
import { gstRefusal, requireConfirmedEmail, sendForAccount } from '../sendGuard.ts';
import { detailOf } from '../view.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from './run.ts';
import { type SendPorts, mailProblem, refusalDetail } from './send.ts';
import { NotFound } from '../../errors.ts';

export type SendVariation = z.output<typeof sendVariationInput>;

/** What the business records for the client, or withdraws. */
export type VariationAnswer = 'approve' | 'decline' | 'withdraw';

const COMMANDS: Record<VariationAnswer, (variationId: string) => DocumentCommand> = {
  approve: (variationId) => ({ type: 'ApproveVariation', data: { variationId } }),
  decline: (variationId) => ({ type: 'DeclineVariation', data: { variationId } }),
  withdraw: (variationId) => ({ type: 'WithdrawVariation', data: { variationId } }),
};

/** Marks a variation approved or declined on the client's word, or withdraws it; answers the quote's detail. */
export function answerVariation(ports: CommandPorts, actor: Actor, quoteId: string, variationId: string, answer: VariationAnswer): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, {}, async (w) => {
    const decided = await w.decide(quoteId, COMMANDS[answer](variationId));
    return detailOf(decided.view, decided.version, w.today());
  });
}

const ALREADY_SENDING = 'This is already being sent. Please wait a moment and reload.';

export async function sendVariation(ports: SendPorts, actor: Actor, quoteId: string, variationId: string, input: SendVariation, key: string | undefined): Promise<Answer<VariationSendResult>> {
  // No mail relay (sendGuard.ts): an unconfirmed address sends nothing and records nothing.
  await requireConfirmedEmail(ports, actor.userId);
  const claim: KeyClaim | undefined = key ? { accountId: actor.accountId, scope: `documents:send-variation:${quoteId}:${variationId}`, key, hash: requestHash(input) } : undefined;
  if (claim) {
    const got = await claimKey(ports.store.db, claim, ALREADY_SENDING);
    if (!got.claimed) return { status: got.status, body: got.body as VariationSendResult, replayed: true };
  }
  let mailed = false;
  try {
    const loaded = await loadDocument(ports.store, actor.accountId, quoteId);
    const d = loaded.state;
    const variation = d.type === 'quote' ? d.variations.find((v) => v.variationId === variationId) : undefined;
    if (!variation) throw new NotFound('Variation not found');
    // What the business's GST registration forbids is refused before the link and the PDF are made; sendForAccount asks again.
    const gst = await gstRefusal(ports, actor.accountId, d);
    if (gst) throw gst;
    const today = nzDateOf(ports.clock.now());
    // The quote's link, working for at least a month: where the client approves or declines it.
    const link = await linkForSending(ports, actor.accountId, d, addDays(today, QUOTE_LINK_DAYS));
    const pdf = await renderPdfFor(ports, actor.accountId, d, ...(await certificatesFor(ports.store.db, actor.accountId, d)));
    const user = await userNames(ports.store.db, actor.userId);
    const composed = composeVariationMail({ quote: d, variation, settings: pdf.settings, user, overrides: input, pdf: { bytes: pdf.bytes, filename: pdfFileName(d) }, mailFrom: ports.config.env.MAIL_FROM, linkUrl: link.url });
    const { to, cc, bcc, subject } = composed;
    const sendCommand: DocumentCommand = { type: 'SendVariation', data: { variationId, to, cc, bcc, subject } };
    // The decider's refusals (not accepted, answered, withdrawn, no address) come before any mail goes.
    documentDecider.decide(sendCommand, d);
    // Through the one door for mail on the account's behalf (sendGuard.ts), as a document's send.
    const sent: SentMail | MailRejectedError = await sendForAccount(ports, actor.accountId, composed.mail, d).catch((e: unknown) => {
      if (e instanceof MailRejectedError) return e;
      throw e;
    });
    if (sent instanceof MailRejectedError) {
      await recordNotDelivered(ports, actor, quoteId, { variationId, to, cc, bcc, subject, outcome: 'failed', detail: refusalDetail(sent) });
      throw sent;
    }
    mailed = true;
    const notDelivered = sent.notDelivered === 'outbox';
    // A Cc or Bcc the mail server refused did not get it: recorded on its own, as a document's send does.
    const refused = new Set(sent.rejected.map((a) => a.toLowerCase()));
    const kept = (list: string[]): string[] => list.filter((a) => !refused.has(a.toLowerCase()));
    const refusedList = [...cc, ...bcc].filter((a) => refused.has(a.toLowerCase()));
    const refusedDetail = refusedList.map((a) => sent.refusals?.[a.toLowerCase()] ?? `The mail server refused ${a}`).join('; ');
    return await runDocumentCommand(ports, actor, {}, async (w) => {
      await link.record(w);
      const done = notDelivered
        ? await w.decide(quoteId, { type: 'RecordUndeliveredVariationSend', data: { variationId, to, cc, bcc, subject, outcome: 'saved_not_delivered', detail: SEND_MESSAGES.savedNotDelivered } })
        : await w.decide(quoteId, { type: 'SendVariation', data: { variationId, to, cc: kept(cc), bcc: kept(bcc), subject } });
      if (!notDelivered && refusedList.length > 0) {
        await w.decide(quoteId, { type: 'RecordUndeliveredVariationSend', data: { variationId, to: [], cc: cc.filter((a) => refused.has(a.toLowerCase())), bcc: bcc.filter((a) => refused.has(a.toLowerCase())), subject, outcome: 'failed', detail: refusedDetail } });
      }
      const result: VariationSendResult = {
        id: quoteId, variation_id: variationId, status: detailOf(done.view, done.version, w.today()).status, to, cc: kept(cc), bcc: kept(bcc), subject, message_id: sent.messageId,
        sent_at: ports.clock.now().toISOString(),
        outcome: notDelivered ? 'saved_not_delivered' : 'delivered',
        detail: notDelivered ? SEND_MESSAGES.savedNotDelivered : refusedList.length > 0 ? `Sent, but not to ${refusedList.join(', ')}: ${refusedDetail}` : null,
      };
      if (claim) await storeAnswer(w.tx, claim, { status: 200, body: result });
      return result;
    });
  } catch (e) {
    if (claim && !mailed) await releaseKey(ports.store.db, claim);
    if (mailed) ports.log('error', 'a variation email was sent but could not be recorded', { documentId: quoteId, variationId, error: e instanceof Error ? e.message : String(e) });
    throw mailProblem(e);
  }
}

async function recordNotDelivered(
  ports: SendPorts,
  actor: Actor,
  quoteId: string,
  data: { variationId: string; to: string[]; cc: string[]; bcc: string[]; subject: string; outcome: SendNotDeliveredOutcome; detail: string },
): Promise<void> {
  await runDocumentCommand(ports, actor, {}, async (w) => {
    await w.decide(quoteId, { type: 'RecordUndeliveredVariationSend', data });
  });
}
