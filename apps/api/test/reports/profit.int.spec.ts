// GET /reports/profit, its CSV and the accountant's ZIP through the HTTP app on PGlite: a job priced,
// accepted, invoiced and partly credited a month later. The report's figures are the document
// screens' own (GET /invoices/{id} profit) and the ones worked by hand; the credit note counts in its
// own month; cost not recorded is counted apart; a renamed category keeps its new name; one account
// never sees another's; bad periods are refused with a detail.
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';
import { addClient, signInAgain } from '../documents/support.ts';

const t = useTestApp();

/** Rinnai: 1 × $1,812.50 costing $1,450; labour 8 × $85 costing $45 an hour; fittings $39.38, cost not recorded. */
const JOB = [
  { description: 'Rinnai water heater', qty: 1, unit_price: '1812.50', cost: '1450', category: 'materials' },
  { description: 'Labour', qty: 8, unit_price: 85, cost: 45, category: 'labour' },
  { description: 'Fittings and sundries', qty: 1, unit_price: '39.38' },
];
const MAY_JUNE = 'start_date=2026-05-01&end_date=2026-06-30';

async function job() {
  t.clock.set('2026-05-04T21:30:00.000Z'); // 5 May in New Zealand
  const u = await signUp(t);
  const client_id = await addClient(t, u.userId, { name: '=Aroha Ngata', email: 'aroha@example.nz' });
  const quote = (await t.post('/invoices', { type: 'quote', client_id, line_items: JOB }, u.token)).json;
  expect((await t.post(`/invoices/${quote.id}/accept`, undefined, u.token)).status).toBe(200);
  const invoice = (await t.post(`/invoices/${quote.id}/convert`, undefined, u.token)).json;
  expect((await t.post(`/invoices/${invoice.id}/issue`, undefined, u.token)).status).toBe(200);
  t.clock.set('2026-06-09T21:30:00.000Z'); // 10 June
  u.token = await signInAgain(t, u);
  expect((await t.post(`/invoices/${invoice.id}/credit-notes`, { lines: [{ line_index: 1, qty: 2 }], reason: 'Finished early' }, u.token)).status).toBe(201);
  return { u, quote, invoice };
}

const money = (f: { sell: number; cost: number; gross_profit: number; uncosted_sell: number }) => [f.sell, f.cost, f.gross_profit, f.uncosted_sell];

describe('the profit report', () => {
  it("counts the accepted quote and the issued invoice in May and the credit note in June; over both months each equals its screen's profit", async () => {
    const { u, quote, invoice } = await job();
    const r = await t.get(`/reports/profit?${MAY_JUNE}`, u.token);
    expect(r.status).toBe(200);
    const [may, june] = r.json.periods;
    expect([may.label, may.quotes, may.invoices, june.label]).toEqual(['May 2026', 1, 1, 'Jun 2026']);
    // Worked by hand: sell 2531.88, cost 1810, gross profit 682.50; the fittings' 39.38 has no cost.
    expect(money(may.quoted)).toEqual([2531.88, 1810, 682.5, 39.38]);
    expect(money(may.invoiced)).toEqual([2531.88, 1810, 682.5, 39.38]);
    // 2 of 8 hours credited: −$170 sell, −$90 cost.
    expect(money(june.invoiced)).toEqual([-170, -90, -80, 0]);
    // The screens' figures: the quote's, and the invoice's net of its credit note.
    const quoteScreen = (await t.get(`/invoices/${quote.id}`, u.token)).json.profit;
    const invoiceScreen = (await t.get(`/invoices/${invoice.id}`, u.token)).json.profit;
    expect(money(r.json.total.quoted)).toEqual(money(quoteScreen));
    expect(money(r.json.total.invoiced)).toEqual(money(invoiceScreen));
    expect(r.json.total.invoiced.margin_percent).toBe(invoiceScreen.margin_percent);
    expect(r.json.clients.map((c: { label: string; invoiced: { gross_profit: number } }) => [c.label, c.invoiced.gross_profit])).toEqual([['=Aroha Ngata', 602.5]]);
    expect(r.json.categories.map((c: { key: string; label: string; invoiced: { gross_profit: number } }) => [c.key, c.label, c.invoiced.gross_profit])).toEqual([
      ['materials', 'Materials', 362.5], ['labour', 'Labour', 240], ['other', 'Other', 0],
    ]);
    // June alone sees only the credit note; a quarter groups both months.
    expect(money((await t.get('/reports/profit?start_date=2026-06-01&end_date=2026-06-30', u.token)).json.total.invoiced)).toEqual([-170, -90, -80, 0]);
    const quarter = (await t.get(`/reports/profit?${MAY_JUNE}&group=quarter`, u.token)).json;
    expect(quarter.periods.map((p: { label: string; invoiced: { gross_profit: number } }) => [p.label, p.invoiced.gross_profit])).toEqual([['Apr–Jun 2026', 602.5]]);
  });

  it("actual-cost profit: the job's invoice less the receipt and hours recorded against it, each in its own month; over the job's life equal to the job's own view", async () => {
    const { u, quote } = await job();
    t.clock.set('2026-06-19T21:30:00.000Z'); // 20 June
    u.token = await signInAgain(t, u);
    // The heater's receipt, $1,667.50 incl. GST with the supply information: $1,450.00 once its GST is claimed.
    expect((await t.post('/costs', { supplier: 'Plumbing World', date: '2026-05-06', amount: '1667.50', gst: 'standard', supply_information_held: true, category: 'materials', job_id: quote.id }, u.token)).status).toBe(201);
    expect((await t.post('/hours', { who: 'owner', date: '2026-05-07', hours: '6', rate: '45', job_id: quote.id }, u.token)).status).toBe(201);
    expect((await t.post('/hours', { who: 'owner', date: '2026-06-12', hours: '2', rate: '45', job_id: quote.id }, u.token)).status).toBe(201);
    // Neither a cost not on a job nor an invoice not made from a quote is in actual-cost profit.
    expect((await t.post('/costs', { supplier: 'Z Energy', date: '2026-05-08', amount: '80.00', category: 'fuel' }, u.token)).status).toBe(201);
    const plain = (await t.post('/invoices', { type: 'invoice', line_items: [{ description: 'Call-out', qty: 1, unit_price: 100, cost: 20, category: 'labour' }] }, u.token)).json;
    expect((await t.post(`/invoices/${plain.id}/issue`, undefined, u.token)).status).toBe(200);

    const r = (await t.get(`/reports/profit?${MAY_JUNE}`, u.token)).json;
    const actual = (a: { sell: number; cost: number; profit: number }) => [a.sell, a.cost, a.profit];
    // May: $2,531.88 invoiced from the job less $1,450 + $270. June: the $170 credit and $90 of hours.
    expect(r.periods.map((p: { actual: { sell: number; cost: number; profit: number } }) => actual(p.actual))).toEqual([[2531.88, 1720, 811.88], [-170, 90, -260]]);
    expect(actual(r.total.actual)).toEqual([2361.88, 1810, 551.88]);
    expect(r.total.actual.formatted).toEqual({ sell: '$2,361.88', cost: '$1,810.00', profit: '$551.88' });
    expect(r.categories.map((c: { key: string; actual: { sell: number; cost: number; profit: number } }) => [c.key, ...actual(c.actual)])).toEqual([
      ['materials', 1812.5, 1450, 362.5], ['labour', 510, 360, 150], ['other', 39.38, 0, 39.38],
    ]);
    // The job's own view, over the same costs: the same profit so far.
    const view = (await t.get(`/jobs/${quote.id}/profit`, u.token)).json;
    expect([view.invoiced_net, view.actual_cost, view.profit_so_far]).toEqual(['2361.88', '1810.00', '551.88']);
    const client = r.clients.find((c: { label: string }) => c.label === '=Aroha Ngata');
    expect([client.actual.sell, client.actual.cost, client.actual.profit].map((n: number) => n.toFixed(2))).toEqual([view.invoiced_net, view.actual_cost, view.profit_so_far]);
    // The CSV says the same.
    const rows = parse((await t.get(`/reports/export/profit-csv?${MAY_JUNE}`, u.token)).text, { bom: true }) as string[][];
    expect(rows.at(-1)!.slice(-3)).toEqual(['2361.88', '1810.00', '551.88']);
    // Another account sees none of it.
    const other = await signUp(t);
    expect(actual((await t.get(`/reports/profit?${MAY_JUNE}`, other.token)).json.total.actual)).toEqual([0, 0, 0]);
  });

  it('names a category as the business renamed it, at once', async () => {
    const { u } = await job();
    await t.get(`/reports/profit?${MAY_JUNE}`, u.token);
    const pricing = (await t.get('/business-settings/pricing', u.token)).json;
    const renamed = pricing.categories.map((c: { id: string; name: string; percent: string }) => ({ id: c.id, name: c.id === 'labour' ? 'Time on site' : c.name, percent: c.percent }));
    expect((await t.put('/business-settings/pricing', { categories: renamed }, u.token)).status).toBe(200);
    expect((await t.get(`/reports/profit?${MAY_JUNE}`, u.token)).json.categories[1].label).toBe('Time on site');
  });

  it('as CSV: the same figures, formula-looking names neutralised, and in the accountant’s ZIP as profit-report.csv', async () => {
    const { u } = await job();
    const csv = await t.get(`/reports/export/profit-csv?${MAY_JUNE}`, u.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="profit-report-2026-05-01-to-2026-06-30.csv"');
    const rows = parse(csv.text, { bom: true }) as string[][];
    expect(rows[0]).toEqual([
      'Section', 'Name', 'Quotes accepted', 'Quoted sell excl. GST', 'Quoted cost', 'Quoted gross profit', 'Quoted sell with cost not recorded',
      'Invoices issued', 'Invoiced sell excl. GST', 'Invoiced cost', 'Invoiced gross profit', 'Invoiced margin %', 'Invoiced markup %', 'Invoiced sell with cost not recorded',
      'Job invoices sell excl. GST', 'Actual job costs', 'Actual-cost profit',
    ]);
    // No cost recorded against the job yet: its actual-cost profit is all it was invoiced.
    expect(rows.find((r) => r[0] === 'Client')).toEqual(["Client", "'=Aroha Ngata", '1', '2531.88', '1810.00', '682.50', '39.38', '1', '2361.88', '1720.00', '602.50', '25.9', '35.0', '39.38', '2361.88', '0.00', '2361.88']);
    expect(rows.at(-1)!.slice(0, 2)).toEqual(['Total', 'Total']);
    expect(rows.filter((r) => r[0] === 'Period').map((r) => [r[1], r[10]])).toEqual([['May 2026', '682.50'], ['Jun 2026', '-80.00']]);
    // A download link for it, bound to its query.
    const link = await t.post('/reports/export-links', { kind: 'profit-csv', start_date: '2026-05-01', end_date: '2026-06-30', group: 'month' }, u.token);
    expect(link.status).toBe(200);
    expect((await t.get(link.json.url.replace('/api/v1', ''))).text).toBe(csv.text);
    const zipRes = await t.app.request(`/api/v1/reports/export/accountant-zip?${MAY_JUNE}`, { headers: { Authorization: `Bearer ${u.token}` } });
    const zip = unzipSync(new Uint8Array(await zipRes.arrayBuffer()));
    expect(new TextDecoder().decode(zip['profit-report.csv'])).toBe(csv.text);
    expect(new TextDecoder().decode(zip['README.txt'])).toContain('profit-report.csv');
  });

  it("this month's invoiced sales and gross profit for the home screen: the same function", async () => {
    const { u } = await job();
    const june = await t.get('/reports/profit/this-month', u.token);
    expect(june.status).toBe(200);
    expect(june.json).toMatchObject({ month: '2026-06', label: 'Jun 2026', invoices: 0 });
    expect(money(june.json.invoiced)).toEqual(money((await t.get('/reports/profit?start_date=2026-06-01&end_date=2026-06-30', u.token)).json.total.invoiced));
  });

  it("is the account's own, needs signing in, and refuses a period it cannot read with a detail", async () => {
    await job();
    const other = await signUp(t);
    const r = await t.get(`/reports/profit?${MAY_JUNE}`, other.token);
    expect(r.json.total.invoiced.sell).toBe(0);
    expect(r.json.clients).toEqual([]);
    expect((await t.get(`/reports/profit?${MAY_JUNE}`)).status).toBe(401);
    const bad = await t.get('/reports/profit?start_date=2026-06-30&end_date=2026-05-01', other.token);
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBe('The start date must be on or before the end date');
    const group = await t.get(`/reports/profit?${MAY_JUNE}&group=week`, other.token);
    expect(group.status).toBe(422);
    expect(group.json.detail).toBe("group must be 'month', 'quarter' or 'tax_year'");
  });
});
