// The one action the detail puts first for each state of a document.
import { describe, expect, it } from 'vitest';
import type { DocumentDetail } from '@tradie/contracts';
import { type DetailView, primaryActionOf } from './view.ts';

type Doc = Pick<DocumentDetail, 'status' | 'converted_to' | 'stages'>;
const doc = (status: DocumentDetail['status'], over: Partial<Doc> = {}): Doc => ({ status, converted_to: null, stages: null, ...over });
const view = (isQuote: boolean, over: Partial<Pick<DetailView, 'isVoid' | 'paid'>> = {}) => ({ isQuote, isVoid: false, paid: false, ...over });

describe('the primary action', () => {
  it('is Send for a draft quote or invoice', () => {
    expect(primaryActionOf(doc('draft'), view(true))).toBe('send');
    expect(primaryActionOf(doc('draft'), view(false))).toBe('send');
  });

  it('is Record payment while an invoice is owed, and nothing once it is paid or void', () => {
    for (const status of ['issued', 'sent', 'partial', 'overdue'] as const) expect(primaryActionOf(doc(status), view(false))).toBe('payment');
    expect(primaryActionOf(doc('paid'), view(false, { paid: true }))).toBeNull();
    expect(primaryActionOf(doc('void'), view(false, { isVoid: true }))).toBeNull();
  });

  it('is Accept for a quote awaiting its answer, Convert once accepted, and nothing once converted or invoiced in stages', () => {
    for (const status of ['sent', 'expired', 'declined'] as const) expect(primaryActionOf(doc(status), view(true))).toBe('accept');
    expect(primaryActionOf(doc('accepted'), view(true))).toBe('convert');
    const staged = { quoted: 100, invoiced: 30, remaining: 70, invoices: [{ id: 'i1', reference: 'INV-0001', kind: 'deposit' as const, total: 30, credited: 0 }] };
    expect(primaryActionOf(doc('accepted', { stages: staged }), view(true))).toBeNull();
    expect(primaryActionOf(doc('converted', { converted_to: 'i1' }), view(true))).toBeNull();
    expect(primaryActionOf(doc('void'), view(true, { isVoid: true }))).toBeNull();
  });
});
