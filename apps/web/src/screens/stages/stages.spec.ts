// The Stages card's own logic: when it shows, the bar's width, and the body each form sends.
import { describe, expect, it } from 'vitest';
import type { DocumentDetail } from '@tradie/contracts';
import { canInvoiceStages, hasStages, invoicedShare, percentPreview, percentText, stageBody, variationBody, type StageDraft } from './stages.ts';

const stages = (over: Partial<NonNullable<DocumentDetail['stages']>> = {}) => ({ quoted: 1265, invoiced: 0, remaining: 1265, invoices: [], ...over });
const doc = (over: Partial<DocumentDetail> = {}) => ({ type: 'quote', status: 'accepted', stages: stages(), ...over }) as DocumentDetail;
const draft = (over: Partial<StageDraft>): StageDraft => ({ kind: 'deposit', mode: 'percent', value: '', linePercents: {}, ...over });

describe('Stages card: when it shows', () => {
  it('an accepted quote, or a quote with stage invoices; never an invoice', () => {
    expect(hasStages(doc())).toBe(true);
    expect(hasStages(doc({ status: 'sent' }))).toBe(false);
    expect(hasStages(doc({ status: 'void', stages: stages({ invoices: [{ id: 'i', reference: 'INV-0001', kind: 'deposit', total: 10, credited: 0 }] }) }))).toBe(true);
    expect(hasStages(doc({ type: 'invoice', stages: null }))).toBe(false);
  });

  it('new stages only while the quote is accepted', () => {
    expect(canInvoiceStages(doc())).toBe(true);
    expect(canInvoiceStages(doc({ status: 'void' }))).toBe(false);
    expect(canInvoiceStages(doc({ type: 'invoice' }))).toBe(false);
  });
});

describe('Stages card: the bar', () => {
  it('is the invoiced share of the quote, to a tenth of a percent, within 0–100', () => {
    expect(invoicedShare({ quoted: 1265, invoiced: 379.5 })).toBe(30);
    expect(invoicedShare({ quoted: 300, invoiced: 100 })).toBe(33.3);
    expect(invoicedShare({ quoted: 1265, invoiced: 1265 })).toBe(100);
    expect(invoicedShare({ quoted: 0, invoiced: 0 })).toBe(0);
    expect(invoicedShare({ quoted: 100, invoiced: 120 })).toBe(100);
  });

  it('says the share in NZ style', () => {
    expect(percentText(30)).toBe('30 %');
    expect(percentText(33.3)).toBe('33.3 %');
  });

  it('previews what a percent of the quote comes to, roughly', () => {
    expect(percentPreview('30', 1265)).toBe('About $379.50 of $1,265.00');
    expect(percentPreview('30 %', 1265)).toBe('About $379.50 of $1,265.00');
    expect(percentPreview('', 1265)).toBeNull();
    expect(percentPreview('120', 1265)).toBeNull();
  });
});

describe('Stages card: the body of POST /stages', () => {
  it('a deposit: a percent or an amount, as typed (a sign or commas taken off)', () => {
    expect(stageBody(draft({ value: '30' }))).toEqual({ ok: true, body: { kind: 'deposit', percent: '30' } });
    expect(stageBody(draft({ value: ' 33.3333 % ' }))).toEqual({ ok: true, body: { kind: 'deposit', percent: '33.3333' } });
    expect(stageBody(draft({ mode: 'amount', value: '$1,000.50' }))).toEqual({ ok: true, body: { kind: 'deposit', amount: '1000.50' } });
  });

  it('a progress invoice: percent complete, an amount, or a percent of some lines', () => {
    expect(stageBody(draft({ kind: 'progress', mode: 'percent_complete', value: '60' }))).toEqual({ ok: true, body: { kind: 'progress', percent_complete: '60' } });
    expect(stageBody(draft({ kind: 'progress', mode: 'amount', value: '250' }))).toEqual({ ok: true, body: { kind: 'progress', amount: '250' } });
    expect(stageBody(draft({ kind: 'progress', mode: 'lines', linePercents: { 2: '10', 0: '50', 1: ' ' } }))).toEqual({
      ok: true,
      body: { kind: 'progress', lines: [{ line_index: 0, percent: '50' }, { line_index: 2, percent: '10' }] },
    });
  });

  it('the final invoice sends nothing but its kind', () => {
    expect(stageBody(draft({ kind: 'final', value: '99' }))).toEqual({ ok: true, body: { kind: 'final' } });
  });

  it('says what is wrong before sending: not a number, 0 or past 100 %, $0, part cents, no line', () => {
    expect(stageBody(draft({ value: '' }))).toEqual({ ok: false, error: 'Enter the percent as a number, e.g. 30' });
    expect(stageBody(draft({ value: 'abc' })).ok).toBe(false);
    expect(stageBody(draft({ value: '0' }))).toEqual({ ok: false, error: 'The percent must be more than 0 %' });
    expect(stageBody(draft({ value: '101' }))).toEqual({ ok: false, error: 'The percent can be at most 100 %' });
    expect(stageBody(draft({ kind: 'progress', mode: 'percent_complete', value: '150' }))).toEqual({ ok: false, error: 'The percent complete can be at most 100 %' });
    expect(stageBody(draft({ mode: 'amount', value: '0' }))).toEqual({ ok: false, error: 'The amount must be more than $0.00' });
    expect(stageBody(draft({ mode: 'amount', value: '10.005' }))).toEqual({ ok: false, error: 'The amount must be in whole cents' });
    expect(stageBody(draft({ kind: 'progress', mode: 'lines', linePercents: {} }))).toEqual({ ok: false, error: 'Enter a percent for at least one line' });
    expect(stageBody(draft({ kind: 'progress', mode: 'lines', linePercents: { 1: '200' } }))).toEqual({ ok: false, error: 'The percent of line 2 can be at most 100 %' });
    expect(stageBody(draft({ kind: 'deposit', mode: 'percent_complete', value: '50' })).ok).toBe(false);
  });
});

describe('Add variation: the body of POST /variations', () => {
  it('a line with GST on top, or zero-rated', () => {
    expect(variationBody({ description: ' Extra downpipe ', qty: '2', unitPrice: '$45.50', gst: true, note: ' The old one is cracked ' })).toEqual({
      ok: true,
      body: { lines: [{ description: 'Extra downpipe', qty: '2', unit_price: '45.50', tax_included: false, tax_rate: '0.15' }], note: 'The old one is cracked' },
    });
    expect(variationBody({ description: 'Export part', qty: '1', unitPrice: '10', gst: false })).toMatchObject({ ok: true, body: { lines: [{ tax_rate: '0' }], note: '' } });
  });

  it('needs a description, a quantity more than 0 and a price', () => {
    expect(variationBody({ description: ' ', qty: '1', unitPrice: '1', gst: true })).toEqual({ ok: false, error: 'Describe the extra work' });
    expect(variationBody({ description: 'x', qty: '0', unitPrice: '1', gst: true })).toEqual({ ok: false, error: 'Enter a quantity more than 0' });
    expect(variationBody({ description: 'x', qty: '1', unitPrice: '', gst: true })).toEqual({ ok: false, error: 'Enter the unit price in dollars' });
  });
});
