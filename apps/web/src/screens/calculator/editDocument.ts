// The calculator's edit mode (/app/calculator?edit={id}): a draft opened with its client, lines,
// dates and notes, and Save sending back only what changed with the version it was opened at. Pure.
import type { DocumentDetail, ReviseDocumentInput } from '@tradie/contracts';
import { DEFAULT_MARGIN_BASIS, DEFAULT_MARGIN_PERCENT } from '@tradie/domain';
import type { CalculatorState, LineDraft, LineItemToSend } from './calculatorModel.ts';
import type { ClientChoice } from './clientChoice.ts';

/** The calculator's address: ?edit= names the draft being edited. */
export interface CalculatorSearch {
  edit?: string;
}

/** Unknown values are dropped: the calculator then opens empty, as it would without them. */
export function validateCalculatorSearch(search: Record<string, unknown>): CalculatorSearch {
  return typeof search.edit === 'string' && /^[A-Za-z0-9-]{1,100}$/.test(search.edit) ? { edit: search.edit } : {};
}

/** The dates and notes a draft carries besides its lines (the calculator shows them while editing). */
export interface DocumentDetails {
  issueDate: string;
  /** Invoices: the due date. */
  dueDate: string;
  /** Quotes: the day the price stops holding. */
  validUntil: string;
  notes: string;
}

/** What the job is and where (on a new document and while editing one). */
export interface JobDetails {
  jobTitle: string;
  /** The site address as typed, its lines apart. */
  siteAddress: string;
  /** The site address was typed (not filled in from the client's address). */
  siteTyped: boolean;
  /** Quotes: a deposit asked for on acceptance, a percentage of the quote or an amount, as typed. */
  depositKind: DepositKind;
  depositText: string;
}

export const DEPOSIT_KINDS = ['none', 'percent', 'amount'] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];

export const NO_JOB: JobDetails = { jobTitle: '', siteAddress: '', siteTyped: false, depositKind: 'none', depositText: '' };

/** The deposit as the API takes it (null: none); the server checks the figure and says what is wrong. */
export function depositOf(job: Pick<JobDetails, 'depositKind' | 'depositText'>): { percent: string } | { amount: string } | null {
  const text = job.depositText.replace(/[$,%\s]/g, '');
  if (job.depositKind === 'percent') return { percent: text };
  if (job.depositKind === 'amount') return { amount: text };
  return null;
}

/** The deposit a saved quote asks for, as the calculator shows it. */
export function depositFieldsOf(deposit: DocumentDetail['deposit']): Pick<JobDetails, 'depositKind' | 'depositText'> {
  if (!deposit) return { depositKind: 'none', depositText: '' };
  return deposit.percent !== null ? { depositKind: 'percent', depositText: deposit.percent } : { depositKind: 'amount', depositText: deposit.amount.toFixed(2) };
}

/**
 * The job after a client is picked: the site address is the client's address unless one was typed
 * (a client with no address, or no client, leaves a filled-in address empty again).
 */
export function jobForClient(job: JobDetails, clientAddress: string | null): JobDetails {
  if (job.siteTyped) return job;
  return { ...job, siteAddress: clientAddress ?? '' };
}

/** The job fields of a new document's body: those that are set. */
export function jobFieldsOf(job: JobDetails, type: 'quote' | 'invoice'): { job_title?: string; site_address?: string; deposit?: { percent: string } | { amount: string } } {
  const deposit = type === 'quote' ? depositOf(job) : null;
  return { ...(job.jobTitle.trim() !== '' ? { job_title: job.jobTitle } : {}), ...(job.siteAddress.trim() !== '' ? { site_address: job.siteAddress } : {}), ...(deposit ? { deposit } : {}) };
}

export interface EditSeed {
  state: CalculatorState;
  choice: ClientChoice;
  details: DocumentDetails;
  job: JobDetails;
}

/** A stored number as the text an input shows ('85', '40.5'); the API's numbers have at most 4 decimals. */
const text = (n: number): string => (Number.isFinite(n) && n >= 0 ? String(n) : '0');

/**
 * The calculator as the draft left it. Each line keeps its own GST (included in the price, or a
 * zero-rated line among 15 % ones) until the GST switch is changed; the switch starts on when any
 * line carries GST.
 */
export function seedFromDocument(doc: DocumentDetail): EditSeed {
  const lines: LineDraft[] = doc.line_items.map((l, i) => ({
    key: i + 1,
    description: l.description,
    qty: text(l.qty),
    unit_price: text(l.unit_price),
    tax_included: l.tax_included,
    tax_rate: text(l.tax_rate),
    cost: l.cost === null ? '' : text(l.cost),
    category: l.category,
    ...(l.price_book_item_id ? { price_book_item_id: l.price_book_item_id } : {}),
  }));
  return {
    state: {
      type: doc.type,
      lines: lines.length > 0 ? lines : [{ key: 1, description: '', qty: '1', unit_price: '0' }],
      includeGst: doc.line_items.some((l) => l.tax_rate > 0),
      marginText: String(DEFAULT_MARGIN_PERCENT),
      marginBasis: DEFAULT_MARGIN_BASIS,
      pricing: null,
      marginTouched: false,
      nextKey: Math.max(lines.length, 1) + 1,
    },
    choice: doc.client_id ? { kind: 'existing', id: doc.client_id } : { kind: 'none' },
    details: { issueDate: doc.issue_date, dueDate: doc.due_date, validUntil: doc.valid_until ?? '', notes: doc.notes },
    // A draft's site address stays as it was saved, whoever the client becomes.
    job: { jobTitle: doc.job_title, siteAddress: doc.site_address, siteTyped: true, ...depositFieldsOf(doc.deposit) },
  };
}

const sameChoice = (a: ClientChoice, b: ClientChoice): boolean => a.kind === b.kind && (a.kind !== 'existing' || (b.kind === 'existing' && a.id === b.id));

/**
 * Who the revision is for: left out when the client was not changed (the server keeps the draft's
 * client, even one removed from the client book since), null for none, else the client's id.
 */
export function clientOfRevision(original: ClientChoice, now: ClientChoice, clientId: string | null): string | null | undefined {
  if (sameChoice(original, now)) return undefined;
  return clientId;
}

/**
 * PUT /invoices/{id}'s body: the lines, the version the edit started from, and only the dates,
 * notes, job title and site address that changed (a changed issue date then moves the dates that follow from it on the server).
 */
export function revisionBody(
  doc: Pick<DocumentDetail, 'type' | 'version'>,
  original: DocumentDetails,
  now: DocumentDetails,
  lines: LineItemToSend[],
  clientId: string | null | undefined,
  job?: { original: JobDetails; now: JobDetails },
): ReviseDocumentInput {
  const body: ReviseDocumentInput = { line_items: lines, version: doc.version };
  if (job && job.now.jobTitle !== job.original.jobTitle) body.job_title = job.now.jobTitle;
  if (job && job.now.siteAddress !== job.original.siteAddress) body.site_address = job.now.siteAddress;
  if (job && doc.type === 'quote' && (job.now.depositKind !== job.original.depositKind || job.now.depositText !== job.original.depositText)) body.deposit = depositOf(job.now);
  if (clientId !== undefined) body.client_id = clientId;
  if (now.issueDate !== original.issueDate && now.issueDate !== '') body.issue_date = now.issueDate;
  if (doc.type === 'invoice' && now.dueDate !== original.dueDate && now.dueDate !== '') body.due_date = now.dueDate;
  if (doc.type === 'quote' && now.validUntil !== original.validUntil && now.validUntil !== '') body.valid_until = now.validUntil;
  if (now.notes !== original.notes) body.notes = now.notes;
  return body;
}
