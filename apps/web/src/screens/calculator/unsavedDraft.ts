/**
 * A quote or invoice half-built in the calculator, kept on this device until it is saved: the
 * screen goes when the tradie taps another tab, the page goes on a reload, and the signal goes on a
 * roof, so the lines are written to localStorage as they are typed and offered back when the
 * calculator opens again ('Carry on with the quote for Mere?').
 *
 * - One draft per account, under 'calculatorDraft:{userId}': on a shared phone one person's job is
 *   never offered to another. Removed when the document is saved, when the tradie chooses Start
 *   again, and on sign-out (the session's forgetUserData).
 * - A draft worth nothing (no line with words or a price, no client, no job title) is not kept.
 * - What is read back is checked field by field: storage another version wrote, or that was
 *   tampered with, is dropped, never half-applied.
 */
// Types only: this module is in the app's first chunk (sign-out forgets the draft), the calculator's code is not.
import type { DepositKind, JobDetails } from './editDocument.ts';

const DEPOSIT_KINDS_KEPT: readonly DepositKind[] = ['none', 'percent', 'amount'];

export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const DRAFT_KEY_PREFIX = 'calculatorDraft:';
export const draftKey = (userId: string): string => `${DRAFT_KEY_PREFIX}${userId}`;

export interface DraftLine {
  key: number;
  description: string;
  qty: string;
  unit_price: string;
  tax_included?: boolean;
  tax_rate?: string;
  cost?: string;
  category?: string;
  price_book_item_id?: string;
}

export type DraftClientChoice = { kind: 'none' } | { kind: 'existing'; id: string } | { kind: 'new' };

export interface UnsavedDraft {
  type: 'quote' | 'invoice';
  lines: DraftLine[];
  includeGst: boolean;
  marginText: string;
  marginTouched: boolean;
  choice: DraftClientChoice;
  newClient: { name: string; email: string; phone: string };
  job: JobDetails;
  /** The client's name as shown when it was kept ('' for none), for the offer. */
  clientName: string;
  /** When it was last written (ISO 8601). */
  savedAt: string;
}

const VERSION = 1;
/** Bounds on what is read back: a draft is a job's lines, not a database. */
const MAX_LINES = 500;
const MAX_TEXT = 10_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_TEXT;
const optionalText = (v: unknown): boolean => v === undefined || isText(v);

function lineOf(v: unknown): DraftLine | null {
  if (!isObject(v)) return null;
  const { key, description, qty, unit_price, tax_included, tax_rate, cost, category, price_book_item_id } = v;
  if (typeof key !== 'number' || !Number.isSafeInteger(key) || key < 0) return null;
  if (!isText(description) || !isText(qty) || !isText(unit_price)) return null;
  if (tax_included !== undefined && typeof tax_included !== 'boolean') return null;
  if (!optionalText(tax_rate) || !optionalText(cost) || !optionalText(category) || !optionalText(price_book_item_id)) return null;
  return {
    key, description, qty, unit_price,
    ...(tax_included === undefined ? {} : { tax_included }),
    ...(tax_rate === undefined ? {} : { tax_rate: tax_rate as string }),
    ...(cost === undefined ? {} : { cost: cost as string }),
    ...(category === undefined ? {} : { category: category as string }),
    ...(price_book_item_id === undefined ? {} : { price_book_item_id: price_book_item_id as string }),
  };
}

function choiceOf(v: unknown): DraftClientChoice | null {
  if (!isObject(v)) return null;
  if (v.kind === 'none' || v.kind === 'new') return { kind: v.kind };
  if (v.kind === 'existing' && isText(v.id) && v.id !== '') return { kind: 'existing', id: v.id };
  return null;
}

/** A stored draft as the calculator can use it, or null when it is not one. */
export function draftOf(raw: unknown): UnsavedDraft | null {
  if (!isObject(raw) || raw.v !== VERSION) return null;
  const { type, lines, includeGst, marginText, marginTouched, choice, newClient, job, clientName, savedAt } = raw;
  if (type !== 'quote' && type !== 'invoice') return null;
  if (!Array.isArray(lines) || lines.length === 0 || lines.length > MAX_LINES) return null;
  const read = lines.map(lineOf);
  if (read.some((l) => l === null) || new Set(read.map((l) => l!.key)).size !== read.length) return null;
  if (typeof includeGst !== 'boolean' || typeof marginTouched !== 'boolean' || !isText(marginText)) return null;
  const picked = choiceOf(choice);
  if (!picked) return null;
  if (!isObject(newClient) || !isText(newClient.name) || !isText(newClient.email) || !isText(newClient.phone)) return null;
  if (!isObject(job) || !isText(job.jobTitle) || !isText(job.siteAddress) || typeof job.siteTyped !== 'boolean') return null;
  if (!isText(clientName) || !isText(savedAt)) return null;
  return {
    type, lines: read as DraftLine[], includeGst, marginText, marginTouched, choice: picked,
    newClient: { name: newClient.name, email: newClient.email, phone: newClient.phone },
    job: {
      jobTitle: job.jobTitle, siteAddress: job.siteAddress, siteTyped: job.siteTyped,
      // Kept before a deposit could be asked for: none.
      ...((DEPOSIT_KINDS_KEPT as readonly unknown[]).includes(job.depositKind) && isText(job.depositText) ? { depositKind: job.depositKind as DepositKind, depositText: job.depositText } : { depositKind: 'none' as const, depositText: '' }),
    },
    clientName, savedAt,
  };
}

const hasPrice = (text: string): boolean => {
  const n = Number(text.replace(/[$,\s]/g, ''));
  return text.trim() !== '' && !(Number.isFinite(n) && n === 0);
};

/** Something a tradie would miss: a line with words or a price, a client, or a job title. */
export function worthKeeping(d: Pick<UnsavedDraft, 'lines' | 'choice' | 'newClient' | 'job'>): boolean {
  if (d.lines.some((l) => l.description.trim() !== '' || hasPrice(l.unit_price) || hasPrice(l.cost ?? ''))) return true;
  if (d.choice.kind === 'existing' || (d.choice.kind === 'new' && d.newClient.name.trim() !== '')) return true;
  return d.job.jobTitle.trim() !== '';
}

/** The account's draft, or null (none, or unreadable: then it is removed). */
export function readDraft(storage: DraftStorage, userId: string): UnsavedDraft | null {
  let raw: string | null;
  try {
    raw = storage.getItem(draftKey(userId));
  } catch {
    return null;
  }
  if (raw === null) return null;
  let draft: UnsavedDraft | null;
  try {
    draft = draftOf(JSON.parse(raw));
  } catch {
    draft = null;
  }
  if (!draft || !worthKeeping(draft)) clearDraft(storage, userId);
  return draft && worthKeeping(draft) ? draft : null;
}

/** Keeps the draft (or removes it when there is nothing worth keeping). A full or refused storage is let go: typing goes on. */
export function writeDraft(storage: DraftStorage, userId: string, draft: Omit<UnsavedDraft, 'savedAt'>, now: Date = new Date()): void {
  if (!worthKeeping(draft)) {
    clearDraft(storage, userId);
    return;
  }
  try {
    storage.setItem(draftKey(userId), JSON.stringify({ v: VERSION, ...draft, savedAt: now.toISOString() }));
  } catch {
    // Quota or private mode: the screen still works, the draft just is not kept.
  }
}

export function clearDraft(storage: DraftStorage, userId: string): void {
  try {
    storage.removeItem(draftKey(userId));
  } catch {
    // Nothing to do: storage that cannot be written holds no draft of ours either.
  }
}

/** The offer's question: 'Carry on with the quote for Mere Parata?' ('… with your quote?' without a client). */
export function carryOnQuestion(draft: Pick<UnsavedDraft, 'type' | 'clientName'>): string {
  const name = draft.clientName.trim();
  return name === '' ? `Carry on with your unsaved ${draft.type}?` : `Carry on with the ${draft.type} for ${name}?`;
}
