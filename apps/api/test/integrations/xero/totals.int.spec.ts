// One number in the app and in Xero. Each line goes to Xero with its amount and its share of the
// document's GST (largest remainder), so Xero — which adds up line taxes, rounding any it works out
// itself per line, half away from zero — lands on our GST and total to the cent; after each push the
// totals Xero answers with are kept on the invoice, and a difference is shown, never accepted.
// The fake Xero does its own money (packages/testkit/src/fakeXeroMoney.ts); the expected figures
// come from the independent oracle, not from the domain under test.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleLineArb } from '@tradie/testkit/oracle/arbitraries';
import { oracleTotals, type OracleLine, type OracleRounding } from '@tradie/testkit/oracle/oracle';
import { toDomainLine } from '@tradie/testkit/oracle/toEvents';
import { pushDocumentChangesToXero } from '../../../src/integrations/xero/sync.ts';
import { command, connectXero, sendCmd, setGstNumber, signUp, startXeroApp, type User, type XeroTestApp } from './support.ts';
import { setSettings } from '../../documents/support.ts';

let x: XeroTestApp;
// One account for the file: the fake organisation is shared, and each account numbers from INV-0001,
// so a second account's INV-0001 would be taken for an invoice an earlier, lost attempt made.
let user: User;
beforeAll(async () => {
  x = await startXeroApp();
  user = await connectedUser();
});
afterAll(async () => {
  await x?.close();
});

async function connectedUser(): Promise<User> {
  const user = await signUp(x.t);
  await setGstNumber(x.t, user);
  const { callback } = await connectXero(x, user);
  expect(callback.status, callback.text).toBe(200);
  return user;
}

let clientSeq = 0;
async function invoice(lines: unknown[]): Promise<{ id: string; reference: string; total: number }> {
  const client = await x.t.post('/clients', { name: `Client ${++clientSeq}`, email: '', phone: '' }, user.token);
  expect(client.status, client.text).toBe(201);
  const created = await x.t.post('/invoices', { type: 'invoice', client_id: client.json.id, line_items: lines }, user.token);
  expect(created.status, created.text).toBe(201);
  return { id: created.json.id, reference: created.json.reference, total: created.json.total };
}

const sync = (id: string) => x.t.post(`/integrations/xero/sync/${id}`, undefined, user.token);
const xeroInvoice = (id: string) => x.fake.state.invoices.find((i) => i.InvoiceID === id);
const THREE_DOLLAR_ELEVENS = [1, 2, 3].map((n) => ({ description: `Washer ${n}`, qty: 1, unit_price: 1.11, tax_included: false, tax_rate: 0.15 }));

describe('totals in Xero', () => {
  it('3 × $1.11: Xero gets each line amount and tax (17c, 17c, 16c), shows $3.83 with $0.50 GST as the app does, and is paid in full by Mark Paid', async () => {
    const doc = await invoice(THREE_DOLLAR_ELEVENS);
    expect(doc.total).toBe(3.83);
    const r = await sync(doc.id);
    expect(r.status, r.text).toBe(200);
    const inv = xeroInvoice(r.json.xero_invoice_id);
    // The request: LineAmount and TaxAmount on every line, written as the domain's decimals.
    const put = JSON.parse(x.fake.state.requests.find((q) => q.method === 'PUT' && q.url.includes('/Invoices') && q.body.includes(doc.reference))!.body);
    expect(put.Invoices[0].LineItems.map((l: Record<string, unknown>) => [l['LineAmount'], l['TaxAmount']])).toEqual([[1.11, 0.17], [1.11, 0.17], [1.11, 0.16]]);
    expect(inv?.LineItems.map((l) => l.taxCents)).toEqual([17n, 17n, 16n]);
    expect([inv?.subTotalCents, inv?.totalTaxCents, inv?.totalCents]).toEqual([333n, 50n, 383n]);

    const detail = await x.t.get(`/invoices/${doc.id}`, user.token);
    expect(detail.json.accounting).toMatchObject({ provider: 'xero', reported: { subtotal: 3.33, gst: 0.5, total: 3.83 }, difference: null });

    const paid = await x.t.post(`/invoices/${doc.id}/mark-paid`, {}, user.token);
    expect(paid.status, paid.text).toBe(200);
    expect(inv?.Status).toBe('PAID');
    expect(inv?.paidCents).toBe(383n);
  });

  it('a Xero that works out its own tax per line shows $3.84: the difference is kept on the invoice and shown, not accepted', async () => {
    const doc = await invoice(THREE_DOLLAR_ELEVENS);
    x.fake.computeOwnTax(true);
    try {
      const r = await sync(doc.id);
      expect(r.status, r.text).toBe(200);
      expect(xeroInvoice(r.json.xero_invoice_id)?.totalCents).toBe(384n);
    } finally {
      x.fake.computeOwnTax(false);
    }
    const detail = await x.t.get(`/invoices/${doc.id}`, user.token);
    expect(detail.json.total).toBe(3.83);
    expect(detail.json.accounting).toMatchObject({ reported: { subtotal: 3.33, gst: 0.51, total: 3.84 }, difference: 'Xero shows $3.84 — this invoice is $3.83' });
    const events = (await x.t.deps.store.readStream(`document-${doc.id}`)).events.filter((e) => e.type === 'AccountingTotalsReported');
    expect(events.map((e) => e.data)).toEqual([{ documentId: doc.id, provider: 'xero', subtotal: '3.33', gst: '0.51', total: '3.84' }]);
    // The same answer again (the send pushed to Xero answers with the invoice) is not recorded twice.
    await command(x.t, user, doc.id, sendCmd);
    expect(await pushDocumentChangesToXero(x.t.deps, user.userId, doc.id)).toMatchObject({ outcome: 'pushed', pushed: [{ type: 'sent' }] });
    expect((await x.t.deps.store.readStream(`document-${doc.id}`)).events.filter((e) => e.type === 'AccountingTotalsReported')).toHaveLength(1);
  });

  it('property: any invoice Xero can hold has, in Xero, the subtotal, GST and total the oracle works out, and no difference is shown', async () => {
    // Xero prices a whole invoice one way: every taxed line GST-inclusive, or every one exclusive.
    const documentArb = fc.record({
      inclusive: fc.boolean(),
      rounding: fc.constantFrom<OracleRounding>('total', 'line'),
      lines: fc.array(oracleLineArb(true), { minLength: 1, maxLength: 30 }),
    });
    let rounding: OracleRounding | null = null;
    await fc.assert(
      fc.asyncProperty(documentArb, async (d) => {
        const lines: OracleLine[] = d.lines.map((l) => ({ ...l, inclusive: d.inclusive }));
        if (rounding !== d.rounding) {
          // Straight into the settings: through the screen a change waits for the next GST period.
          await setSettings(x.t, user.userId, { gst_rounding: d.rounding });
          rounding = d.rounding;
        }
        const want = oracleTotals(lines, d.rounding);
        const doc = await invoice(lines.map(toDomainLine));
        const r = await sync(doc.id);
        expect(r.status, r.text).toBe(200);
        const inv = xeroInvoice(r.json.xero_invoice_id);
        expect([inv?.subTotalCents, inv?.totalTaxCents, inv?.totalCents]).toEqual([want.subtotal, want.gst, want.total]);
        expect(inv?.LineItems.map((l) => l.lineAmountCents)).toEqual(want.lineAmounts);
        const detail = await x.t.get(`/invoices/${doc.id}`, user.token);
        expect(detail.json.accounting.difference).toBeNull();
      }),
      { numRuns: 40 },
    );
  });
});
