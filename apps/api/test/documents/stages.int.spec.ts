// POST /invoices/{quoteId}/stages and /variations: a deposit, a progress invoice and the final
// invoice from an accepted quote, each a numbered draft invoice linked to the quote; refusals write
// nothing; the quote's detail carries the Quoted / Invoiced / Remaining numbers. Figures worked by
// hand in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { eventTypes, line } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signUp>>;

async function acceptedQuote(u: User): Promise<string> {
  // Labour 10 × $85 + GST: 850.00 + 127.50 GST = 977.50. Parts $230 incl (30.00 GST).
  // Total 1207.50, GST 157.50.
  const q = await t.post('/invoices', { type: 'quote', line_items: [line('Labour', 10, 85), line('Parts', 1, 230, { tax_included: true })], notes: 'Job 42' }, u.token);
  expect(q.status).toBe(201);
  expect((await t.post(`/invoices/${q.json.id}/accept`, undefined, u.token)).status).toBe(200);
  return q.json.id as string;
}

const countInvoices = async (accountId: string): Promise<number> =>
  Number((await t.deps.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM documents_list WHERE account_id = $1 AND type = 'invoice'", [accountId]))[0]?.n);

describe('stage invoices from an accepted quote', () => {
  it('deposit 20 %, progress by quantity, a variation, then the final invoice: the stages add up to the quote', async () => {
    const u = await signUp(t);
    const quoteId = await acceptedQuote(u);

    // Deposit 20 %: Labour 97750c × 0.2 = 19550c, Parts 23000c × 0.2 = 4600c: 241.50, GST 3/23 = 31.50.
    const deposit = await t.post(`/invoices/${quoteId}/stages`, { kind: 'deposit', percent: 20 }, u.token);
    expect(deposit.status).toBe(201);
    expect(deposit.json).toMatchObject({ type: 'invoice', reference: 'INV-0001', status: 'draft', converted_from: quoteId, total: 241.5, gst: 31.5, notes: 'Job 42' });
    expect(deposit.json.line_items).toMatchObject([
      { description: 'Deposit (20 % of the line): Labour', qty: 1, unit_price: 195.5, tax_included: true, tax_rate: 0.15 },
      { description: 'Deposit (20 % of the line): Parts', qty: 1, unit_price: 46, tax_included: true, tax_rate: 0.15 },
    ]);

    // Progress: 5 of the 10 hours of Labour, half the line: cumulative 0.2 + 0.5 = 0.7,
    // 97750 × 0.7 = 68425c, less 19550 = 48875c: 488.75, GST 63.75.
    const progress = await t.post(`/invoices/${quoteId}/stages`, { kind: 'progress', lines: [{ line_index: 0, qty: 5 }] }, u.token);
    expect(progress.status).toBe(201);
    expect(progress.json).toMatchObject({ reference: 'INV-0002', total: 488.75, gst: 63.75 });

    // 90 % more of the quote would take Labour (70 % invoiced) past 100 %: refused, nothing written.
    const before = (await t.get(`/invoices/${quoteId}`, u.token)).json.version;
    const over = await t.post(`/invoices/${quoteId}/stages`, { kind: 'progress', percent: '90' }, u.token);
    expect(over.status).toBe(422);
    expect(over.json.detail).toMatch(/past 100 % of the quote/);
    expect((await t.get(`/invoices/${quoteId}`, u.token)).json.version).toBe(before);
    expect(await countInvoices(u.userId)).toBe(2);

    // A variation: a gate, $100 + GST = 115.00. The quote as accepted stays 1207.50; once the
    // variation is approved, 1322.50 can be invoiced.
    const varied = await t.post(`/invoices/${quoteId}/variations`, { line: line('Extra gate', 1, 100) }, u.token);
    expect(varied.status).toBe(201);
    expect(varied.json).toMatchObject({ status: 'accepted', total: 1207.5, gst: 157.5, stages: { quoted: 1207.5 }, variations: [{ name: 'Variation 1', status: 'awaiting_approval', total: 115 }] });
    expect(varied.json.line_items).toHaveLength(2);
    const approved = await t.post(`/invoices/${quoteId}/variations/${varied.json.variations[0].id}/approve`, undefined, u.token);
    expect(approved.json).toMatchObject({ total: 1207.5, stages: { quoted: 1322.5 }, variations: [{ status: 'approved', approved_by: 'business' }] });

    // Final: Labour 97750 − 68425 = 29325c, Parts 23000 − 4600 = 18400c, gate 11500c: 592.25,
    // GST 59225 × 3/23 = 77.25. 241.50 + 488.75 + 592.25 = 1322.50; 31.50 + 63.75 + 77.25 = 172.50.
    const final = await t.post(`/invoices/${quoteId}/stages`, { kind: 'final' }, u.token);
    expect(final.status).toBe(201);
    expect(final.json).toMatchObject({ reference: 'INV-0003', total: 592.25, gst: 77.25 });
    expect(final.json.notes).toBe('Job 42\n\nInvoiced earlier for this quote:\nINV-0001 (deposit): $241.50 incl. GST\nINV-0002 (progress): $488.75 incl. GST\nThis final invoice is for the remainder.');
    expect(final.json.line_items.every((l: { unit_price: number; gst: number }) => l.unit_price > 0 && l.gst >= 0)).toBe(true);

    const quote = (await t.get(`/invoices/${quoteId}`, u.token)).json;
    expect(quote.stages).toEqual({
      quoted: 1322.5,
      invoiced: 1322.5,
      remaining: 0,
      invoices: [
        { id: deposit.json.id, reference: 'INV-0001', kind: 'deposit', total: 241.5, credited: 0 },
        { id: progress.json.id, reference: 'INV-0002', kind: 'progress', total: 488.75, credited: 0 },
        { id: final.json.id, reference: 'INV-0003', kind: 'final', total: 592.25, credited: 0 },
      ],
    });
    expect(await eventTypes(t, `document-${quoteId}`)).toEqual(['DocumentDrafted', 'QuoteAccepted', 'StageInvoiced', 'StageInvoiced', 'VariationProposed', 'VariationApproved', 'StageInvoiced']);
    expect(deposit.json.stages).toBeNull();

    // Nothing is left: another final is refused; the quote can no longer be converted whole.
    expect((await t.post(`/invoices/${quoteId}/stages`, { kind: 'final' }, u.token)).status).toBe(422);
    expect((await t.post(`/invoices/${quoteId}/convert`, undefined, u.token)).status).toBe(409);
  });

  it('a credited deposit gives its share back: Invoiced net of credit notes, the replacement deposit and the final invoice bill the whole quote', async () => {
    const u = await signUp(t);
    // $12,345.65 + GST 1,851.8475 → 1,851.85: $14,197.50. 20 % = 1419750c / 5 = 283950c.
    const q = await t.post('/invoices', { type: 'quote', line_items: [line('Kitchen', 1, 12345.65)] }, u.token);
    expect((await t.post(`/invoices/${q.json.id}/accept`, undefined, u.token)).status).toBe(200);
    const deposit = (await t.post(`/invoices/${q.json.id}/stages`, { kind: 'deposit', percent: 20 }, u.token)).json;
    expect(deposit.total).toBe(2839.5);
    expect((await t.post(`/invoices/${deposit.id}/issue`, undefined, u.token)).status).toBe(200);
    const cn = await t.post(`/invoices/${deposit.id}/credit-notes`, { lines: [{ line_index: 0 }], reason: 'Wrong deposit' }, u.token);
    expect(cn.status).toBe(201);
    expect(cn.json.total).toBe(2839.5);
    expect((await t.get(`/invoices/${q.json.id}`, u.token)).json.stages).toEqual({
      quoted: 14197.5, invoiced: 0, remaining: 14197.5,
      invoices: [{ id: deposit.id, reference: 'INV-0001', kind: 'deposit', total: 2839.5, credited: 2839.5 }],
    });
    expect(await eventTypes(t, `document-${q.json.id}`)).toEqual(['DocumentDrafted', 'QuoteAccepted', 'StageInvoiced', 'StageCredited']);
    const again = (await t.post(`/invoices/${q.json.id}/stages`, { kind: 'deposit', percent: 20 }, u.token)).json;
    const final = (await t.post(`/invoices/${q.json.id}/stages`, { kind: 'final' }, u.token)).json;
    expect([again.total, final.total]).toEqual([2839.5, 11358]);
    expect(final.notes).toBe('Invoiced earlier for this quote:\nINV-0001 (deposit): $2,839.50 incl. GST, less $2,839.50 credited (CN-0001)\nINV-0002 (deposit): $2,839.50 incl. GST\nThis final invoice is for the remainder.');
    expect((await t.get(`/invoices/${q.json.id}`, u.token)).json.stages).toMatchObject({ quoted: 14197.5, invoiced: 14197.5, remaining: 0 });
  });

  it('refuses a quote that is not accepted, and bad input, writing nothing', async () => {
    const u = await signUp(t);
    const q = await t.post('/invoices', { type: 'quote', line_items: [line('Labour', 1, 100)] }, u.token);
    const draft = await t.post(`/invoices/${q.json.id}/stages`, { kind: 'deposit', percent: 10 }, u.token);
    expect(draft.status).toBe(409);
    expect(draft.json.detail).toMatch(/only an accepted quote/);
    expect((await t.post(`/invoices/${q.json.id}/variations`, { line: line('More', 1, 5) }, u.token)).status).toBe(409);
    const quoteId = await acceptedQuote(u);
    for (const body of [{ kind: 'deposit' }, { kind: 'deposit', percent: 10, amount: 5 }, { kind: 'final', percent: 5 }, { kind: 'bonus', percent: 5 }]) {
      const r = await t.post(`/invoices/${quoteId}/stages`, body, u.token);
      expect(r.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.json.detail).toBeTruthy();
    }
    for (const body of [{ kind: 'deposit', percent: 101 }, { kind: 'deposit', amount: '2000.00' }, { kind: 'progress', lines: [{ line_index: 5, percent: 10 }] }, { kind: 'deposit', amount: '1.005' }]) {
      const r = await t.post(`/invoices/${quoteId}/stages`, body, u.token);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json.detail).toBeTruthy();
    }
    expect(await countInvoices(u.userId)).toBe(0);
    // An invoice is not a quote; another account's quote is not found.
    const other = await signUp(t);
    expect((await t.post(`/invoices/${quoteId}/stages`, { kind: 'final' }, other.token)).status).toBe(404);
  });

  it('honours the Idempotency-Key: a repeat replays the first answer and makes no second invoice', async () => {
    const u = await signUp(t);
    const quoteId = await acceptedQuote(u);
    const headers = { 'Idempotency-Key': 'stage-once-1' };
    const a = await t.post(`/invoices/${quoteId}/stages`, { kind: 'deposit', amount: '100.00' }, u.token, headers);
    const b = await t.post(`/invoices/${quoteId}/stages`, { kind: 'deposit', amount: '100.00' }, u.token, headers);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('Idempotent-Replayed')).toBe('true');
    expect(b.json.id).toBe(a.json.id);
    expect(a.json.total).toBe(100);
    expect(await countInvoices(u.userId)).toBe(1);
    // 50 % complete: each line up to half its value. $100 was spread over 97750c and 23000c
    // (120750c) by the largest remainder: 8095.24… → 8095c and 1904.76… → 1905c; half of the
    // values is 48875c and 11500c, less those: 40780c + 9595c = 50375c.
    const half = await t.post(`/invoices/${quoteId}/stages`, { kind: 'progress', percent_complete: 50 }, u.token);
    expect(half.status).toBe(201);
    expect(half.json.total).toBe(503.75);
    expect((await t.get(`/invoices/${quoteId}`, u.token)).json.stages).toMatchObject({ quoted: 1207.5, invoiced: 603.75, remaining: 603.75 });
  });

  it('a stage invoice voided or deleted gives its share back: it can be invoiced again', async () => {
    const u = await signUp(t);
    const quoteId = await acceptedQuote(u);
    // Deposit 50 %: 60375c. Deleted while a draft: nothing invoiced again.
    const first = await t.post(`/invoices/${quoteId}/stages`, { kind: 'deposit', percent: 50 }, u.token);
    expect((await t.del(`/invoices/${first.json.id}`, u.token)).status).toBe(200);
    expect((await t.get(`/invoices/${quoteId}`, u.token)).json.stages).toMatchObject({ invoiced: 0, remaining: 1207.5, invoices: [] });
    // 60 % then issued and voided: 60 % can be invoiced again, so 100 % more is refused only past it.
    const second = await t.post(`/invoices/${quoteId}/stages`, { kind: 'deposit', percent: 60 }, u.token);
    expect(second.json.total).toBe(724.5);
    expect((await t.post(`/invoices/${quoteId}/stages`, { kind: 'progress', percent: 50 }, u.token)).status).toBe(422);
    expect((await t.post(`/invoices/${second.json.id}/issue`, undefined, u.token)).status).toBe(200);
    expect((await t.post(`/invoices/${second.json.id}/void`, { reason: 'Wrong amount' }, u.token)).status).toBe(200);
    expect(await eventTypes(t, `document-${quoteId}`)).toEqual(['DocumentDrafted', 'QuoteAccepted', 'StageInvoiced', 'StageWithdrawn', 'StageInvoiced', 'StageWithdrawn']);
    const final = await t.post(`/invoices/${quoteId}/stages`, { kind: 'final' }, u.token);
    expect(final.json.total).toBe(1207.5);
  });
});
