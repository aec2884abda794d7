// A backdated invoice (dated before the day it is issued) counts for GST at its date. When the
// business has already exported that GST period for its accountant, issuing it says so, the
// exported period's figures stay exactly as exported, and the GST report of the next period not yet
// exported lists it as an adjustment to carry — on screen (the JSON), in the GST CSV and in the
// accountant's ZIP — with figures from the independent oracle.
//
// Worked by hand: INV-0001 $200.00 + GST = $230.00 (GST $30.00), dated and issued 15 Jan 2027.
// Jan–Feb 2027 exported (GST CSV) on 15 Mar 2027: $230.00, GST $30.00. INV-0002 $1,000.00 + GST =
// $1,150.00 (GST $150.00), dated 10 Feb 2027, issued 20 Mar 2027: not in the export, so Jan–Feb
// stays $230.00 / $30.00, and Mar–Apr 2027 (not exported) carries $1,150.00 / GST $150.00.
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { oracleGstReport, type OracleExport, type OracleInvoice } from '@tradie/testkit/oracle/oracle';
import { describe, expect, it } from 'vitest';
import { signUp, TestClock, useTestApp } from '../support/testApp.ts';
import { line } from '../documents/support.ts';

const clock = new TestClock('2027-01-15T00:00:00.000Z');
const t = useTestApp({ clock, env: { ACCESS_TOKEN_TTL_SECONDS: String(365 * 86_400) } });
/** Midday in New Zealand on `date` (00:00 UTC), as the oracle dates what happens. */
const onDay = (date: string): void => clock.set(`${date}T00:00:00.000Z`);

const job = (unitPrice: string): Pick<OracleInvoice, 'client' | 'lines' | 'rounding' | 'issued' | 'steps' | 'voidDate'> => ({
  client: '', lines: [{ qty: '1', unitPrice, inclusive: false, rate: '0.15' }], rounding: 'total', issued: true, steps: [], voidDate: null,
});
const ORACLE: OracleInvoice[] = [
  { id: 'a', issueDate: '2027-01-15', ...job('200') },
  { id: 'b', issueDate: '2027-02-10', issuedOn: '2027-03-20', ...job('1000') },
];
const NOTICE =
  'This invoice counts for GST in Jan–Feb 2027, a GST period you have already exported for your accountant. ' +
  'It will be listed as an adjustment to carry in the GST report that includes 20 March 2027; the figures you exported stay as they were.';

/** The report as the oracle models it: carried invoices by dates and amounts. */
function figures(json: Record<string, unknown>) {
  const { basis: _b, start_date: _s, end_date: _e, adjustments_to_carry: a, ...rest } = json as { adjustments_to_carry: { invoices: Record<string, unknown>[] } } & Record<string, unknown>;
  return { ...rest, adjustments_to_carry: { ...a, invoices: a.invoices.map((i) => ({ supply_date: i.supply_date, carried_to: i.carried_to, sales: i.sales, gst: i.gst })) } };
}
const rows = (text: string): string[][] => parse(text, { bom: true, relax_column_count: true }) as string[][];

describe('a backdated invoice in a GST period already exported', () => {
  it('says so when issued, leaves the exported period as it was, and is carried to the next period on screen, in the CSV and in the ZIP', async () => {
    const u = await signUp(t);
    const make = async (date: string, unit: string) => {
      const r = await t.post('/invoices', { type: 'invoice', issue_date: date, line_items: [line('Work', 1, unit)] }, u.token);
      expect(r.status, r.text).toBe(201);
      return r.json.id as string;
    };
    const a = await make('2027-01-15', '200');
    const issuedA = await t.post(`/invoices/${a}/issue`, {}, u.token);
    expect(issuedA.status).toBe(200);
    expect(issuedA.json.gst_notice).toBeNull();

    onDay('2027-03-15');
    const janFebUrl = '/reports/export/gst-csv?start_date=2027-01-01&end_date=2027-02-28&basis=invoice';
    const exported = await t.get(janFebUrl, u.token);
    expect(exported.status).toBe(200);
    const exportedReport = (await t.get('/reports/gst?start_date=2027-01-01&end_date=2027-02-28&basis=invoice', u.token)).json;
    expect(exportedReport).toMatchObject({ total_sales: 230, total_gst_collected: 30 });
    const exports: OracleExport[] = [{ start: '2027-01-01', end: '2027-02-28', at: '2027-03-15T00:00:00.000Z' }];

    onDay('2027-03-20');
    const b = await make('2027-02-10', '1000');
    const issuedB = await t.post(`/invoices/${b}/issue`, {}, u.token);
    expect(issuedB.status).toBe(200);
    expect(issuedB.json.gst_notice).toBe(NOTICE);
    expect((await t.get(`/invoices/${b}`, u.token)).json.gst_notice).toBe(NOTICE);
    // The invoice issued before the export says nothing.
    expect((await t.get(`/invoices/${a}`, u.token)).json.gst_notice).toBeNull();

    // What was exported never changes: the report and the CSV of Jan–Feb are as they were.
    const janFeb = (await t.get('/reports/gst?start_date=2027-01-01&end_date=2027-02-28&basis=invoice', u.token)).json;
    expect(janFeb).toEqual(exportedReport);
    expect(figures(janFeb)).toEqual(oracleGstReport(ORACLE, '2027-01-01', '2027-02-28', 'invoice', exports));
    expect((await t.get(janFebUrl, u.token)).text).toBe(exported.text);

    // Mar–Apr lists it as an adjustment to carry.
    const marApr = (await t.get('/reports/gst?start_date=2027-03-01&end_date=2027-04-30&basis=invoice', u.token)).json;
    expect(figures(marApr)).toEqual(oracleGstReport(ORACLE, '2027-03-01', '2027-04-30', 'invoice', exports));
    expect(marApr).toMatchObject({ total_sales: 1150, total_gst_collected: 150, gst_return: { box5: 1150, box8: 150 } });
    expect(marApr.adjustments_to_carry).toEqual({
      count: 1, sales: 1150, gst: 150,
      invoices: [{ reference: 'INV-0002', client_name: '', issue_date: '2027-02-10', supply_date: '2027-02-10', carried_to: '2027-03-20', exported_period: 'Jan–Feb 2027', sales: 1150, gst: 150 }],
    });

    onDay('2027-03-21');
    const csv = rows((await t.get('/reports/export/gst-csv?start_date=2027-03-01&end_date=2027-04-30&basis=invoice', u.token)).text);
    const heading = csv.findIndex((r) => r[0] === 'Adjustments to carry');
    expect(heading).toBe(1);
    expect(csv[2]).toEqual(['INV-0002', '2027-02-10', '', '', '1000.00', '150.00', '1150.00', 'Carried from Jan–Feb 2027, unpaid', '', '2027-02-10']);
    expect(csv.find((r) => r[0] === 'Total')?.slice(4, 7)).toEqual(['1000.00', '150.00', '1150.00']);

    // The accountant's ZIP of Mar–Apr carries the same rows (and, made now, records Mar–Apr as exported).
    const zipRes = await t.app.request('/api/v1/reports/export/accountant-zip?start_date=2027-03-01&end_date=2027-04-30&basis=invoice', { headers: { Authorization: `Bearer ${u.token}` } });
    expect(zipRes.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await zipRes.arrayBuffer()));
    const inZip = rows(new TextDecoder().decode(zip['gst-report.csv']!));
    expect(inZip[2]).toEqual(csv[2]);
    // The accountant is told what the carried rows are.
    const readme = new TextDecoder().decode(zip['README.txt']!);
    expect(readme).toContain('"Adjustments to carry"');
    expect(readme).toContain('Once a period has been exported after it ended, its figures never change.');
  });

  it("keeps each account's exports to itself, and an export made after the invoice was issued carries nothing", async () => {
    onDay('2027-03-15');
    const other = await signUp(t);
    expect((await t.get('/reports/export/gst-csv?start_date=2027-01-01&end_date=2027-02-28&basis=invoice', other.token)).status).toBe(200);
    onDay('2027-03-20');
    const u = await signUp(t);
    const r = await t.post('/invoices', { type: 'invoice', issue_date: '2027-02-10', line_items: [line('Work', 1, '1000')] }, u.token);
    const issued = await t.post(`/invoices/${r.json.id}/issue`, {}, u.token);
    expect(issued.json.gst_notice).toBeNull();
    onDay('2027-03-21');
    expect((await t.get('/reports/export/gst-csv?start_date=2027-01-01&end_date=2027-02-28&basis=invoice', u.token)).status).toBe(200);
    expect((await t.get(`/invoices/${r.json.id}`, u.token)).json.gst_notice).toBeNull();
    const janFeb = (await t.get('/reports/gst?start_date=2027-01-01&end_date=2027-02-28&basis=invoice', u.token)).json;
    expect(janFeb).toMatchObject({ total_sales: 1150, adjustments_to_carry: { count: 0 } });
  });
});
