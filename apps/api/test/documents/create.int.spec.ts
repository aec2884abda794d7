// POST /invoices and GET /invoices/{id}: numbering, the client snapshot, dates in NZ, payment
// terms, validation with nothing written, Idempotency-Key, and totals equal to the domain's.
import { MAX_DOCUMENT_TOTAL, centsToNumber, documentTotals, linesSchema, sequenceStreamId, toCents } from '@tradie/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S19O_THREE_LINE_VECTORS, S19O_VECTORS } from '@tradie/testkit/oracle/gstVectors';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { addClient, line, removeClient, setSettings } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const countDocs = async (accountId: string): Promise<number> =>
  Number((await t.deps.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents_list WHERE account_id = $1', [accountId]))[0]?.n);

describe('POST /invoices', () => {
  it('creates an invoice with the next number, the client snapshot, NZ dates and the domain totals', async () => {
    const u = await signUp(t);
    const clientId = await addClient(t, u.userId, { name: 'Hemi Walker', email: 'hemi@example.nz', address: '12 Queen St\nWhangārei', is_business: 'true', business_name: 'Walker Builders' });
    const r = await t.post('/invoices', { type: 'invoice', client_id: clientId, line_items: [line('Labour', 2, 85), line('Parts', 1, 40.5)] }, u.token);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      type: 'invoice',
      reference: 'INV-0001',
      number: 1,
      status: 'draft',
      payment_status: 'unpaid',
      paid_date: null,
      client_id: clientId,
      client_name: 'Walker Builders (Hemi Walker)',
      client: { id: clientId, name: 'Hemi Walker', email: 'hemi@example.nz', address: '12 Queen St\nWhangārei', business_name: 'Walker Builders' },
      // The test clock is 2026-05-04T21:30Z: 9:30 am on 5 May in New Zealand.
      issue_date: '2026-05-05',
      due_date: '2026-05-12',
      valid_until: null,
      payment_terms: '7 days',
      // GST 15% of $210.50 is 3157.5 c: s 19O drops exactly half a cent.
      subtotal: 210.5,
      gst: 31.57,
      total: 242.07,
      paid: 0,
      balance: 242.07,
      formatted: { subtotal: '$210.50', gst: '$31.57', total: '$242.07', balance: '$242.07' },
      line_items: [
        { description: 'Labour', qty: 2, unit_price: 85, tax_included: false, tax_rate: 0.15, amount: 170, gst: 25.5 },
        { description: 'Parts', qty: 1, unit_price: 40.5, tax_included: false, tax_rate: 0.15, amount: 40.5, gst: 6.07 },
      ],
      payments: [],
      sends: [],
      converted_to: null,
      converted_from: null,
      extra_data: {},
      pdf_url: `/invoices/${r.json.id}/pdf`,
      version: 1,
    });
    const got = await t.get(`/invoices/${r.json.id}`, u.token);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(r.json);
  });

  it('numbers quotes and invoices in their own sequences, sequentially, per account', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const refs: string[] = [];
    for (const [who, type] of [[a, 'quote'], [a, 'invoice'], [a, 'quote'], [b, 'invoice'], [a, 'invoice']] as const) {
      const r = await t.post('/invoices', { type, client_id: null, line_items: [line('Work', 1, 10)] }, who.token);
      expect(r.status).toBe(201);
      refs.push(r.json.reference);
    }
    expect(refs).toEqual(['QTE-0001', 'INV-0001', 'QTE-0002', 'INV-0001', 'INV-0002']);
    const seq = await t.deps.store.readStream(sequenceStreamId(a.userId, 'invoice'));
    expect(seq.events.map((e) => e.data.reference)).toEqual(['INV-0001', 'INV-0002']);
  });

  it('a quote is valid for 30 days and has no client when client_id is null or left out', async () => {
    const u = await signUp(t);
    const r = await t.post('/invoices', { type: 'quote', line_items: [line('Quote line', 1, 100)] }, u.token);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ reference: 'QTE-0001', client: null, client_id: null, client_name: '', valid_until: '2026-06-04', status: 'draft' });
  });

  it('dates the document by the calendar day in New Zealand, not UTC', async () => {
    const u = await signUp(t);
    const before = t.clock.now().toISOString();
    try {
      t.clock.set('2026-03-31T12:30:00Z'); // 1:30 am on 1 April in NZ (NZDT ends 5 April)
      const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Early start', 1, 50)] }, u.token);
      expect(r.json.issue_date).toBe('2026-04-01');
      expect(r.json.due_date).toBe('2026-04-08');
    } finally {
      t.clock.set(before);
    }
  });

  it("takes the due date from the client's payment terms, or from the request", async () => {
    const u = await signUp(t);
    const c14 = await addClient(t, u.userId, { name: 'Fourteen', default_payment_terms: '14 days' });
    const now = await addClient(t, u.userId, { name: 'Now', default_payment_terms: 'Due on receipt' });
    const body = (client_id: string, extra: object = {}) => ({ type: 'invoice', client_id, line_items: [line('x', 1, 1)], ...extra });
    expect((await t.post('/invoices', body(c14), u.token)).json).toMatchObject({ payment_terms: '14 days', due_date: '2026-05-19' });
    expect((await t.post('/invoices', body(now), u.token)).json).toMatchObject({ payment_terms: 'Due on receipt', due_date: '2026-05-05' });
    expect((await t.post('/invoices', body(c14, { payment_terms: '30 days' }), u.token)).json).toMatchObject({ payment_terms: '30 days', due_date: '2026-06-04' });
    expect((await t.post('/invoices', body(c14, { issue_date: '2026-05-01', due_date: '2026-05-31', notes: 'Gate code 1234' }), u.token)).json).toMatchObject({
      issue_date: '2026-05-01', due_date: '2026-05-31', notes: 'Gate code 1234',
    });
  });

  it("refuses another account's client, an unknown one and a removed one with 404 'Client not found'", async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const theirs = await addClient(t, other.userId, { name: 'Not yours' });
    const removed = await addClient(t, u.userId, { name: 'Gone' });
    await removeClient(t, u.userId, removed);
    for (const client_id of [theirs, removed, 'no-such-client']) {
      const r = await t.post('/invoices', { type: 'invoice', client_id, line_items: [line('x', 1, 1)] }, u.token);
      expect(r.status).toBe(404);
      expect(r.json.detail).toBe('Client not found');
    }
    expect(await countDocs(u.userId)).toBe(0);
  });

  it('rounds GST per line when the business settings say so', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { gst_rounding: 'line' });
    const lines = [line('a', 1, 0.04), line('b', 1, 0.04), line('c', 1, 0.04)];
    const r = await t.post('/invoices', { type: 'invoice', line_items: lines }, u.token);
    expect(r.json.gst_rounding).toBe('line');
    // Each line's 0.6 c shows as 1 c on its own (3 c); on the total, 1.8 c shows as 2 c.
    expect(r.json.gst).toBe(0.03);
    const v = await signUp(t);
    const onTotal = (await t.post('/invoices', { type: 'invoice', line_items: lines }, v.token)).json;
    expect(onTotal).toMatchObject({ gst_rounding: 'total', gst: 0.02 });
  });

  describe('validation: 4xx with a detail, nothing written, no number used', () => {
    const cases: [string, unknown, number, string | RegExp][] = [
      ['no line_items', { type: 'invoice' }, 422, 'line_items must be a list of line items'],
      ['an empty list', { type: 'invoice', line_items: [] }, 422, 'Add at least one line item'],
      ['a blank description', { type: 'invoice', line_items: [line('ok', 1, 1), line('   ', 1, 1)] }, 422, 'Line 2: Each line needs a description'],
      ['a description over 500 characters', { type: 'invoice', line_items: [line('x'.repeat(501), 1, 1)] }, 422, 'Line 1: A line description can be at most 500 characters'],
      ['a negative quantity', { type: 'invoice', line_items: [line('x', -1, 1)] }, 422, 'Line 1: Quantity cannot be negative'],
      ['five decimal places', { type: 'invoice', line_items: [line('x', 1, '1.00001')] }, 422, 'Line 1: Unit price can have at most 4 decimal places'],
      ['a price that is not a number', { type: 'invoice', line_items: [line('x', 1, 'abc')] }, 422, 'Line 1: Unit price must be a finite number'],
      ['NaN as text', { type: 'invoice', line_items: [line('x', 'NaN', 1)] }, 422, 'Line 1: Quantity must be a finite number'],
      ['a boolean price', { type: 'invoice', line_items: [line('x', 1, true as unknown as number)] }, 422, 'Line 1: Unit price must be a number'],
      ['a tax rate over 100%', { type: 'invoice', line_items: [line('x', 1, 1, { tax_rate: 15 })] }, 400, /tax_rate must be 0.15 \(15% GST\) or 0/],
      ['12.5%, the rate before October 2010', { type: 'invoice', line_items: [line('x', 1, 1, { tax_rate: 0.125 })] }, 400, /New Zealand has no other GST rate/],
      ['a negative rate', { type: 'invoice', line_items: [line('x', 1, 1, { tax_rate: '-0.15' })] }, 400, /tax_rate must be 0.15/],
      ['501 lines', { type: 'invoice', line_items: Array.from({ length: 501 }, (_, i) => line(`l${i}`, 1, 1)) }, 422, 'A document can have at most 500 line items'],
      ['an unknown type', { type: 'receipt', line_items: [line('x', 1, 1)] }, 422, "type must be 'quote' or 'invoice'"],
      ['an impossible issue date', { type: 'invoice', issue_date: '2026-02-30', line_items: [line('x', 1, 1)] }, 422, 'The issue date is not a valid date'],
      ['a badly written date', { type: 'invoice', issue_date: '5/5/2026', line_items: [line('x', 1, 1)] }, 422, 'Dates are written YYYY-MM-DD'],
      ['a due date before the issue date', { type: 'invoice', issue_date: '2026-05-05', due_date: '2026-05-01', line_items: [line('x', 1, 1)] }, 422, 'The due date cannot be before the issue date'],
      ['a body that is a list', [line('x', 1, 1)], 422, 'The request body must be a JSON object.'],
    ];
    let u: Awaited<ReturnType<typeof signUp>>;
    beforeAll(async () => {
      u = await signUp(t);
    });

    it.each(cases)('refuses %s', async (_name, body, status, detail) => {
      const r = await t.post('/invoices', body, u.token);
      expect(r.status).toBe(status);
      if (typeof detail === 'string') expect(r.json.detail).toBe(detail);
      else expect(r.json.detail).toMatch(detail);
      expect(await countDocs(u.userId)).toBe(0);
    });

    it('takes 500 lines, and the next number after all those refusals is still 0001', async () => {
      const r = await t.post('/invoices', { type: 'invoice', line_items: Array.from({ length: 500 }, (_, i) => line(`Line ${i + 1}`, 1, 1)) }, u.token);
      expect(r.status).toBe(201);
      expect(r.json.reference).toBe('INV-0001');
      expect(r.json.line_items).toHaveLength(500);
      expect(r.json.total).toBe(575);
    });

    it('refuses a body that is not JSON (415), broken JSON (400), and no sign-in (401)', async () => {
      expect((await t.call('POST', '/invoices', { token: u.token, body: 'type=invoice', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
      const broken = await t.call('POST', '/invoices', { token: u.token, body: '{"type":', headers: { 'Content-Type': 'application/json' } });
      expect(broken.status).toBe(400);
      expect(broken.json.detail).toBe('The request body is not valid JSON.');
      expect((await t.post('/invoices', { type: 'invoice', line_items: [line('x', 1, 1)] })).status).toBe(401);
    });
  });

  describe('Idempotency-Key', () => {
    it('a double tap makes one invoice and answers the same twice', async () => {
      const u = await signUp(t);
      const body = { type: 'invoice', line_items: [line('Callout', 1, 95)] };
      const first = await t.post('/invoices', body, u.token, { 'Idempotency-Key': 'tap-1' });
      const second = await t.post('/invoices', body, u.token, { 'Idempotency-Key': 'tap-1' });
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.json).toEqual(first.json);
      expect(second.headers.get('Idempotent-Replayed')).toBe('true');
      expect(await countDocs(u.userId)).toBe(1);
      const third = await t.post('/invoices', body, u.token, { 'Idempotency-Key': 'tap-2' });
      expect(third.json.reference).toBe('INV-0002');
    });

    it('the same key with a different body is refused; a key is per account', async () => {
      const u = await signUp(t);
      const v = await signUp(t);
      await t.post('/invoices', { type: 'invoice', line_items: [line('a', 1, 1)] }, u.token, { 'Idempotency-Key': 'k' });
      const r = await t.post('/invoices', { type: 'invoice', line_items: [line('b', 1, 1)] }, u.token, { 'Idempotency-Key': 'k' });
      expect(r.status).toBe(422);
      expect(r.json.detail).toMatch(/already used for a different request/);
      const theirs = await t.post('/invoices', { type: 'invoice', line_items: [line('a', 1, 1)] }, v.token, { 'Idempotency-Key': 'k' });
      expect(theirs.status).toBe(201);
      expect(theirs.headers.get('Idempotent-Replayed')).toBeNull();
    });

    it('a refused request does not use up its key', async () => {
      const u = await signUp(t);
      expect((await t.post('/invoices', { type: 'invoice', line_items: [] }, u.token, { 'Idempotency-Key': 'again' })).status).toBe(422);
      // A different body with the same key is now a first attempt: the refusal stored nothing.
      expect((await t.post('/invoices', { type: 'invoice', line_items: [line('x', 1, 1)] }, u.token, { 'Idempotency-Key': 'again' })).status).toBe(201);
    });
  });
});

describe('the s 19O vectors through POST /invoices', () => {
  it.each(S19O_VECTORS)('%s: one %s line of %s carries GST %s, on the answer and in the list', async (_id, kind, amount, gst) => {
    const u = await signUp(t);
    const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Work', 1, amount, { tax_included: kind === 'incl' })] }, u.token);
    expect(r.status).toBe(201);
    expect(r.json.gst).toBe(Number(gst));
    expect(kind === 'incl' ? r.json.total : r.json.subtotal).toBe(Number(amount));
    const [row] = (await t.get('/invoices', u.token)).json;
    expect(row.total).toBe(r.json.total);
  });

  it.each(S19O_THREE_LINE_VECTORS)('%s: three %s lines of %s → %s with per-line rounding, %s on the total', async (_id, kind, amount, perLine, onTotal) => {
    for (const [rounding, gst] of [['line', perLine], ['total', onTotal]] as const) {
      const u = await signUp(t);
      await setSettings(t, u.userId, { gst_rounding: rounding });
      const r = await t.post('/invoices', { type: 'invoice', line_items: [1, 2, 3].map((i) => line(`L${i}`, 1, amount, { tax_included: kind === 'incl' })) }, u.token);
      expect(r.json.gst, rounding).toBe(Number(gst));
    }
  });
});

describe('totals through the API equal the domain', () => {
  const decimal = (maxUnits: number) =>
    fc.tuple(fc.integer({ min: 0, max: maxUnits }), fc.integer({ min: 0, max: 4 })).map(([n, dp]) => (n / 10 ** dp).toFixed(dp));
  const lineArb = fc.record({
    description: fc.constantFrom('Labour', 'Copper pipe', 'Tāmaki callout', 'Disposal'),
    // Within the domain's limits (quantity ≤ 1,000,000; unit price ≤ 100,000,000).
    qty: decimal(1_000_000),
    unit_price: decimal(100_000_000),
    tax_included: fc.boolean(),
    tax_rate: fc.constantFrom(0, 0.15, '0.15', '0.150', '0'),
  });

  it('for random line sets: subtotal, GST, total and each line amount (fast-check)', async () => {
    const u = await signUp(t);
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 8 }), fc.constantFrom('total', 'line'), async (lines, rounding) => {
        await setSettings(t, u.userId, { gst_rounding: rounding });
        const r = await t.post('/invoices', { type: 'invoice', line_items: lines }, u.token);
        const want = documentTotals(linesSchema.parse(lines), rounding);
        // Past the most a document may come to (moneyBounds.int.spec.ts): refused, nothing made.
        if (want.totalCents > toCents(MAX_DOCUMENT_TOTAL)) {
          expect(r.status).toBe(422);
          return;
        }
        expect(r.status).toBe(201);
        expect(r.json.subtotal).toBe(centsToNumber(want.subtotalCents));
        expect(r.json.gst).toBe(centsToNumber(want.gstCents));
        expect(r.json.total).toBe(centsToNumber(want.totalCents));
        expect(r.json.line_items.map((l: { amount: number }) => l.amount)).toEqual(want.lines.map((l) => centsToNumber(l.amountCents)));
        const [row] = (await t.get(`/invoices?limit=1`, u.token)).json;
        expect(row.id).toBe(r.json.id);
        expect(row.total).toBe(centsToNumber(want.totalCents));
      }),
      { numRuns: 30 },
    );
  });

  it("with the calculator's GST switch off (tax_rate 0) the document, list and report rows carry no GST", async () => {
    const u = await signUp(t);
    const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Mowing', 3, 45.5, { tax_rate: 0 }), line('Green waste', 1, 20, { tax_rate: 0 })] }, u.token);
    expect(r.json).toMatchObject({ subtotal: 156.5, gst: 0, total: 156.5 });
    expect(r.json.line_items.map((l: { gst: number; tax_rate: number }) => [l.tax_rate, l.gst])).toEqual([[0, 0], [0, 0]]);
    const [row] = (await t.get('/invoices', u.token)).json;
    expect(row.total).toBe(156.5);
    // Handed over on site: marked issued, so it is in the reports.
    expect((await t.post(`/invoices/${r.json.id}/issue`, {}, u.token)).status).toBe(200);
    const [report] = await t.deps.store.db.query<{ gst_cents: string; total_cents: string; subtotal_cents: string }>(
      'SELECT gst_cents::text AS gst_cents, total_cents::text AS total_cents, subtotal_cents::text AS subtotal_cents FROM report_invoices WHERE document_id = $1',
      [r.json.id],
    );
    expect(report).toEqual({ gst_cents: '0', total_cents: '15650', subtotal_cents: '15650' });
  });
});
