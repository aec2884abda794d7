// What the credit note screens work out on their own (docs/api/credit-notes.md): whether an invoice
// can be credited, the body of POST /invoices/{id}/credit-notes from the form, and how much may be
// paid back on a credit note. The server decides the money and says when something is too much.
import type { CreditNoteInput, CreditNoteRecord, CreditNoteSendResult, DocumentDetail } from '@tradie/contracts';
import type { Built } from '../shared/command.ts';

export type CreditMode = 'whole' | 'lines' | 'amount';

/** Whole cents of a number the API rounded to cents. */
const cents = (n: number): number => Math.round(n * 100);

/** What is left to credit on the invoice: its total less what credit notes took already. */
export const leftToCredit = (doc: Pick<DocumentDetail, 'total' | 'credited'>): number => Math.max(0, cents(doc.total) - cents(doc.credited)) / 100;

/** An issued invoice (sent, marked issued or paid against), not void, with something left to credit. */
export const canCredit = (doc: Pick<DocumentDetail, 'type' | 'status' | 'issued_on' | 'total' | 'credited'>): boolean =>
  doc.type === 'invoice' && doc.status !== 'void' && doc.issued_on !== null && leftToCredit(doc) > 0;

export interface LineChoice {
  checked: boolean;
  /** Blank: all of what is left of the line. */
  qty: string;
}

export interface CreditDraft {
  mode: CreditMode;
  lines: Record<number, LineChoice>;
  amount: string;
  reason: string;
}

const plain = (raw: string): string => raw.trim().replace(/^\$/, '').replace(/,/g, '').trim();

/**
 * The body from the form, or what is wrong with it. 'Whole invoice' credits every line in full when
 * nothing was credited before, else the amount that is left (so lines credited already are not named
 * again). Too much, or a quantity past what is left of a line, is the server's to say.
 */
export function creditBody(d: CreditDraft, doc: Pick<DocumentDetail, 'total' | 'credited' | 'line_items'>): Built<CreditNoteInput> {
  const reason = d.reason.trim();
  if (!reason) return { ok: false, error: 'Say why the invoice is credited' };
  switch (d.mode) {
    case 'whole':
      if (cents(doc.credited) === 0) return { ok: true, body: { lines: doc.line_items.map((_, i) => ({ line_index: i })), reason } };
      return { ok: true, body: { amount: leftToCredit(doc).toFixed(2), reason } };
    case 'amount': {
      const t = plain(d.amount);
      if (!/^\d+(\.\d+)?$/.test(t)) return { ok: false, error: 'Enter the amount in dollars, e.g. 50 or 49.95' };
      if (!/^\d+(\.\d{1,2})?$/.test(t)) return { ok: false, error: 'The amount must be in whole cents' };
      if (Number(t) <= 0) return { ok: false, error: 'The amount must be more than $0.00' };
      return { ok: true, body: { amount: t, reason } };
    }
    case 'lines': {
      const lines: { line_index: number; qty?: string }[] = [];
      for (const [index, choice] of Object.entries(d.lines).sort(([a], [b]) => Number(a) - Number(b))) {
        if (!choice.checked) continue;
        const q = plain(choice.qty);
        if (q === '') {
          lines.push({ line_index: Number(index) });
          continue;
        }
        if (!/^\d+(\.\d+)?$/.test(q) || Number(q) <= 0) return { ok: false, error: `Enter a quantity more than 0 for line ${Number(index) + 1}, or leave it blank for all of it` };
        lines.push({ line_index: Number(index), qty: q });
      }
      if (lines.length === 0) return { ok: false, error: 'Choose at least one line to credit' };
      return { ok: true, body: { lines, reason } };
    }
  }
}

/** What may still be paid back on this credit note: at most what the invoice owes back and what is left of the note. */
export function refundable(note: Pick<CreditNoteRecord, 'total' | 'refunded'>, toRefund: number): number {
  const left = cents(note.total) - cents(note.refunded);
  return Math.max(0, Math.min(left, cents(toRefund))) / 100;
}

/** 'Parts × 1, Labour × 2' for a credit of lines; 'An amount' for a credit of an amount. */
export function creditedWhat(note: Pick<CreditNoteRecord, 'line_items' | 'amount'>): string {
  if (note.line_items.length === 0) return 'An amount';
  return note.line_items.map((l) => `${l.description} × ${l.qty}`).join(', ');
}

/**
 * What happened to a credit note's email, as the notice says it: 'sent' only when a mail server
 * took it; the outbox (no mail server set up) says nobody received it.
 */
export function creditNoteSendNotice(reference: string, result: Pick<CreditNoteSendResult, 'outcome' | 'detail' | 'to'>): { text: string; tone: 'success' | 'error' } {
  if (result.outcome === 'delivered') return { text: `Credit note ${reference} emailed to ${result.to.join(', ')}${result.detail ? ` — ${result.detail}` : ''}`, tone: 'success' };
  return { text: `Credit note ${reference} was not emailed: ${result.detail ?? 'it was saved to the outbox on this server'}`, tone: 'error' };
}
