// Variations of an accepted quote: extra work agreed apart from the quote the client signed. Pure.
//
// The signed quote never changes: its lines, its total and what the client's acceptance hashed stay
// as they were. A variation is its own small agreement on the quote's stream (VariationProposed):
// sent to the client, and approved or declined by them through the quote's link like a quote (a
// typed name, an optional signature, the acceptance certificate), or marked so by the business when
// the client answered in person. Only an approved variation can be invoiced.
//
// For stage invoices the quote's lines are numbered once and for good: the signed lines, then each
// variation's lines in the order they were proposed (so a StageInvoiced line index never moves,
// whatever is approved later). Each agreement is valued on its own — the signed quote's lines add
// up to its total, each approved variation's to its own total — so the stages add up to the
// quote's total plus the approved variations' totals to the cent (docs/decisions/0020-variations.md).
import { type GstRounding, documentTotals } from '../gst/gst.ts';
import { formatNzd } from '../money/money.ts';
import type { Line } from './lineValues.ts';
import { type StageBasis, stageLineValues } from './stages.ts';

export const VARIATION_STATUSES = ['awaiting_approval', 'approved', 'declined', 'withdrawn'] as const;
export type VariationStatus = (typeof VARIATION_STATUSES)[number];

export const VARIATION_STATUS_LABELS: Record<VariationStatus, string> = {
  awaiting_approval: 'Awaiting approval',
  approved: 'Approved',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};

/** An email of the variation the app sent and the mail server took (VariationSent), or one it did not deliver. */
export interface VariationSendAttempt {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  at: string | null;
  outcome: 'delivered' | 'saved_not_delivered' | 'failed';
  detail: string | null;
}

/** The client's approval through the quote's link (VariationAcceptedByClient): what the certificate states. */
export interface VariationClientAcceptance {
  linkId: string;
  shownSha256: string;
  signerName: string;
  signatureSha256: string | null;
  ip: string;
  userAgent: string;
  at: string | null;
}

export interface Variation {
  variationId: string;
  /** 1, 2, … on this quote. */
  number: number;
  /** What the variation is for, in the business's words ('' when none was given). */
  note: string;
  lines: Line[];
  /** The index of its first line among the quote's lines for stages (the signed lines, then each variation's in order). */
  firstLine: number;
  status: VariationStatus;
  /** Added to the quote before variations were agreed apart (QuoteVaried): counted as agreed, valued with the quote. */
  legacy: boolean;
  proposedAt: string | null;
  /** Every attempt to email it, in order; only the delivered ones make it sent. */
  sendLog: VariationSendAttempt[];
  approvedAt: string | null;
  /** How many stages had been invoiced (withdrawn ones included) when it was approved: a claim for an earlier stage leaves it out. */
  approvedAfterStages: number | null;
  /** Set when the client approved it through the link; null when the business marked it approved (or a legacy one). */
  clientAcceptance: VariationClientAcceptance | null;
  declinedAt: string | null;
  /** The client's note when they declined it through the link. */
  declineNote: string | null;
  declinedByClient: boolean;
  withdrawnAt: string | null;
}

/** 'Variation 1'. */
export const variationName = (v: Pick<Variation, 'number'>): string => `Variation ${v.number}`;

/** Whether it can be invoiced: approved by the client or the business (or added before approval existed). */
export const isAgreed = (v: Pick<Variation, 'status'>): boolean => v.status === 'approved';

/** How many lines the quote has for stages: its own and every variation's. */
export const quoteLineCount = (q: { lines: readonly Line[]; variations: readonly Variation[] }): number =>
  q.lines.length + q.variations.reduce((a, v) => a + v.lines.length, 0);

/** The variation's own figures: its lines as a document of their own, with the quote's GST rounding. */
export const variationTotals = (v: Pick<Variation, 'lines'>, rounding: GstRounding) => documentTotals(v.lines, rounding);

/** Why a line of a variation that is not agreed cannot be invoiced, in words a tradie reads. */
export function notAgreedReason(v: Variation, what: string): string {
  const name = variationName(v);
  if (v.status === 'awaiting_approval') return `${what} ${name}, which is awaiting the client's approval: it can be invoiced once they approve it.`;
  if (v.status === 'declined') return `${what} ${name}, which was declined: it can't be invoiced.`;
  return `${what} ${name}, which was withdrawn: it can't be invoiced.`;
}

/** A quote as far as its lines for stages go. */
export interface VariedQuote {
  lines: readonly Line[];
  gstRounding: GstRounding;
  variations: readonly Variation[];
}

export interface QuoteLines {
  /** Every line for stages: the signed lines, then each variation's lines in order. */
  lines: Line[];
  /** The same lines as a stage invoice names them ('Variation 1: Extra downpipe'). */
  labelled: Line[];
  /** The variation each line belongs to (null for the signed quote's lines). */
  variationOf: (Variation | null)[];
}

export function quoteLines(q: VariedQuote): QuoteLines {
  const lines: Line[] = [...q.lines];
  const labelled: Line[] = [...q.lines];
  const variationOf: (Variation | null)[] = q.lines.map(() => null);
  for (const v of q.variations) {
    for (const l of v.lines) {
      lines.push(l);
      labelled.push(v.legacy ? l : { ...l, description: `${variationName(v)}: ${l.description}` });
      variationOf.push(v);
    }
  }
  return { lines, labelled, variationOf };
}

/**
 * What stages are worked out over: every line, its value, and the reason a line of a variation not
 * agreed cannot be invoiced. The signed lines and the legacy variations' lines are valued together
 * (as the quote was before variations were agreed apart), each approved variation on its own.
 */
export function quoteStageBasis(q: VariedQuote): StageBasis {
  const all = quoteLines(q);
  const values: bigint[] = all.lines.map(() => 0n);
  const closed: (string | null)[] = all.variationOf.map((v, i) => (v && !isAgreed(v) ? notAgreedReason(v, `Line ${i + 1} is part of`) : null));
  const group = (indexes: number[]): void => {
    const own = stageLineValues(indexes.map((i) => all.lines[i]!), q.gstRounding);
    indexes.forEach((i, k) => (values[i] = own[k]!));
  };
  group(all.variationOf.flatMap((v, i) => (v === null || v.legacy ? [i] : [])));
  for (const v of q.variations) if (!v.legacy && isAgreed(v)) group(v.lines.map((_, k) => v.firstLine + k));
  return { lines: all.labelled, values, closed };
}

/** The quote's figures with its variations, in whole cents GST included. */
export interface AgreedFigures {
  /** The quote as the client accepted it. */
  signedCents: bigint;
  /** The approved variations together. */
  approvedCents: bigint;
  /** Variations sent or to send, not answered yet. */
  awaitingCents: bigint;
  /** What can be invoiced: the quote with its approved variations. */
  agreedCents: bigint;
}

export function agreedFigures(q: VariedQuote): AgreedFigures {
  const basis = quoteStageBasis(q);
  const agreedCents = basis.values.reduce((a, v) => a + v, 0n);
  const signedCents = documentTotals(q.lines, q.gstRounding).totalCents;
  const awaitingCents = q.variations.filter((v) => v.status === 'awaiting_approval').reduce((a, v) => a + variationTotals(v, q.gstRounding).totalCents, 0n);
  return { signedCents, approvedCents: agreedCents - signedCents, awaitingCents, agreedCents };
}

/**
 * The quote with its variations in a line, the same on the tradie's screen, the client's page and
 * the PDF: 'Accepted $2,929.66 · Variation 1 $120.00 awaiting approval'. Withdrawn variations are
 * left out.
 */
export function variationsSummary(q: VariedQuote): string {
  const parts = [`Accepted ${formatNzd(documentTotals(q.lines, q.gstRounding).totalCents)}`];
  for (const v of q.variations) {
    if (v.status === 'withdrawn') continue;
    parts.push(`${variationName(v)} ${formatNzd(variationTotals(v, q.gstRounding).totalCents)} ${VARIATION_STATUS_LABELS[v.status].toLowerCase()}`);
  }
  return parts.join(' · ');
}
