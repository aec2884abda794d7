// A synced invoice's credit note in Xero: sent as a sales credit note (ACCRECCREDIT) with our
// figures to the cent, and allocated to the invoice (PUT /CreditNotes/{id}/Allocations) by as
// much as the invoice still owes there — through the after-commit reaction of POST
// /invoices/{id}/credit-notes. The invoice: 1 × $180 + 2.5 × $90 = 405.00 + GST 60.75 = 465.75.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
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

/** A connected user's invoice, sent, synced to Xero and paid 300.00 there too. */
async function syncedAndPaid(app: XeroTestApp) {
  const user = await connectedUser(app);
  const doc = await makeDocument(app.t, user, { then: [sendCmd] });
  expect((await app.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token)).status).toBe(200);
  await command(app.t, user, doc.id, payCmd('p1', '300.00'));
  await pushDocumentChangesToXero(app.t.deps, user.userId, doc.id);
  return { user, doc };
}

describe('credit notes to Xero', () => {
  it('sends each credit note once and allocates what the invoice still owes; money owed back stays as credit', async () => {
    const { user, doc: paid } = await syncedAndPaid(x);

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

  it('money paid back against credit notes goes to Xero as cash refunds of their credit, out of the credit each note has left there', async () => {
    // A Xero of its own: credit note numbers are unique in an organisation.
    const x = await startXeroApp({ adapter: { paymentsAccountCode: '090' } });
    onTestFinished(() => x.close());
    const { user, doc } = await syncedAndPaid(x);
    // 465.75 paid 300.00; CN 207.00 takes the 165.75 owing (41.25 left as credit in Xero), a second
    // CN of 100.00 finds nothing owing (all of it left as credit): 141.25 owed back.
    const first = await x.t.post(`/invoices/${doc.id}/credit-notes`, { lines: [{ line_index: 0 }], reason: 'Valve supplied by the client' }, user.token);
    const second = await x.t.post(`/invoices/${doc.id}/credit-notes`, { amount: 100, reason: 'Goodwill' }, user.token);
    expect([first.status, second.status]).toEqual([201, 201]);
    const noteIn = (reference: string) => {
      const n = x.fake.state.creditNotes.find((c) => c.Reference === doc.reference && c.CreditNoteNumber === reference);
      if (!n) throw new Error(`no Xero credit note ${reference}`);
      return n;
    };
    const cn1 = noteIn(first.json.reference);
    const cn2 = noteIn(second.json.reference);
    expect([cn1.allocations.map((a) => a.amountCents), cn2.allocations.map((a) => a.amountCents)]).toEqual([[16575n], []]);
    expect((await x.t.get(`/invoices/${doc.id}`, user.token)).json).toMatchObject({ to_refund: 141.25 });

    // All 141.25 recorded against the first note: Xero pays 41.25 out of its credit and 100.00 out of the second's.
    const refund = await x.t.post(`/credit-notes/${first.json.id}/refunds`, { amount: 141.25, date: '2026-05-20', reference: '' }, user.token);
    expect(refund.status).toBe(201);
    const refunds = x.fake.state.payments.filter((p) => p.CreditNoteID !== undefined && [cn1.CreditNoteID, cn2.CreditNoteID].includes(p.CreditNoteID));
    expect(refunds.map((p) => [p.CreditNoteID, p.amountCents, p.Date, p.Reference, p.AccountCode, p.Status])).toEqual([
      [cn1.CreditNoteID, 4125n, '2026-05-20', 'Bank transfer', '090', 'AUTHORISED'],
      [cn2.CreditNoteID, 10000n, '2026-05-20', 'Bank transfer', '090', 'AUTHORISED'],
    ]);
    const refundCalls = xeroCalls(x.fake, 'PUT', 'Payments').slice(-2);
    expect(JSON.parse(refundCalls[0]!.body)).toEqual({ Payments: [{ CreditNote: { CreditNoteID: cn1.CreditNoteID }, Account: { Code: '090' }, Date: '2026-05-20', Amount: 41.25, Reference: 'Bank transfer' }] });
    // The same figure in both places: what the app says is owed back and the credit Xero has left.
    const here = (await x.t.get(`/invoices/${doc.id}`, user.token)).json as { to_refund: number };
    const creditLeftInXero = [cn1, cn2].reduce(
      (a, n) => a + n.totalCents - n.allocations.reduce((b, al) => b + al.amountCents, 0n) - refunds.filter((p) => p.CreditNoteID === n.CreditNoteID).reduce((b, p) => b + p.amountCents, 0n),
      0n,
    );
    expect(BigInt(Math.round(here.to_refund * 100))).toBe(creditLeftInXero);
    expect(creditLeftInXero).toBe(0n);
    expect([cn1.Status, cn2.Status]).toEqual(['PAID', 'PAID']);
    // Pushing again sends nothing more.
    const putsBefore = xeroCalls(x.fake, 'PUT', 'Payments').length;
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [] });
    expect(xeroCalls(x.fake, 'PUT', 'Payments')).toHaveLength(putsBefore);
  });

  it('a refund Xero cannot take is not claimed as sent: refused in words, kept as the push error, sent once it can be', async () => {
    const x = await startXeroApp({ adapter: { paymentsAccountCode: '090' } });
    onTestFinished(() => x.close());
    const { user, doc } = await syncedAndPaid(x);
    const cn = await x.t.post(`/invoices/${doc.id}/credit-notes`, { lines: [{ line_index: 0 }], reason: 'Valve supplied by the client' }, user.token);
    const pushError = async () =>
      (await x.t.deps.store.db.query<{ last_push_error: string | null }>('SELECT last_push_error FROM xero_sync WHERE account_id = $1 AND document_id = $2', [user.userId, doc.id]))[0]?.last_push_error;
    const refundRows = () => x.t.deps.store.db.query('SELECT refund_id FROM xero_credit_note_refunds WHERE account_id = $1 AND document_id = $2', [user.userId, doc.id]);

    // Xero refuses the first attempt (its validation): nothing is recorded as sent.
    x.fake.failNext('PUT /Payments', 400);
    expect((await x.t.post(`/credit-notes/${cn.json.id}/refunds`, { amount: 20, date: '2026-05-20', reference: 'Refund 1' }, user.token)).status).toBe(201);
    expect(await pushError()).toMatch(/Xero/);
    expect(await refundRows()).toHaveLength(0);
    // Tried again by hand: sent once.
    const again = await x.t.post(`/integrations/xero/push/${doc.id}`, undefined, user.token);
    expect(again.status).toBe(200);
    expect(again.json.pushed).toEqual([expect.objectContaining({ type: 'credit_note_refund', refund_id: expect.any(String), amount: 20 })]);
    expect(await pushError()).toBeNull();

    // Our records say the credit left in Xero is smaller than the next refund (as if more of the
    // note had been allocated there): refused before Xero is asked, in words.
    await x.t.deps.store.db.query('UPDATE xero_credit_notes SET allocated_cents = allocated_cents + 1000 WHERE account_id = $1 AND document_id = $2', [user.userId, doc.id]);
    const putsBefore = xeroCalls(x.fake, 'PUT', 'Payments').length;
    expect((await x.t.post(`/credit-notes/${cn.json.id}/refunds`, { amount: 21.25, date: '2026-05-21', reference: 'Refund 2' }, user.token)).status).toBe(201);
    expect(xeroCalls(x.fake, 'PUT', 'Payments')).toHaveLength(putsBefore);
    expect(await pushError()).toBe(`Xero has $11.25 of credit left on this invoice's credit notes, so the refund of $21.25 on ${cn.json.reference} can't be sent there. Record it in Xero by hand.`);
    expect(await refundRows()).toHaveLength(1);
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
