// evolve(state, event) → state for quotes and invoices: pure, and the only place a document's state changes.
import { type LocalDate, compareDates, nzDateOf } from '../dates/dates.ts';
import { assertNever } from '../errors.ts';
import type { Line } from './lineValues.ts';
import { type PaymentClaim, claimDates } from './paymentClaims.ts';
import { type Variation, quoteLineCount } from './variations.ts';
import { type DocumentView, type DocumentState, initialDocumentState, type EvolvableDocumentEvent } from './view.ts';

export function evolveDocument(state: DocumentState, event: EvolvableDocumentEvent): DocumentState {
  const at = event.meta?.at ?? null;
  if (event.type === 'DocumentDrafted') {
    const d = event.data;
    return {
      status: 'draft',
      id: d.documentId,
      type: d.type,
      number: d.number,
      reference: d.reference,
      client: d.client,
      lines: d.lines,
      gstRounding: d.gstRounding,
      gstRegistered: d.gstRegistered ?? null,
      issueDate: d.issueDate,
      dueDate: d.dueDate,
      termsDueDate: d.dueDate,
      paymentTerms: d.paymentTerms,
      validUntil: d.validUntil,
      notes: d.notes,
      jobTitle: d.jobTitle,
      siteAddress: d.siteAddress,
      deposit: d.deposit,
      convertedFrom: d.convertedFrom,
      convertedTo: null,
      payments: [],
      refunds: [],
      paymentLog: [],
      sends: [],
      sendLog: [],
      issuedOn: null,
      issuedAt: null,
      acceptedAt: null,
      declinedAt: null,
      voidedAt: null,
      voidedOn: null,
      voidReason: null,
      sync: null,
      pdfSha256: null,
      clientLink: null,
      clientAcceptance: null,
      clientDecline: null,
      changesRequestedAt: null,
      reminders: [],
      remindersPaused: false,
      stages: [],
      stageHistory: [],
      stageCredits: [],
      creditNotes: [],
      paymentClaim: null,
      variations: [],
      createdAt: at,
      updatedAt: at,
    };
  }
  if (state.status === 'none') return state;
  const s: DocumentView = { ...state, updatedAt: at ?? state.updatedAt };
  // The NZ day of the event (the day a void or a removal is dated); an event without a time is
  // dated on the document's issue date, which never moves a figure out of its original period.
  const day = (): LocalDate => (at ? nzDateOf(at) : s.issueDate);
  const issued = (): LocalDate | null => (s.type === 'invoice' ? (s.issuedOn ?? day()) : null);
  const issuedAt = (): string | null => (s.type === 'invoice' ? (s.issuedOn !== null ? s.issuedAt : at) : null);
  // A payment claim is served when it is first emailed or handed over; its due date for payment,
  // unless the contract set one, is then fixed from that day.
  const served = (c: PaymentClaim | null): PaymentClaim | null => (c && c.servedOn === null ? { ...c, servedOn: day(), servedAt: at } : c);
  const servedDueDate = (): LocalDate => (s.paymentClaim && s.paymentClaim.servedOn === null ? claimDates(s.paymentClaim, day()).paymentDue : s.dueDate);
  switch (event.type) {
    case 'DocumentRevised': {
      const { documentId: _id, gstRegistered, ...fields } = event.data;
      // A draft payment claim keeps its due date for payment; the invoice's own is kept beside it.
      const claimDue = s.paymentClaim ? claimDates(s.paymentClaim, compareDates(day(), fields.issueDate) > 0 ? day() : fields.issueDate).paymentDue : null;
      return { ...s, ...fields, gstRegistered: gstRegistered ?? s.gstRegistered, dueDate: claimDue ?? fields.dueDate, termsDueDate: fields.dueDate };
    }
    case 'DocumentSent': {
      const { documentId: _id, ...send } = event.data;
      return {
        ...s,
        status: s.status === 'draft' || s.status === 'issued' ? 'sent' : s.status,
        issuedOn: issued(), issuedAt: issuedAt(),
        paymentClaim: served(s.paymentClaim),
        dueDate: servedDueDate(),
        sends: [...s.sends, { ...send, at }],
        sendLog: [...s.sendLog, { ...send, at, outcome: 'delivered', detail: null }],
      };
    }
    case 'DocumentSendNotDelivered': {
      // Not delivered: recorded, and nothing else changes (the document is not sent by it).
      const { documentId: _id, ...attempt } = event.data;
      return { ...s, sendLog: [...s.sendLog, { ...attempt, at }] };
    }
    case 'DocumentIssued':
      return { ...s, status: s.status === 'draft' ? 'issued' : s.status, issuedOn: issued(), issuedAt: issuedAt(), paymentClaim: served(s.paymentClaim), dueDate: servedDueDate() };
    case 'QuoteAccepted':
      return { ...s, status: 'accepted', acceptedAt: at };
    case 'QuoteDeclined':
      return { ...s, status: 'declined', declinedAt: at };
    case 'QuoteConverted':
      return { ...s, status: 'converted', convertedTo: event.data.invoiceId };
    case 'PaymentRecorded': {
      const { documentId: _id, ...p } = event.data;
      return {
        ...s,
        // Money taken against a draft issues it: it is a supply now, and no longer editable.
        status: s.status === 'draft' ? 'issued' : s.status,
        issuedOn: issued(), issuedAt: issuedAt(),
        payments: [...s.payments, { ...p, recordedAt: at }],
        paymentLog: [...s.paymentLog, { kind: 'recorded', paymentId: p.paymentId, amount: p.amount, date: p.date }],
      };
    }
    case 'PaymentRemoved': {
      const removed = s.payments.find((p) => p.paymentId === event.data.paymentId);
      if (!removed) return s;
      return {
        ...s,
        payments: s.payments.filter((p) => p.paymentId !== event.data.paymentId),
        paymentLog: [...s.paymentLog, { kind: 'removed', paymentId: removed.paymentId, amount: removed.amount, date: at ? nzDateOf(at) : removed.date }],
      };
    }
    case 'PaymentRefunded': {
      const { documentId: _id, ...r } = event.data;
      return {
        ...s,
        refunds: [...s.refunds, { ...r, recordedAt: at }],
        paymentLog: [...s.paymentLog, { kind: 'refunded', paymentId: r.paymentId, amount: r.amount, date: r.date, refundId: r.refundId }],
      };
    }
    case 'DocumentVoided':
      return { ...s, status: 'void', voidedAt: at, voidedOn: day(), voidReason: event.data.reason };
    case 'DocumentDeleted':
      return { ...s, status: 'deleted' };
    case 'SyncedToAccounting': {
      const { documentId: _id, ...link } = event.data;
      return { ...s, sync: { ...link, at, reported: null, voidedThere: null } };
    }
    case 'AccountingTotalsReported': {
      if (!s.sync) return s;
      const { subtotal, gst, total } = event.data;
      return { ...s, sync: { ...s.sync, reported: { subtotal, gst, total, at } } };
    }
    case 'AccountingVoidReported':
      return s.sync ? { ...s, sync: { ...s.sync, voidedThere: { status: event.data.status, at } } } : s;
    case 'PdfGenerated':
      return { ...s, pdfSha256: event.data.sha256 };
    case 'ClientLinkIssued':
      return { ...s, clientLink: { linkId: event.data.linkId, expiresOn: event.data.expiresOn, issuedAt: at } };
    case 'ClientLinkWithdrawn':
      return s.clientLink?.linkId === event.data.linkId ? { ...s, clientLink: null } : s;
    case 'QuoteAcceptedByClient': {
      const { documentId: _id, ...a } = event.data;
      return { ...s, status: 'accepted', acceptedAt: at, clientAcceptance: { ...a, at } };
    }
    case 'QuoteDeclinedByClient':
      return { ...s, status: 'declined', declinedAt: at, clientDecline: { reasons: event.data.reasons, note: event.data.note, at } };
    case 'QuoteChangesRequested':
      return { ...s, changesRequestedAt: at };
    case 'ReminderSent': {
      const { documentId: _id, balance: _balance, ...r } = event.data;
      return { ...s, reminders: [...s.reminders, { ...r, at, outcome: 'delivered', detail: null }] };
    }
    case 'ReminderNotDelivered': {
      const { documentId: _id, ...r } = event.data;
      return { ...s, reminders: [...s.reminders, { ...r, at }] };
    }
    case 'StageInvoiced': {
      const { documentId: _id, ...stage } = event.data;
      return { ...s, stages: [...s.stages, stage], stageHistory: [...s.stageHistory, { stage, withdrawn: false, withdrawnAt: null }] };
    }
    case 'QuoteVaried':
      // Before variations were agreed apart: a line added and agreed at once, valued with the quote.
      return {
        ...s,
        variations: [
          ...s.variations,
          { ...newVariation(s, `legacy-${quoteLineCount(s)}`, [event.data.line], '', at), status: 'approved', legacy: true, approvedAt: at, approvedAfterStages: s.stageHistory.length },
        ],
      };
    case 'VariationProposed':
      return { ...s, variations: [...s.variations, { ...newVariation(s, event.data.variationId, event.data.lines, event.data.note, at), number: event.data.number }] };
    case 'VariationSent': {
      const { documentId: _id, variationId, ...send } = event.data;
      return withVariation(s, variationId, (v) => ({ ...v, sendLog: [...v.sendLog, { ...send, at, outcome: 'delivered', detail: null }] }));
    }
    case 'VariationSendNotDelivered': {
      // Not delivered: recorded, and the variation is not sent by it.
      const { documentId: _id, variationId, ...attempt } = event.data;
      return withVariation(s, variationId, (v) => ({ ...v, sendLog: [...v.sendLog, { ...attempt, at }] }));
    }
    case 'VariationAcceptedByClient': {
      const { documentId: _id, variationId, ...a } = event.data;
      return withVariation(s, variationId, (v) => ({ ...v, status: 'approved', approvedAt: at, approvedAfterStages: s.stageHistory.length, clientAcceptance: { ...a, at } }));
    }
    case 'VariationApproved':
      return withVariation(s, event.data.variationId, (v) => ({ ...v, status: 'approved', approvedAt: at, approvedAfterStages: s.stageHistory.length }));
    case 'VariationDeclinedByClient':
      return withVariation(s, event.data.variationId, (v) => ({ ...v, status: 'declined', declinedAt: at, declinedByClient: true, declineNote: event.data.note }));
    case 'VariationDeclined':
      return withVariation(s, event.data.variationId, (v) => ({ ...v, status: 'declined', declinedAt: at }));
    case 'VariationWithdrawn':
      return withVariation(s, event.data.variationId, (v) => ({ ...v, status: 'withdrawn', withdrawnAt: at }));
    case 'PaymentClaimSet': {
      const { documentId: _id, ...details } = event.data;
      const claim: PaymentClaim = { ...details, servedOn: null, servedAt: null, schedules: s.paymentClaim?.schedules ?? [], retentionReleases: s.paymentClaim?.retentionReleases ?? [] };
      // Until it is served, its due date for payment reads as if it were served that day.
      const from = compareDates(day(), s.issueDate) > 0 ? day() : s.issueDate;
      return { ...s, paymentClaim: claim, dueDate: claimDates(claim, from).paymentDue };
    }
    case 'PaymentClaimCleared':
      return { ...s, paymentClaim: null, dueDate: s.termsDueDate };
    case 'PaymentScheduleReceived': {
      if (!s.paymentClaim) return s;
      const { documentId: _id, ...r } = event.data;
      return { ...s, paymentClaim: { ...s.paymentClaim, schedules: [...s.paymentClaim.schedules, { ...r, recordedAt: at }] } };
    }
    case 'RetentionReleased': {
      if (!s.paymentClaim) return s;
      const { documentId: _id, ...r } = event.data;
      return { ...s, paymentClaim: { ...s.paymentClaim, retentionReleases: [...s.paymentClaim.retentionReleases, { ...r, recordedAt: at }] } };
    }
    case 'StageCredited': {
      const { documentId: _id, ...credit } = event.data;
      return { ...s, stageCredits: [...s.stageCredits, credit] };
    }
    case 'StageWithdrawn':
      return {
        ...s,
        stages: s.stages.filter((x) => x.invoiceId !== event.data.invoiceId),
        stageHistory: s.stageHistory.map((h) => (h.stage.invoiceId === event.data.invoiceId && !h.withdrawn ? { ...h, withdrawn: true, withdrawnAt: at } : h)),
      };
    case 'RemindersPaused':
      return { ...s, remindersPaused: true };
    case 'RemindersResumed':
      return { ...s, remindersPaused: false };
    case 'CreditNoteIssued': {
      const { documentId: _id, ...note } = event.data;
      return {
        ...s,
        creditNotes: [...s.creditNotes, { ...note, issuedAt: at, refunds: [], sends: [] }],
        paymentLog: [...s.paymentLog, { kind: 'credited', paymentId: note.creditNoteId, amount: note.total, date: note.date }],
      };
    }
    case 'CreditNoteRefunded': {
      const { documentId: _id, creditNoteId, ...r } = event.data;
      return {
        ...s,
        creditNotes: s.creditNotes.map((n) => (n.creditNoteId === creditNoteId ? { ...n, refunds: [...n.refunds, { ...r, recordedAt: at }] } : n)),
        paymentLog: [...s.paymentLog, { kind: 'creditRefunded', paymentId: creditNoteId, amount: r.amount, date: r.date, refundId: r.refundId }],
      };
    }
    case 'CreditNoteEmailed': {
      const { documentId: _id, creditNoteId, ...send } = event.data;
      return { ...s, creditNotes: s.creditNotes.map((n) => (n.creditNoteId === creditNoteId ? { ...n, sends: [...n.sends, { ...send, at }] } : n)) };
    }
    default:
      return assertNever(event);
  }
}

/** A variation as proposed: awaiting approval, its lines numbered after every line the quote has so far. */
export function newVariation(s: DocumentView, variationId: string, lines: Line[], note: string, at: string | null): Variation {
  return {
    variationId, number: s.variations.length + 1, note, lines, firstLine: quoteLineCount(s), status: 'awaiting_approval', legacy: false, proposedAt: at, sendLog: [],
    approvedAt: null, approvedAfterStages: null, clientAcceptance: null, declinedAt: null, declineNote: null, declinedByClient: false, withdrawnAt: null,
  };
}

export const withVariation = (s: DocumentView, variationId: string, change: (v: Variation) => Variation): DocumentView => ({
  ...s,
  variations: s.variations.map((v) => (v.variationId === variationId ? change(v) : v)),
});

export const foldDocument = (events: Iterable<EvolvableDocumentEvent>, from: DocumentState = initialDocumentState): DocumentState => {
  let s = from;
  for (const e of events) s = evolveDocument(s, e);
  return s;
};
