// Reports straight from events, in memory: what `npm run replay` prints and what the fixtures
// are checked against. Events are grouped by stream and folded with the same evolve the API uses.
import { type DocumentEvent, documentStreamId } from '../documents/events.ts';
import { type DocumentState, type EvolvableDocumentEvent, evolveDocument, initialDocumentState } from '../documents/document.ts';
import { parseDomainEvent } from '../events/registry.ts';
import type { LocalDate } from '../dates/dates.ts';
import type { CostEntry } from '../costs/costs.ts';
import type { CostEvent } from '../costs/events.ts';
import { type CostState, costEntryOf, evolveCost } from '../costs/ledger.ts';
import { isDraftInvoice, reportRowsOf, type ReportCreditRow, type ReportInvoiceRow, type ReportPaymentRow } from './rows.ts';

export interface LoggedEvent {
  stream: string;
  type: string;
  version?: number;
  data: unknown;
  meta?: { at?: string; accountId?: string };
}

const DOCUMENT_EVENTS = new Set<string>([
  'DocumentDrafted', 'DocumentRevised', 'DocumentSent', 'DocumentIssued', 'QuoteAccepted', 'QuoteDeclined', 'QuoteConverted',
  'PaymentRecorded', 'PaymentRemoved', 'PaymentRefunded', 'DocumentVoided', 'DocumentDeleted', 'SyncedToAccounting', 'AccountingTotalsReported', 'PdfGenerated',
  'ClientLinkIssued', 'ClientLinkWithdrawn', 'QuoteAcceptedByClient', 'QuoteDeclinedByClient', 'QuoteChangesRequested',
  'CreditNoteIssued', 'CreditNoteRefunded', 'CreditNoteEmailed',
] satisfies DocumentEvent['type'][]);

const COST_EVENTS = new Set<string>(['CostRecorded', 'CostChanged', 'CostRemoved'] satisfies CostEvent['type'][]);

/**
 * Folds every document stream in the log (in log order) and returns the report rows, and the dates
 * of draft invoices; and every cost stream, returning the costs as they stand (a removed one is gone).
 */
export function reportRowsFromEvents(events: Iterable<LoggedEvent>): {
  invoices: ReportInvoiceRow[];
  payments: ReportPaymentRow[];
  credits: ReportCreditRow[];
  draftDates: LocalDate[];
  costs: CostEntry[];
} {
  const states = new Map<string, DocumentState>();
  const costStates = new Map<string, CostState>();
  for (const e of events) {
    if (e.stream.startsWith('cost-') && COST_EVENTS.has(e.type)) {
      costStates.set(e.stream, evolveCost(costStates.get(e.stream) ?? { status: 'none' }, parseDomainEvent(e) as CostEvent));
      continue;
    }
    if (!e.stream.startsWith('document-') || !DOCUMENT_EVENTS.has(e.type)) continue;
    const parsed = parseDomainEvent(e) as DocumentEvent;
    if (documentStreamId(parsed.data.documentId) !== e.stream) throw new Error(`Event ${e.type} in ${e.stream} names document ${parsed.data.documentId}`);
    const evolvable: EvolvableDocumentEvent = e.meta?.at ? { ...parsed, meta: { at: e.meta.at } } : parsed;
    states.set(e.stream, evolveDocument(states.get(e.stream) ?? initialDocumentState, evolvable));
  }
  const invoices: ReportInvoiceRow[] = [];
  const payments: ReportPaymentRow[] = [];
  const credits: ReportCreditRow[] = [];
  const draftDates: LocalDate[] = [];
  for (const s of states.values()) {
    if (s.status === 'none') continue;
    if (isDraftInvoice(s)) draftDates.push(s.issueDate);
    const rows = reportRowsOf(s);
    if (rows.invoice) invoices.push(rows.invoice);
    payments.push(...rows.payments);
    credits.push(...rows.credits);
  }
  const costs = [...costStates.values()].flatMap((c) => (c.status === 'active' ? [costEntryOf(c.fields)] : []));
  return { invoices, payments, credits, draftDates, costs };
}
