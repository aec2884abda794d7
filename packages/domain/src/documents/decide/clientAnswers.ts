// The client's link and what the client answers through it: accept, decline, ask for changes.
import { isLocalDate } from '../../dates/dates.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { documentNoun } from '../commands.ts';
import type { DocumentEvent } from '../events.ts';
import type { DocumentView, DocumentState } from '../view.ts';
import { requireExisting, requireNotVoid, type CommandOf, requireGstReady } from './guards.ts';

/** A change to what the client was shown ends the link they were sent: they need the new one. */
export const supersedeLink = (d: DocumentView): DocumentEvent[] =>
  d.clientLink ? [{ type: 'ClientLinkWithdrawn', data: { documentId: d.id, linkId: d.clientLink.linkId, reason: 'superseded' } }] : [];

export function decideIssueClientLink(command: CommandOf<'IssueClientLink'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireNotVoid(d);
  if (d.status === 'converted') throw conflict('This quote has been converted to an invoice. Share the invoice instead.');
  if (d.clientLink) throw conflict(`This ${documentNoun(d.type)} already has a link`);
  const { gst, ...link } = command.data;
  if (!isLocalDate(link.expiresOn)) throw invalid('The link expiry is not a valid date');
  requireGstReady(d, gst);
  return [{ type: 'ClientLinkIssued', data: { documentId: d.id, ...link } }];
}

export function decideWithdrawClientLink(command: CommandOf<'WithdrawClientLink'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (d.clientLink?.linkId !== command.data.linkId) throw notFound('This link is not active');
  return [{ type: 'ClientLinkWithdrawn', data: { documentId: d.id, ...command.data } }];
}

/** What the client reads when the quote was answered already (a converted quote was accepted). */
export const QUOTE_ALREADY_ANSWERED = {
  accepted: 'You have already accepted this quote.',
  declined: 'You have already declined this quote.',
} as const;

/**
 * The quote a client answers through its link: a quote still open (sent, or a draft whose link
 * the business shared), and the link it came through is the one that works now. The link pages
 * ask it first, before they look at what the client sent, so an answered quote says so.
 */
export function requireOpenQuoteFor(state: DocumentState, linkId: string): DocumentView {
  const d = requireExisting(state);
  if (d.type !== 'quote') throw conflict('Only a quote can be answered');
  if (d.clientLink?.linkId !== linkId) throw conflict('This link no longer works');
  if (d.status === 'accepted' || d.status === 'converted') throw conflict(QUOTE_ALREADY_ANSWERED.accepted);
  if (d.status === 'declined') throw conflict(QUOTE_ALREADY_ANSWERED.declined);
  if (d.status !== 'draft' && d.status !== 'sent') throw conflict(`This quote is ${d.status === 'void' ? 'void' : d.status}, so it can't be answered`);
  return d;
}

export function decideAcceptQuoteByClient(command: CommandOf<'AcceptQuoteByClient'>, state: DocumentState): DocumentEvent[] {
  const c = command.data;
  const d = requireOpenQuoteFor(state, c.linkId);
  if (c.signerName.trim() === '') throw invalid('Please type your full name');
  return [{ type: 'QuoteAcceptedByClient', data: { documentId: d.id, ...c, signerName: c.signerName.trim() } }];
}

export function decideDeclineQuoteByClient(command: CommandOf<'DeclineQuoteByClient'>, state: DocumentState): DocumentEvent[] {
  const d = requireOpenQuoteFor(state, command.data.linkId);
  return [{ type: 'QuoteDeclinedByClient', data: { documentId: d.id, ...command.data, reasons: [...new Set(command.data.reasons)] } }];
}

export function decideRequestQuoteChanges(command: CommandOf<'RequestQuoteChanges'>, state: DocumentState): DocumentEvent[] {
  const d = requireOpenQuoteFor(state, command.data.linkId);
  if (command.data.note.trim() === '') throw invalid('Please say what you would like changed');
  return [{ type: 'QuoteChangesRequested', data: { documentId: d.id, ...command.data } }];
}
