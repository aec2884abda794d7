// A cost recorded, changed or deleted after the GST period holding its date was exported for the
// accountant: the answer says so, the exported period's report and CSV stay exactly as exported, and
// the next period's Boxes 11–12 take the difference, listed as purchase adjustments.
//
// Worked by hand: a $115.00 receipt (GST $15.00) dated 10 Jan 2027, recorded that day; Jan–Feb 2027
// exported (GST CSV) on 5 Mar 2027 with Box 11 $115.00. On 10 Mar the receipt is corrected to
// $230.00 and a $46.00 receipt dated 15 Feb is found and recorded: Jan–Feb stays $115.00; Mar–Apr
// has −$115.00 + $230.00 + $46.00 = $161.00 (Box 12 $21.00). On 20 Mar the corrected receipt is
// deleted: Mar–Apr has −$115.00 + $46.00 = −$69.00 (Box 12 −$9.00).
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { signUp, TestClock, useTestApp } from '../support/testApp.ts';

const clock = new TestClock('2027-01-10T00:00:00.000Z');
const t = useTestApp({ clock, env: { ACCESS_TOKEN_TTL_SECONDS: String(365 * 86_400) } });
const onDay = (date: string): void => clock.set(`${date}T00:00:00.000Z`);

const JAN_FEB = '/reports/gst?start_date=2027-01-01&end_date=2027-02-28&basis=invoice';
const MAR_APR = '/reports/gst?start_date=2027-03-01&end_date=2027-04-30&basis=invoice';
const CSV = '/reports/export/gst-csv?start_date=2027-01-01&end_date=2027-02-28&basis=invoice';
const notice = (tense: 'recorded' | 'made' | 'would be', carriedTo: string): string =>
  'This cost is dated in Jan–Feb 2027, a GST period you have already exported for your accountant. ' +
  `${tense === 'recorded' ? 'It is listed' : tense === 'made' ? 'This change is listed' : 'A change or deletion now is listed'} as an adjustment to carry in the GST report that includes ${carriedTo}; the figures you exported stay as they were.`;

describe('a cost in a GST period already exported', () => {
  it('says so, leaves the exported period as exported, and carries the difference to the next period', async () => {
    const u = await signUp(t);
    const receipt = { kind: 'receipt', supplier: 'Plumbing World', date: '2027-01-10', amount: '115.00', gst: 'standard', supply_information_held: true, category: 'materials' };
    const first = await t.post('/costs', receipt, u.token);
    expect(first.status, first.text).toBe(201);
    expect(first.json.gst_notice).toBeNull();

    onDay('2027-03-05');
    const exported = await t.get(CSV, u.token);
    expect(exported.status).toBe(200);
    const asExported = (await t.get(JAN_FEB, u.token)).json;
    expect(asExported.gst_return).toMatchObject({ box11: 115, box12: 15 });

    onDay('2027-03-10');
    const shown = await t.get(`/costs/${first.json.id}`, u.token);
    expect(shown.json.gst_notice).toBe(notice('would be', '10 March 2027'));
    const listed = await t.get('/costs', u.token);
    expect(listed.json.costs[0].gst_notice).toBe(notice('would be', '10 March 2027'));
    const changed = await t.put(`/costs/${first.json.id}`, { ...receipt, amount: '230.00', version: first.json.version }, u.token);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.gst_notice).toBe(notice('made', '10 March 2027'));
    const found = await t.post('/costs', { ...receipt, supplier: 'Mitre 10', date: '2027-02-15', amount: '46.00' }, u.token);
    expect(found.json.gst_notice).toBe(notice('recorded', '10 March 2027'));
    // A cost dated in a period not exported says nothing.
    const march = await t.post('/costs', { ...receipt, date: '2027-05-02', amount: '10.00' }, u.token);
    expect(march.json.gst_notice).toBeNull();

    expect((await t.get(JAN_FEB, u.token)).json).toEqual(asExported);
    expect((await t.get(CSV, u.token)).text).toBe(exported.text);
    const marApr = (await t.get(MAR_APR, u.token)).json;
    expect(marApr.gst_return).toMatchObject({ box11: 161, box12: 21, box14: 21 });
    expect(marApr.purchase_adjustments).toEqual({
      count: 3, amount: 161, claimed: 161,
      lines: [
        { supplier: 'Plumbing World', date: '2027-01-10', carried_to: '2027-03-10', exported_period: 'Jan–Feb 2027', change: 'taken back', amount: -115, claimed: -115 },
        { supplier: 'Plumbing World', date: '2027-01-10', carried_to: '2027-03-10', exported_period: 'Jan–Feb 2027', change: 'added', amount: 230, claimed: 230 },
        { supplier: 'Mitre 10', date: '2027-02-15', carried_to: '2027-03-10', exported_period: 'Jan–Feb 2027', change: 'added', amount: 46, claimed: 46 },
      ],
    });

    const marAprCsv = parse((await t.get(CSV.replace('2027-01-01', '2027-03-01').replace('2027-02-28', '2027-04-30'), u.token)).text, { bom: true, relax_column_count: true }) as string[][];
    const at = marAprCsv.findIndex((r) => r[0] === 'Purchase adjustments to carry');
    expect(at).toBeGreaterThan(marAprCsv.findIndex((r) => r[0] === 'Box 15'));
    expect(marAprCsv.slice(at + 1).map((r) => [r[0], r[1], r[2], r[6], r[7], r[9]])).toEqual([
      ['Cost taken back', '2027-01-10', 'Plumbing World', '-115.00', 'Carried from Jan–Feb 2027', '2027-03-10'],
      ['Cost added', '2027-01-10', 'Plumbing World', '230.00', 'Carried from Jan–Feb 2027', '2027-03-10'],
      ['Cost added', '2027-02-15', 'Mitre 10', '46.00', 'Carried from Jan–Feb 2027', '2027-03-10'],
    ]);

    onDay('2027-03-20');
    expect((await t.del(`/costs/${first.json.id}`, u.token)).status).toBe(204);
    expect((await t.get(JAN_FEB, u.token)).json).toEqual(asExported);
    const afterDelete = (await t.get(MAR_APR, u.token)).json;
    expect(afterDelete.gst_return).toMatchObject({ box11: -69, box12: -9 });
    expect(afterDelete.purchase_adjustments).toMatchObject({ count: 4, amount: -69, claimed: -69 });

    // The payments basis has no carries (these costs are unpaid, so count nowhere on it).
    expect((await t.get(JAN_FEB.replace('invoice', 'payments'), u.token)).json.purchase_adjustments.count).toBe(0);
    // Another account sees none of it.
    const other = await signUp(t);
    expect((await t.get(MAR_APR, other.token)).json.purchase_adjustments.count).toBe(0);
  });

  it('a repeating expense set up with a first date in an exported period: what it records there is carried too, and the exported period stays as exported', async () => {
    // Worked by hand: $46.00 a month (GST $6.00) from 20 Jan 2027, set up on 10 Mar after Jan–Feb was
    // exported with nothing in it. 20 Jan and 20 Feb are recorded at once, each carried to 10 Mar;
    // Mar–Apr has $92.00 (Box 12 $12.00) carried, plus 20 Mar and 20 Apr in their own right once made.
    const u = await signUp(t);
    onDay('2027-03-05');
    expect((await t.get(CSV, u.token)).status).toBe(200);
    const asExported = (await t.get(JAN_FEB, u.token)).json;
    expect(asExported.gst_return).toMatchObject({ box11: 0, box12: 0 });

    onDay('2027-03-10');
    const set = await t.post('/recurring-costs', { supplier: 'One NZ', amount: '46.00', frequency: 'monthly', start_date: '2027-01-20', category: 'phone', note: 'Mobile' }, u.token);
    expect(set.status, set.text).toBe(201);
    expect(set.json).toMatchObject({ made: 2, last_made_on: '2027-02-20', next_date: '2027-03-20' });
    const listed = (await t.get('/costs', u.token)).json.costs as { date: string; gst_notice: string | null }[];
    expect(listed.map((c) => [c.date, c.gst_notice])).toEqual([
      ['2027-02-20', notice('would be', '10 March 2027')],
      ['2027-01-20', notice('would be', '10 March 2027')],
    ]);
    expect((await t.get(JAN_FEB, u.token)).json).toEqual(asExported);
    const marApr = (await t.get(MAR_APR, u.token)).json;
    expect(marApr.gst_return).toMatchObject({ box11: 92, box12: 12 });
    expect(marApr.purchase_adjustments.lines).toEqual([
      { supplier: 'One NZ', date: '2027-01-20', carried_to: '2027-03-10', exported_period: 'Jan–Feb 2027', change: 'added', amount: 46, claimed: 46 },
      { supplier: 'One NZ', date: '2027-02-20', carried_to: '2027-03-10', exported_period: 'Jan–Feb 2027', change: 'added', amount: 46, claimed: 46 },
    ]);
  });
});
