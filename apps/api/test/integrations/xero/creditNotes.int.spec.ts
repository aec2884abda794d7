// A synced invoice's credit note in Xero: sent as a sales credit note (ACCRECCREDIT) with our
// figures to the cent, and allocated to the invoice (PUT /CreditNotes/{id}/Allocations) by as
// much as the invoice still owes there — through the after-commit reaction of POST
// /invoices/{id}/credit-notes. The invoice: 1 × $180 + 2.5 × $90 = 405.00 + GST 60.75 = 465.75.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushDocumentChangesToXero } from '../../../src/integrations/xero/sync.ts';
import { toXeroCreditNote } from '../../../src/integrations/xero/mapping.ts';
import { command, connectedUser, makeDocument, payCmd, sendCmd, startXeroApp, xeroCalls, type XeroTestApp } from './support.ts';
import { invoiceView } from './documents.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { paymentsAccountCode: '090' } });
});
afterAll(() => x?.close());

const xeroInvoice = (reference: string) => {
  const inv = x.fake.state.invoices.find((i) => i.Reference === reference);
  if (!inv) throw new Error(`no Xero invoice ${reference}`);
  return inv;
};

describe('credit notes to Xero', () => {
  it('sends each credit note once and allocates what the invoice still owes; money owed back stays as credit', async () => {
    const user = await connectedUser(x);
    const paid = await makeDocument(x.t, user, { then: [sendCmd] });
    expect((await x.t.post(`/integrations/xero/sync/${paid.id}`, undefined, user.token)).status).toBe(200);
    await command(x.t, user, paid.id, payCmd('p1', '300.00'));
    await pushDocumentChangesToXero(x.t.deps, user.userId, paid.id);

    // Line 1 credited: 180.00 + GST 27.00 = 207.00; 165.75 was owing, so 41.25 is owed back.
    const cn = await x.t.post(`/invoices/${paid.id}/credit-notes`, { lines: [{ line_index: 0 }], reason: 'Valve supplied by the client' }, user.token);
    expect(cn.status).toBe(201);
    expect((await x.t.get(`/invoices/${paid.id}`, user.token)).json).toMatchObject({ balance: -41.25, to_refund: 41.25 });
    const inXero = x.fake.state.creditNotes.find((n) => n.CreditNoteNumber === 'CN-0001');
    expect(inXero).toMatchObject({ Type: 'ACCRECCREDIT', Status: 'AUTHORISED', Reference: paid.reference, LineAmountTypes: 'Inclusive', Date: '2026-05-05', totalCents: 20700n, totalTaxCents: 2700n, subTotalCents: 18000n });
    expect(inXero!.allocations.map((a) => [a.InvoiceID, a.amountCents])).toEqual([[xeroInvoice(paid.reference).InvoiceID, 16575n]]);
    expect(xeroInvoice(paid.reference).Status).toBe('PAID');
    expect(xeroCalls(x.fake, 'PUT', 'CreditNotes')).toHaveLength(1);
    const allocation = xeroCalls(x.fake, 'PUT', `CreditNotes/${inXero!.CreditNoteID}/Allocations`);
    expect(allocation).toHaveLength(1);
    expect(JSON.parse(allocation[0]!.body)).toEqual({ Allocations: [{ Amount: 165.75, Invoice: { InvoiceID: xeroInvoice(paid.reference).InvoiceID }, Date: '2026-05-05' }] });

    // An unpaid invoice credited by an amount: 46.00 (GST 6.00) allocated in full; 419.75 still owing.
    const unpaid = await makeDocument(x.t, user, { then: [sendCmd] });
    await x.t.post(`/integrations/xero/sync/${unpaid.id}`, undefined, user.token);
    const amount = await x.t.post(`/invoices/${unpaid.id}/credit-notes`, { amount: 46, reason: 'Goodwill' }, user.token);
    expect(amount.json).toMatchObject({ reference: 'CN-0002', gst: 6, total: 46 });
    const second = x.fake.state.creditNotes.find((n) => n.CreditNoteNumber === 'CN-0002');
    expect(second).toMatchObject({ totalCents: 4600n, totalTaxCents: 600n, Reference: unpaid.reference });
    expect(second!.allocations.map((a) => a.amountCents)).toEqual([4600n]);
    const inv = xeroInvoice(unpaid.reference);
    expect(inv.Status).toBe('AUTHORISED');

    // Pushing again sends nothing more.
    const creditPutsBefore = xeroCalls(x.fake, 'PUT', 'CreditNotes').length;
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, unpaid.id)).toMatchObject({ outcome: 'pushed', pushed: [] });
    expect(xeroCalls(x.fake, 'PUT', 'CreditNotes')).toHaveLength(creditPutsBefore);
    expect(x.fake.state.creditNotes).toHaveLength(2);
  });

  it('maps a credit note to one GST-inclusive line per tax type carrying its GST exactly', () => {
    const view = invoiceView({
      lines: [{ description: 'Work', qty: 1, unit_price: 100 }, { description: 'Export crate', qty: 1, unit_price: 50, tax_rate: 0 }],
      then: [
        { type: 'MarkIssued' },
        { type: 'IssueCreditNote', data: { creditNoteId: 'cn1', number: 3, reference: 'CN-0003', date: '2026-06-01', reason: 'Returned', supplier: { name: 'K', gstNumber: '' }, credit: { kind: 'lines', lines: [{ lineIndex: 0 }, { lineIndex: 1 }] } } },
      ],
    });
    const el = JSON.parse(JSON.stringify(toXeroCreditNote(view.creditNotes[0]!, 'contact-1', { gstRegistered: true })));
    // 100.00 + GST 15.00 = 115.00 standard-rated, and 50.00 zero-rated.
    expect(el).toMatchObject({
      Type: 'ACCRECCREDIT', CreditNoteNumber: 'CN-0003', Reference: 'INV-0001', Date: '2026-06-01', LineAmountTypes: 'Inclusive', Status: 'AUTHORISED',
      LineItems: [
        { Quantity: 1, UnitAmount: 115, LineAmount: 115, TaxAmount: 15, TaxType: 'OUTPUT2' },
        { Quantity: 1, UnitAmount: 50, LineAmount: 50, TaxAmount: 0, TaxType: 'ZERORATED' },
      ],
    });
    expect(() => toXeroCreditNote(view.creditNotes[0]!, 'c', { gstRegistered: false })).toThrow(/not GST-registered/);
  });
});
