// A deposit asked for on a quote: kept and shown on the quote (the tradie's detail and the client's
// page say the same figure), and invoiced the moment the client accepts through the link: the
// deposit invoice is issued, due on receipt, with its own link for the client to pay it. A deposit
// that cannot be issued then never costs the acceptance. Bad input is refused in words.
import { DEPOSIT_MESSAGES, documentStreamId } from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { pdfText, setSettings } from '../documents/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { documentFor, type publicClient, sentQuoteLink } from './support.ts';

const t = useTestApp();

// The quote of documentFor: $2,400 + 3 × $85.50 = $2,656.50; GST 398.475 → $398.47 (the GST
// rounding rule, on the total) = $3,054.97. Line values 2760.00 and 294.97 (the largest
// remainder). 30 %: 828.00 + 88.491 → 88.49 = $916.49.
const THIRTY_PERCENT = '$916.49';

async function accept(c: ReturnType<typeof publicClient>, token: string) {
  const page = (await c.get(`/quotes/${token}`)).json;
  return c.post(`/quotes/${token}/accept`, { signer_name: 'Jo Bloggs', shown_sha256: page.shown_sha256, version: page.version });
}

describe('a deposit on acceptance', () => {
  it('shows the same figure to the tradie and the client, and accepting issues the deposit invoice the client can pay', async () => {
    const { u, q, token, c } = await sentQuoteLink(t, { deposit: { percent: '30' } });
    await t.deps.store.db.query("UPDATE business_settings SET bank_name = 'ASB', bank_account_name = 'Kōwhai Ltd', bank_account_number = '12-3456-7890103-00' WHERE account_id = $1", [u.userId]);
    const detail = (await t.get(`/invoices/${q.id}`, u.token)).json;
    expect(detail.deposit).toEqual({ percent: '30', amount: 916.49, formatted: THIRTY_PERCENT, wording: `A 30 % deposit (${THIRTY_PERCENT}) is due on acceptance.` });
    const page = (await c.get(`/quotes/${token}`)).json;
    expect(page.document.deposit).toBe(detail.deposit.wording);
    expect(page).toMatchObject({ deposit_invoice: null, deposit_pending: false });
    // The quote's PDF says it too.
    const pdf = await t.app.request(`/api/v1/invoices/${q.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } });
    expect(pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/\s+/g, ' ')).toContain(detail.deposit.wording);

    const r = await accept(c, token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      state: 'accepted',
      deposit_pending: false,
      deposit_invoice: {
        reference: 'INV-0001', formatted: { total: THIRTY_PERCENT, balance: THIRTY_PERCENT }, due_date: '2026-05-05', paid: false, pay_by_card: false,
        bank: { bank_name: 'ASB', account_name: 'Kōwhai Ltd', account_number: '12-3456-7890103-00' },
      },
    });
    // The invoice is issued, due on receipt, and its page is the client's to pay from.
    const path: string = r.json.deposit_invoice.path;
    expect(path).toMatch(/^\/i\/[A-Za-z0-9_-]+$/);
    const invoicePage = (await c.get(`/invoices/${path.slice(3)}`)).json;
    expect(invoicePage.document).toMatchObject({ reference: 'INV-0001', formatted: { total: THIRTY_PERCENT, balance: THIRTY_PERCENT } });
    expect(invoicePage.bank).toMatchObject({ account_number: '12-3456-7890103-00' });
    const list = (await t.get('/invoices?type=invoice', u.token)).json;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ reference: 'INV-0001', status: 'issued', total: 916.49, due_date: '2026-05-05' });
    const invoice = (await t.get(`/invoices/${list[0].id}`, u.token)).json;
    expect(invoice).toMatchObject({ payment_terms: 'Due on receipt', converted_from: q.id, deposit: null });
    // The quote records the stage, so the next stages invoice the rest.
    expect((await t.get(`/invoices/${q.id}`, u.token)).json.stages).toMatchObject({ invoiced: 916.49, remaining: 2138.48, invoices: [{ kind: 'deposit', reference: 'INV-0001', total: 916.49 }] });

    // A double tap: the same page, still one deposit invoice.
    const again = await accept(c, token);
    expect(again.status).toBe(200);
    expect(again.json.deposit_invoice.reference).toBe('INV-0001');
    expect((await t.get('/invoices?type=invoice', u.token)).json).toHaveLength(1);

    // Paid: the quote page says so.
    expect((await t.post(`/invoices/${list[0].id}/payments`, { amount: '916.49', reference: 'Bloggs deposit' }, u.token)).status).toBe(201);
    expect((await c.get(`/quotes/${token}`)).json.deposit_invoice).toMatchObject({ paid: true, formatted: { balance: '$0.00' } });
  });

  it('an amount is that amount; a quote without a deposit shows none and hashes as before', async () => {
    const { u, q, token, c } = await sentQuoteLink(t, { deposit: { amount: '500' } });
    expect((await t.get(`/invoices/${q.id}`, u.token)).json.deposit).toMatchObject({ percent: null, amount: 500, wording: 'A deposit of $500.00 is due on acceptance.' });
    expect((await accept(c, token)).json.deposit_invoice.formatted.total).toBe('$500.00');

    const plain = await sentQuoteLink(t);
    const page = (await plain.c.get(`/quotes/${plain.token}`)).json;
    expect('deposit' in page.document).toBe(false);
    expect((await accept(plain.c, plain.token)).json).toMatchObject({ deposit_invoice: null, deposit_pending: false });
    expect((await t.get('/invoices?type=invoice', plain.u.token)).json).toHaveLength(0);
  });

  it('a deposit that cannot be issued now leaves the acceptance standing and says the business will send it', async () => {
    const { u, q, token, c } = await sentQuoteLink(t, { deposit: { percent: '50' } });
    // The business deregistered for GST after sending: a GST-charging invoice can't be issued now.
    await setSettings(t, u.userId, { gst_registered: false });
    const r = await accept(c, token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ state: 'accepted', deposit_invoice: null, deposit_pending: true });
    expect((await t.get(`/invoices/${q.id}`, u.token)).json.status).toBe('accepted');
    // Nothing of the deposit was written: no invoice, no stage, no number used.
    expect((await t.get('/invoices?type=invoice', u.token)).json).toHaveLength(0);
    const events = (await t.deps.store.readStream(documentStreamId(q.id))).events.map((e) => e.type);
    expect(events).not.toContain('StageInvoiced');
  });

  it('refuses a deposit that cannot be one, in words, and writes nothing', async () => {
    const u = await signUp(t);
    const refused = async (type: 'quote' | 'invoice', deposit: unknown) => {
      const before = (await t.get('/invoices', u.token)).json.length;
      const r = await t.post('/invoices', { type, line_items: [{ description: 'Hot water cylinder', qty: 1, unit_price: 1000, tax_rate: 0.15 }], deposit }, u.token);
      expect(r.status).toBe(422);
      expect((await t.get('/invoices', u.token)).json).toHaveLength(before);
      return r.json.detail as string;
    };
    expect(await refused('quote', { percent: '0' })).toBe(DEPOSIT_MESSAGES.percent);
    expect(await refused('quote', { percent: '101' })).toBe(DEPOSIT_MESSAGES.percent);
    expect(await refused('quote', { amount: 'lots' })).toBe(DEPOSIT_MESSAGES.amount);
    expect(await refused('quote', { amount: '1150.01' })).toBe("The deposit can't be more than the quote's total ($1,150.00)");
    expect(await refused('quote', { percent: '10', amount: '5' })).toMatch(/^The deposit must be a percentage/);
    expect(await refused('invoice', { percent: '30' })).toBe(DEPOSIT_MESSAGES.quotesOnly);

    // Revised: kept when left out, taken off with null, refused when the lines no longer hold it.
    const q = await documentFor(t, u, 'quote', { deposit: { amount: '1000' } });
    const lines = [{ description: 'Small job', qty: 1, unit_price: 100, tax_rate: 0.15 }];
    const smaller = await t.put(`/invoices/${q.id}`, { line_items: lines }, u.token);
    expect(smaller.status).toBe(422);
    expect(smaller.json.detail).toBe("The deposit can't be more than the quote's total ($115.00)");
    const kept = await t.put(`/invoices/${q.id}`, { line_items: [...lines, { description: 'More', qty: 10, unit_price: 100, tax_rate: 0.15 }] }, u.token);
    expect(kept.json.deposit).toMatchObject({ amount: 1000 });
    expect((await t.put(`/invoices/${q.id}`, { line_items: lines, deposit: null }, u.token)).json.deposit).toBeNull();
    // A duplicate asks for the same deposit.
    const withDeposit = await documentFor(t, u, 'quote', { deposit: { percent: '25' } });
    expect((await t.post(`/invoices/${withDeposit.id}/duplicate`, undefined, u.token)).json.deposit).toMatchObject({ percent: '25' });
  });
});
