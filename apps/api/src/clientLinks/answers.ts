// The client's answers through a quote's link: accept (a typed name, the terms ticked, an
// optional finger signature), decline with reasons, or ask for changes; and, once accepted, approve
// (a typed name, an optional signature) or decline each variation. Each is a document command on
// the quote's stream, in one transaction with what it stores beside it (the signature's PNG).
// Refusals come before anything is written. Accepting or approving twice with the same page is
// answered with the page again and records nothing (a double tap on a weak signal).
import { createHash } from 'node:crypto';
import { CLIENT_LINK_MESSAGES, type acceptQuoteInput, type acceptVariationInput, type declineQuoteInput, type declineVariationInput, type requestChangesInput } from '@tradie/contracts';
import { type DocumentCommand, requireOpenQuoteFor } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import sharp from 'sharp';
import type { z } from 'zod';
import { runDocumentCommand } from '../documents/commands/run.ts';
import type { LinkPorts } from './links.ts';
import { invoiceDepositOnAcceptance } from './deposit.ts';
import { type PageDeps, contentVersionOf, publicVariationsOf, quotePageOf } from './page.ts';
import { type ResolvedLinkWithDocument, resolveLinkAndDocument } from './resolve.ts';
import { Conflict, Gone, Invalid, NotFound } from '../errors.ts';

export type AcceptQuote = z.output<typeof acceptQuoteInput>;
export type DeclineQuote = z.output<typeof declineQuoteInput>;
export type RequestChanges = z.output<typeof requestChangesInput>;
export type AcceptVariation = z.output<typeof acceptVariationInput>;
export type DeclineVariation = z.output<typeof declineVariationInput>;

export type AnswerPorts = LinkPorts & PageDeps;

/** Who answered: the browser as the server saw it. */
export interface ClientSeen {
  ip: string;
  userAgent: string;
}

/** A finger signature: at most 150 KB of PNG (the contract caps its data URL at SIGNATURE_MAX_CHARS first). */
export const SIGNATURE_MAX_BYTES = 150 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const SIGNATURE_NOT_PNG = 'The signature must be a PNG image';

/** A signature drawn on a phone is a few hundred pixels wide; anything bigger than this is refused undecoded. */
export const SIGNATURE_MAX_PIXELS = 4_000_000;

/**
 * The PNG's bytes from its data URL, or the 422 the client reads: at most 150 KB, starting with
 * the PNG signature, and decoded in full and written afresh (as the logos are), so the PDF writer
 * only ever reads a PNG this code made.
 */
export async function signatureBytes(dataUrl: string): Promise<Buffer> {
  const comma = dataUrl.indexOf(',');
  const bytes = Buffer.from(dataUrl.slice(comma + 1), 'base64');
  if (bytes.length > SIGNATURE_MAX_BYTES) throw new Invalid(CLIENT_LINK_MESSAGES.signatureTooLarge);
  if (bytes.length <= PNG_SIGNATURE.length || !bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) throw new Invalid(SIGNATURE_NOT_PNG);
  try {
    return await sharp(bytes, { limitInputPixels: SIGNATURE_MAX_PIXELS, failOn: 'error', pages: 1 }).png({ compressionLevel: 9 }).toBuffer();
  } catch {
    throw new Invalid(SIGNATURE_NOT_PNG);
  }
}

const clientActor = (link: ResolvedLinkWithDocument) => ({ accountId: link.accountId, userId: `client-link:${link.linkId}` });

/** The quote page after an answer, read again after the commit. */
async function pageAfter(ports: AnswerPorts, token: string) {
  const link = await resolveLinkAndDocument(ports, token, 'quote');
  return (await quotePageOf(ports, ports.store.db, link.accountId, link.document, token)).page;
}

export async function acceptQuote(ports: AnswerPorts, token: string, input: AcceptQuote, seen: ClientSeen) {
  const link = await resolveLinkAndDocument(ports, token, 'quote');
  const png = input.signature_png ? await signatureBytes(input.signature_png) : null;
  const signatureSha256 = png ? createHash('sha256').update(png).digest('hex') : null;
  await runDocumentCommand(ports, clientActor(link), {}, async (w) => {
    const loaded = await w.load(link.documentId);
    const d = loaded.state;
    // The same acceptance again (a double tap): nothing new, the same page.
    if (d.clientAcceptance && (d.status === 'accepted' || d.status === 'converted') && d.clientAcceptance.shownSha256 === input.shown_sha256) return;
    // Answered already: say so before looking at what was sent (the decider's own rule).
    requireOpenQuoteFor(d, link.linkId);
    const { page, settings } = await quotePageOf(ports, w.tx, link.accountId, loaded, token);
    if (contentVersionOf(loaded) !== input.version || page.shown_sha256 !== input.shown_sha256) throw new Conflict(CLIENT_LINK_MESSAGES.quoteChanged);
    if (page.state === 'expired') throw new Gone(CLIENT_LINK_MESSAGES.expired);
    if (settings.quote_terms.trim() !== '' && !input.terms_accepted) throw new Invalid(CLIENT_LINK_MESSAGES.termsRequired);
    await w.decide(loaded, {
      type: 'AcceptQuoteByClient',
      data: {
        linkId: link.linkId, ip: seen.ip, userAgent: seen.userAgent, documentVersion: input.version, shownSha256: input.shown_sha256,
        signerName: input.signer_name, signatureSha256, termsAccepted: input.terms_accepted,
        // The wording itself, so the certificate quotes what was accepted whatever the settings say later.
        terms: settings.quote_terms.trim(),
      },
    });
    if (png && signatureSha256) await keepSignature(w.tx, ports, link, png, signatureSha256);
  });
  // The deposit the quote asked for, invoiced and issued now, so the page can take the client to pay it.
  await invoiceDepositOnAcceptance(ports, clientActor(link), link.documentId);
  return pageAfter(ports, token);
}

/** The signature's PNG beside the answer that names it by its SHA-256 (the certificate prints it). */
async function keepSignature(tx: Sql, ports: AnswerPorts, link: ResolvedLinkWithDocument, png: Buffer, sha256: string): Promise<void> {
  await tx.query(
    `INSERT INTO client_signatures (link_id, account_id, document_id, png, sha256, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_id, sha256) DO NOTHING`,
    [link.linkId, link.accountId, link.documentId, png, sha256, ports.clock.now().toISOString()],
  );
}

/** A variation the client can answer: on the quote this link shows, waiting for their answer. */
function variationToAnswer(link: ResolvedLinkWithDocument, variationId: string) {
  const d = link.document.state;
  const v = d.type === 'quote' ? d.variations.find((x) => x.variationId === variationId && x.status !== 'withdrawn') : undefined;
  if (!v) throw new NotFound('Variation not found');
  return v;
}

/** Approving a variation: a typed name and an optional signature, the same facts as a quote's acceptance. */
export async function acceptVariation(ports: AnswerPorts, token: string, variationId: string, input: AcceptVariation, seen: ClientSeen) {
  const link = await resolveLinkAndDocument(ports, token, 'quote');
  variationToAnswer(link, variationId);
  const png = input.signature_png ? await signatureBytes(input.signature_png) : null;
  const signatureSha256 = png ? createHash('sha256').update(png).digest('hex') : null;
  await runDocumentCommand(ports, clientActor(link), {}, async (w) => {
    const loaded = await w.load(link.documentId);
    const d = loaded.state;
    const v = d.variations.find((x) => x.variationId === variationId);
    // The same approval again (a double tap): nothing new, the same page.
    if (v?.status === 'approved' && v.clientAcceptance?.shownSha256 === input.shown_sha256) return;
    if (v && v.status !== 'awaiting_approval') throw new Conflict(CLIENT_LINK_MESSAGES.variationAnswered);
    const shown = publicVariationsOf(d).find((x) => x.id === variationId);
    if (!shown || shown.shown_sha256 !== input.shown_sha256) throw new Conflict(CLIENT_LINK_MESSAGES.variationChanged);
    await w.decide(loaded, {
      type: 'AcceptVariationByClient',
      data: { variationId, linkId: link.linkId, ip: seen.ip, userAgent: seen.userAgent, shownSha256: input.shown_sha256, signerName: input.signer_name, signatureSha256 },
    });
    if (png && signatureSha256) await keepSignature(w.tx, ports, link, png, signatureSha256);
  });
  return pageAfter(ports, token);
}

export async function declineVariation(ports: AnswerPorts, token: string, variationId: string, input: DeclineVariation, seen: ClientSeen) {
  const link = await resolveLinkAndDocument(ports, token, 'quote');
  variationToAnswer(link, variationId);
  await runDocumentCommand(ports, clientActor(link), {}, async (w) => {
    const loaded = await w.load(link.documentId);
    const v = loaded.state.variations.find((x) => x.variationId === variationId);
    if (v && v.status !== 'awaiting_approval') throw new Conflict(CLIENT_LINK_MESSAGES.variationAnswered);
    await w.decide(loaded, { type: 'DeclineVariationByClient', data: { variationId, linkId: link.linkId, ip: seen.ip, userAgent: seen.userAgent, note: input.note } });
  });
  return pageAfter(ports, token);
}

/** An answer that stores nothing beside its event: decided on a quote not answered yet, then the page again. */
async function answerQuote(ports: AnswerPorts, token: string, commandOf: (link: ResolvedLinkWithDocument) => DocumentCommand) {
  const link = await resolveLinkAndDocument(ports, token, 'quote');
  await runDocumentCommand(ports, clientActor(link), {}, async (w) => {
    const loaded = await w.load(link.documentId);
    await w.decide(loaded, commandOf(link));
  });
  return pageAfter(ports, token);
}

export const declineQuote = (ports: AnswerPorts, token: string, input: DeclineQuote, seen: ClientSeen) =>
  answerQuote(ports, token, (link) => ({ type: 'DeclineQuoteByClient', data: { linkId: link.linkId, ip: seen.ip, userAgent: seen.userAgent, reasons: input.reasons, note: input.note } }));

export const requestChanges = (ports: AnswerPorts, token: string, input: RequestChanges, seen: ClientSeen) =>
  answerQuote(ports, token, (link) => ({ type: 'RequestQuoteChanges', data: { linkId: link.linkId, ip: seen.ip, userAgent: seen.userAgent, note: input.note } }));
