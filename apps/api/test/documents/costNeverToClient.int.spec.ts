// The tradie's cost and profit never reach anything the client sees. A quote and then its invoice,
// priced with costs, are sent, opened through the client's links, printed (the signed-in PDF and
// the client's), emailed (the text, the HTML and each attached PDF read back with pdftotext),
// credited by a line (the credit note's page entry, its PDF and its email), and copied to Xero
// (the invoice and the credit note as mapped): no cost, cost amount, profit, margin, markup or
// category appears in any of them — while the tradie's own detail has them all.
import { describe, expect, it } from 'vitest';
import { toXeroCreditNote, toXeroInvoice } from '../../src/integrations/xero/mapping.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { publicClient, sendAndReadLink } from '../clientLinks/support.ts';
import { invoiceView, send } from '../integrations/xero/documents.ts';
import { addClient, pdfText } from './support.ts';

const t = useTestApp();

// 2 × $1,234.56 costing $987.6543 each (subcontractor) and a $500 fit-off costing $321.09 (labour):
// cost 1975.31 + 321.09 = 2296.40, sell 2969.12, gross profit 672.72.
const LINES = [
  { description: 'Copper pipe 15 mm', qty: 2, unit_price: '1234.56', cost: '987.6543', category: 'subcontractor', markup: '25' },
  { description: 'Fit-off', qty: 1, unit_price: 500, cost: '321.09', category: 'labour' },
];
const FORBIDDEN = ['987.65', '1975.31', '1,975.31', '321.09', '2296.4', '2,296.40', '672.72', 'subcontractor', 'Subcontractor', 'ubcontract', 'cost', 'Cost', 'COST', 'profit', 'Profit', 'argin', 'arkup', 'category', 'Category'];

function expectNoCost(where: string, text: string): void {
  for (const f of FORBIDDEN) expect(text.includes(f), `${where} shows '${f}'`).toBe(false);
}

async function pdfOf(path: string, token?: string): Promise<string> {
  const r = await t.app.request(`/api/v1${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {}, { remoteAddress: '198.51.100.91' });
  expect(r.status, path).toBe(200);
  return pdfText(Buffer.from(await r.arrayBuffer()));
}

/** Every mail sent about `id` since `from`: its subject, text, HTML and each attached PDF's text. */
function mailTexts(id: string): string[] {
  return t.mailer.sent
    .filter((m) => m.headers?.['X-Entity-Ref-ID'] === id || m.subject.includes('CN-'))
    .flatMap((m) => [m.subject, m.text, m.html ?? '', ...(m.attachments ?? []).map((a) => (a.filename?.endsWith('.pdf') ? pdfText(Buffer.from(a.content as Buffer)) : String(a.content)))]);
}

describe('cost and profit never reach the client', () => {
  it('the tradie sees them; the link pages, PDFs, emails and the Xero copy do not', async () => {
    const u = await signUp(t);
    const client_id = await addClient(t, u.userId, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
    const q = await t.post('/invoices', { type: 'quote', client_id, line_items: LINES }, u.token);
    expect(q.status).toBe(201);
    // The tradie's own detail has them (so the checks below can fail).
    expect(q.json.profit).toMatchObject({ cost: 2296.4, gross_profit: 672.72 });
    expect(JSON.stringify(q.json)).toContain('subcontractor');

    const quoteLink = await sendAndReadLink(t, u, q.json.id);
    const c = publicClient(t);
    const quotePage = await c.get(`/quotes/${quoteLink.token}`);
    expect(quotePage.status).toBe(200);
    expectNoCost('the quote page', JSON.stringify(quotePage.json));
    expectNoCost('the quote PDF', await pdfOf(`/invoices/${q.json.id}/pdf`, u.token));
    expectNoCost("the client's quote PDF", await pdfOf(`/public/quotes/${quoteLink.token}/pdf`));
    for (const text of mailTexts(q.json.id)) expectNoCost('the quote email', text);

    expect((await t.post(`/invoices/${q.json.id}/accept`, undefined, u.token)).status).toBe(200);
    const inv = await t.post(`/invoices/${q.json.id}/convert`, undefined, u.token);
    expect(inv.json.profit.cost).toBe(2296.4);
    const invoiceLink = await sendAndReadLink(t, u, inv.json.id);
    const cn = await t.post(`/invoices/${inv.json.id}/credit-notes`, { lines: [{ line_index: 0, qty: 1 }], reason: 'One length returned' }, u.token);
    expect(cn.status).toBe(201);
    expect((await t.post(`/credit-notes/${cn.json.id}/send`, undefined, u.token)).status).toBeLessThan(300);
    const invoicePage = await c.get(`/invoices/${invoiceLink.token}`);
    expect(invoicePage.status).toBe(200);
    expectNoCost('the invoice page', JSON.stringify(invoicePage.json));
    expectNoCost('the invoice PDF', await pdfOf(`/invoices/${inv.json.id}/pdf`, u.token));
    expectNoCost("the client's invoice PDF", await pdfOf(`/public/invoices/${invoiceLink.token}/pdf`));
    expectNoCost("the client's credit note PDF", await pdfOf(`/public/invoices/${invoiceLink.token}/credit-notes/${cn.json.id}/pdf`));
    const mails = mailTexts(inv.json.id);
    expect(mails.length).toBeGreaterThan(0);
    for (const text of mails) expectNoCost('the invoice and credit note emails', text);
  });

  it('the Xero copy of an invoice and of a credit note carries no cost', () => {
    const view = invoiceView({ lines: LINES, then: [send] });
    expectNoCost('the Xero invoice', JSON.stringify(toXeroInvoice(view, 'contact-1')));
    const credited = invoiceView({
      lines: LINES,
      then: [
        send,
        { type: 'IssueCreditNote', data: { creditNoteId: 'cn-1', number: 1, reference: 'CN-0001', date: '2026-05-05', reason: 'Returned', supplier: { name: 'Kauri Plumbing', gstNumber: '' }, credit: { kind: 'lines', lines: [{ lineIndex: 0, qty: '1' }] } } },
      ],
    });
    expect(credited.creditNotes[0]!.lines[0]!.line.cost).toBe('987.6543');
    expectNoCost('the Xero credit note', JSON.stringify(toXeroCreditNote(credited.creditNotes[0]!, 'contact-1')));
  });
});
