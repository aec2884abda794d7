// An invoice's credit notes in the accounting system its copy is kept in (Xero): how much of each
// credit note is applied to the invoice there, and out of which credit notes the money paid back
// here is paid there. Pure arithmetic on whole cents, worked out before any call is made, so the
// push (apps/api's integrations/xero/sync.ts) only sends what this says.
//
// There, a credit note is a document of its own with its credit; allocating it to the invoice
// lowers what the invoice owes there, and what is not allocated stays as credit on the note. Money
// paid back to the client is a cash refund out of a note's credit left.

/** A credit note of the invoice as the accounting system has it. */
export interface NoteThere {
  creditNoteId: string;
  totalCents: bigint;
  /** What of it is applied to the invoice there; null while it is not allocated yet. */
  allocatedCents: bigint | null;
}

/** What to allocate of one credit note (0 when the invoice owes nothing there any more). */
export interface Allocation {
  creditNoteId: string;
  cents: bigint;
  /** It clears what the invoice still owed there (the accounting system then has it as paid). */
  settles: boolean;
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const atLeastZero = (a: bigint): bigint => (a < 0n ? 0n : a);

/**
 * The allocations still to make, in the notes' order: each note not yet allocated takes as much
 * of what the invoice still owes there as it can — the invoice's total less what is paid there and
 * the credit already applied (by earlier notes, and by the ones allocated before it now) — and at
 * most its own total. The rest of a note stays as credit there (money owed back to the client).
 */
export function creditAllocations(invoiceTotalCents: bigint, paidThereCents: bigint, notes: readonly NoteThere[]): Allocation[] {
  let applied = notes.reduce((a, n) => a + (n.allocatedCents ?? 0n), 0n);
  const out: Allocation[] = [];
  for (const n of notes) {
    if (n.allocatedCents !== null) continue;
    const owing = atLeastZero(invoiceTotalCents - paidThereCents - applied);
    const cents = min(owing, atLeastZero(n.totalCents));
    applied += cents;
    out.push({ creditNoteId: n.creditNoteId, cents, settles: cents > 0n && cents === owing });
  }
  return out;
}

/** A credit note with the money paid back against it here. */
export interface NoteWithRefunds {
  creditNoteId: string;
  totalCents: bigint;
  /** Applied to the invoice there. */
  allocatedCents: bigint;
  /** Money paid back against this note here, in the order it was recorded. */
  refunds: readonly { refundId: string; cents: bigint }[];
}

/** A part of a refund already paid out there: out of which note, how much. */
export interface RefundPartSent {
  refundId: string;
  creditNoteId: string;
  cents: bigint;
}

/** A part of a refund to pay out there now. */
export interface RefundPart {
  refundId: string;
  /** The note it is recorded against here. */
  ownCreditNoteId: string;
  /** The note whose credit it is paid out of there. */
  creditNoteId: string;
  cents: bigint;
}

export interface RefundPlan {
  /** What to send, in order. */
  parts: RefundPart[];
  /** The first refund the credit left there cannot cover: nothing of it is in `parts`, and nothing after it. */
  shortfall: { refundId: string; creditNoteId: string; availableCents: bigint; owingCents: bigint } | null;
}

/**
 * The parts of the refunds recorded here that the accounting system does not have yet. Each is
 * paid out of what its own note has left there first (its total less what was allocated to the
 * invoice and the refunds already paid out of it), then out of the invoice's other notes in the
 * order they were issued: here a refund may pay back what is owed on the invoice as a whole, which
 * can be more than its own note has left after allocation. A refund that all the credit left there
 * cannot cover is the shortfall; the plan stops before it.
 */
export function planCreditRefunds(notes: readonly NoteWithRefunds[], sent: readonly RefundPartSent[]): RefundPlan {
  const sentFrom = (creditNoteId: string): bigint => sent.filter((x) => x.creditNoteId === creditNoteId).reduce((a, x) => a + x.cents, 0n);
  const left = new Map(notes.map((n) => [n.creditNoteId, atLeastZero(n.totalCents - n.allocatedCents - sentFrom(n.creditNoteId))]));
  const parts: RefundPart[] = [];
  for (const own of notes) {
    for (const r of own.refunds) {
      const alreadySent = sent.filter((x) => x.refundId === r.refundId).reduce((a, x) => a + x.cents, 0n);
      let owing = r.cents - alreadySent;
      if (owing <= 0n) continue;
      const order = [own, ...notes.filter((n) => n.creditNoteId !== own.creditNoteId)];
      const available = order.reduce((a, n) => a + (left.get(n.creditNoteId) ?? 0n), 0n);
      if (available < owing) return { parts, shortfall: { refundId: r.refundId, creditNoteId: own.creditNoteId, availableCents: available, owingCents: owing } };
      for (const from of order) {
        const credit = left.get(from.creditNoteId) ?? 0n;
        if (owing === 0n || credit === 0n) continue;
        const cents = min(owing, credit);
        parts.push({ refundId: r.refundId, ownCreditNoteId: own.creditNoteId, creditNoteId: from.creditNoteId, cents });
        left.set(from.creditNoteId, credit - cents);
        owing -= cents;
      }
    }
  }
  return { parts, shortfall: null };
}
