import { describe, expect, it } from 'vitest';
import type { DocumentDetail } from '@tradie/contracts';
import { documentTotals } from '@tradie/domain';
import { calculatorFigures, calculatorReducer, lineItemsToSend } from './calculatorModel.ts';
import { NO_JOB, clientOfRevision, jobFieldsOf, depositOf, depositFieldsOf, jobForClient, revisionBody, seedFromDocument, validateCalculatorSearch } from './editDocument.ts';

const line = (description: string, qty: number, unit_price: number, tax_included = false, tax_rate = 0.15) => ({ description, qty, unit_price, tax_included, tax_rate, amount: 0, gst: 0, amount_excl_gst: 0, formatted: { unit_price: '', amount: '' }, cost: null as number | null, category: 'other', markup: null, cost_amount: null, price_book_item_id: null as string | null });

const draft = (over: Partial<DocumentDetail> = {}): DocumentDetail =>
  ({
    id: 'd1', type: 'invoice', version: 3, client_id: 'c1', issue_date: '2026-05-05', due_date: '2026-05-12', valid_until: null, notes: 'Gate code 1234', job_title: 'Cylinder', site_address: '4 Rata Rd\nHamilton',
    line_items: [line('Labour', 2, 85), line('Parts', 1, 40.5)],
    ...over,
  }) as DocumentDetail;

describe('the calculator opened on a draft', () => {
  it('given a draft, then its lines, client, dates and notes are what the calculator starts with', () => {
    const seed = seedFromDocument(draft());
    expect(seed.state.type).toBe('invoice');
    expect(seed.state.lines.map((l) => [l.description, l.qty, l.unit_price])).toEqual([['Labour', '2', '85'], ['Parts', '1', '40.5']]);
    expect(seed.state.includeGst).toBe(true);
    expect(seed.state.nextKey).toBe(3);
    expect(seed.choice).toEqual({ kind: 'existing', id: 'c1' });
    expect(seed.details).toEqual({ issueDate: '2026-05-05', dueDate: '2026-05-12', validUntil: '', notes: 'Gate code 1234' });
    expect(seedFromDocument(draft({ client_id: null })).choice).toEqual({ kind: 'none' });
  });

  it('a line picked from the price book keeps its item when the draft is edited and saved again', () => {
    const doc = draft({ line_items: [{ ...line('Copper pipe 15 mm', 6, 4.75), cost: 3.8, category: 'materials', price_book_item_id: 'i1' }, line('Labour', 1, 100)] });
    const sent = lineItemsToSend(seedFromDocument(doc).state);
    if (!sent.ok) throw new Error('refused');
    expect(sent.lines.map((l) => [l.description, l.cost, l.price_book_item_id])).toEqual([['Copper pipe 15 mm', '3.8', 'i1'], ['Labour', null, undefined]]);
  });

  it('given a line with GST in its price and a zero-rated line, then saving unchanged sends them back as they were, with the same total', () => {
    const doc = draft({ line_items: [line('Cylinder', 1, 115, true), line('Freight', 1, 20, false, 0), line('Labour', 1, 100)] });
    const seed = seedFromDocument(doc);
    const sent = lineItemsToSend(seed.state);
    if (!sent.ok) throw new Error('refused');
    expect(sent.lines.map((l) => [l.tax_included, l.tax_rate])).toEqual([[true, '0.15'], [false, '0'], [false, '0.15']]);
    const saved = documentTotals(sent.lines.map((l) => ({ qty: l.qty, unit_price: l.unit_price, tax_included: l.tax_included, tax_rate: l.tax_rate })));
    expect(calculatorFigures(seed.state).totals.totalCents).toBe(saved.totalCents);
    expect(saved.totalCents).toBe(11500n + 2000n + 11500n);
    // The GST switch then applies to every line alike.
    const off = calculatorReducer(seed.state, { type: 'setIncludeGst', value: false });
    const on = calculatorReducer(off, { type: 'setIncludeGst', value: true });
    const again = lineItemsToSend(on);
    expect(again.ok && again.lines.map((l) => l.tax_rate)).toEqual(['0.15', '0.15', '0.15']);
  });

  it('given nothing changed but a line, then the revision sends the lines and the version only', () => {
    const seed = seedFromDocument(draft());
    const body = revisionBody(draft(), seed.details, seed.details, [], clientOfRevision(seed.choice, seed.choice, 'c1'));
    expect(body).toEqual({ line_items: [], version: 3 });
  });

  it('given a new issue date, notes and client, then just those are sent; a quote sends its valid-until, an invoice its due date', () => {
    const seed = seedFromDocument(draft());
    const now = { ...seed.details, issueDate: '2026-05-06', notes: '', dueDate: '2026-05-30', validUntil: '2026-06-30' };
    expect(revisionBody(draft(), seed.details, now, [], clientOfRevision(seed.choice, { kind: 'none' }, null))).toEqual({
      line_items: [], version: 3, client_id: null, issue_date: '2026-05-06', due_date: '2026-05-30', notes: '',
    });
    expect(revisionBody(draft({ type: 'quote' }), seed.details, now, [], 'c2')).toMatchObject({ client_id: 'c2', valid_until: '2026-06-30' });
    expect(revisionBody(draft({ type: 'quote' }), seed.details, now, [], 'c2')).not.toHaveProperty('due_date');
  });

  it('given a draft with a job title and site, then they start the calculator, and only a change to one is sent', () => {
    const seed = seedFromDocument(draft());
    expect(seed.job).toEqual({ jobTitle: 'Cylinder', siteAddress: '4 Rata Rd\nHamilton', siteTyped: true, depositKind: 'none', depositText: '' });
    expect(revisionBody(draft(), seed.details, seed.details, [], undefined, { original: seed.job, now: seed.job })).toEqual({ line_items: [], version: 3 });
    const now = { ...seed.job, siteAddress: '9 Kauri St\nTaupō' };
    expect(revisionBody(draft(), seed.details, seed.details, [], undefined, { original: seed.job, now })).toEqual({ line_items: [], version: 3, site_address: '9 Kauri St\nTaupō' });
    // Picking another client never replaces a draft's site address.
    expect(jobForClient(seed.job, '1 Other Rd')).toEqual(seed.job);
  });

  it('given a new document, then picking a client fills in their address as the site until one is typed; only what is set is sent', () => {
    const filled = jobForClient(NO_JOB, '12 Queen St\nWhangārei');
    expect(filled.siteAddress).toBe('12 Queen St\nWhangārei');
    expect(jobForClient(filled, null).siteAddress).toBe('');
    const typed = { ...filled, siteAddress: 'Lot 4, Kahikatea Drive', siteTyped: true };
    expect(jobForClient(typed, '1 Other Rd')).toBe(typed);
    expect(jobFieldsOf(NO_JOB, 'quote')).toEqual({});
    expect(jobFieldsOf({ ...typed, jobTitle: 'Heat pump' }, 'quote')).toEqual({ job_title: 'Heat pump', site_address: 'Lot 4, Kahikatea Drive' });
  });

  it('a deposit is sent as typed (without $ , % or spaces), only on a quote, and a saved one opens as it was asked for', () => {
    expect(jobFieldsOf({ ...NO_JOB, depositKind: 'percent', depositText: ' 30 %' }, 'quote')).toEqual({ deposit: { percent: '30' } });
    expect(jobFieldsOf({ ...NO_JOB, depositKind: 'amount', depositText: '$1,500' }, 'quote')).toEqual({ deposit: { amount: '1500' } });
    expect(jobFieldsOf({ ...NO_JOB, depositKind: 'amount', depositText: '500' }, 'invoice')).toEqual({});
    expect(depositOf({ depositKind: 'none', depositText: '30' })).toBeNull();
    expect(depositFieldsOf(null)).toEqual({ depositKind: 'none', depositText: '' });
    expect(depositFieldsOf({ percent: '25', amount: 287.5, formatted: '$287.50', wording: '' })).toEqual({ depositKind: 'percent', depositText: '25' });
    expect(depositFieldsOf({ percent: null, amount: 500, formatted: '$500.00', wording: '' })).toEqual({ depositKind: 'amount', depositText: '500.00' });
    // Saving a quote sends the deposit only when it changed; taking it off sends null.
    const original = { ...NO_JOB, depositKind: 'percent' as const, depositText: '30' };
    const details = { issueDate: '2026-05-05', dueDate: '', validUntil: '2026-06-04', notes: '' };
    const doc = { type: 'quote' as const, version: 3 };
    expect(revisionBody(doc, details, details, [], undefined, { original, now: original })).not.toHaveProperty('deposit');
    expect(revisionBody(doc, details, details, [], undefined, { original, now: { ...original, depositKind: 'none' } }).deposit).toBeNull();
    expect(revisionBody(doc, details, details, [], undefined, { original, now: { ...original, depositText: '40' } }).deposit).toEqual({ percent: '40' });
  });

  it('reads ?edit= from the address, and drops anything that cannot be an id', () => {
    expect(validateCalculatorSearch({ edit: '01a213f4-cb0e-7620-ae88-db50bbe1d216' })).toEqual({ edit: '01a213f4-cb0e-7620-ae88-db50bbe1d216' });
    expect(validateCalculatorSearch({ edit: '../x' })).toEqual({});
    expect(validateCalculatorSearch({ edit: 5 })).toEqual({});
    expect(validateCalculatorSearch({})).toEqual({});
  });
});
