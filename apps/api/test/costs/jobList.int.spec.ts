// GET /jobs: the accepted quotes with their profit so far and overrun, each equal to the job's own
// GET /jobs/{id}/profit, in the order asked for; drafts and other accounts' jobs are not there, and
// a wrong order is refused.
import { describe, expect, it } from 'vitest';
import { JOB_READS, JOB_READS_MESSAGE } from '../../src/costs/routes.ts';
import { signUp, useTestApp } from '../support/testApp.ts';

const line = (description: string, qty: number, unit_price: number, cost: number | null, category = 'materials') => ({ description, qty, unit_price, tax_included: false, tax_rate: 0.15, cost, category });

describe('jobs list', () => {
  const t = useTestApp();

  it('newest first, most profit first or most over first; every figure is the job’s own', async () => {
    const u = await signUp(t);
    const made: string[] = [];
    // A: quoted cost 120.00, costs 69.00 incl. GST (60.00 claimed net): under by half.
    // B: quoted cost 100.00, costs 172.50 incl. GST (150.00): 50 % over.
    // C: nothing quoted at a cost: no overrun.
    const jobs = [
      { lines: [line('Pipe', 10, 20, 12)], cost: '69.00' },
      { lines: [line('Cylinder', 1, 400, 100)], cost: '172.50' },
      { lines: [line('Call-out', 1, 90, null)], cost: '11.50' },
    ];
    for (const j of jobs) {
      const quote = (await t.post('/invoices', { type: 'quote', line_items: j.lines }, u.token)).json;
      expect((await t.post(`/invoices/${quote.id}/accept`, undefined, u.token)).status).toBe(200);
      expect((await t.post('/costs', { supplier: 'Plumbing World', date: '2026-05-05', amount: j.cost, job_id: quote.id }, u.token)).status).toBe(201);
      made.push(quote.id);
    }
    // A draft quote is no job.
    expect((await t.post('/invoices', { type: 'quote', line_items: [line('Draft', 1, 10, 5)] }, u.token)).status).toBe(201);
    const [a, b, c] = made as [string, string, string];

    const recent = await t.get('/jobs', u.token);
    expect(recent.status).toBe(200);
    expect(recent.json.jobs.map((j: { quote_id: string }) => j.quote_id)).toEqual([c, b, a]);
    expect(recent.json.has_more).toBe(false);
    for (const job of recent.json.jobs) {
      const { overrun_percent: _o, ...figures } = job;
      expect(figures).toEqual((await t.get(`/jobs/${job.quote_id}/profit`, u.token)).json);
    }
    const over = Object.fromEntries(recent.json.jobs.map((j: { quote_id: string; overrun_percent: number | null }) => [j.quote_id, j.overrun_percent]));
    expect(over).toEqual({ [a]: -50, [b]: 50, [c]: null });
    // Profit so far (nothing invoiced): A −60.00, B −150.00, C −10.00.
    expect((await t.get('/jobs?sort=profit', u.token)).json.jobs.map((j: { quote_id: string }) => j.quote_id)).toEqual([c, a, b]);
    expect((await t.get('/jobs?sort=overrun', u.token)).json.jobs.map((j: { quote_id: string }) => j.quote_id)).toEqual([b, a, c]);

    // The list is kept between requests, and follows at once what changes: a cost, hours, a setting.
    expect((await t.post('/hours', { who: 'owner', date: '2026-05-06', hours: '2', rate: '40', job_id: c }, u.token)).status).toBe(201);
    const afterHours = (await t.get('/jobs', u.token)).json.jobs.find((j: { quote_id: string }) => j.quote_id === c);
    expect(afterHours).toEqual({ ...(await t.get(`/jobs/${c}/profit`, u.token)).json, overrun_percent: null });
    expect(afterHours.actual_cost).toBe('90.00');
    expect((await t.put('/business-settings', { gst_registered: false }, u.token)).status).toBe(200);
    const unregistered = (await t.get('/jobs', u.token)).json.jobs.find((j: { quote_id: string }) => j.quote_id === c);
    expect(unregistered.actual_cost).toBe('91.50');

    const wrong = await t.get('/jobs?sort=loss', u.token);
    expect(wrong.status).toBe(422);
    expect(wrong.json.detail).toContain("sort must be 'recent', 'profit' or 'overrun'");

    // Another account sees none of them.
    const other = await signUp(t);
    expect((await t.get('/jobs', other.token)).json).toEqual({ jobs: [], has_more: false });
  });

  it('a flood of reads from one account is refused with words and Retry-After; another account is not held back, and the next minute reads again', async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    for (let i = 0; i < JOB_READS.max; i++) expect((await t.get(i % 2 === 0 ? '/jobs' : '/jobs?sort=profit', u.token)).status).toBe(200);
    const refused = await t.get('/jobs', u.token);
    expect([refused.status, refused.json.detail]).toEqual([429, JOB_READS_MESSAGE]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.get('/jobs/01a227da-3644-71d0-9c9a-3f4eab33d8c6/profit', u.token)).status).toBe(429);
    expect((await t.get('/jobs', other.token)).status).toBe(200);
    t.clock.advance(61_000);
    expect((await t.get('/jobs', u.token)).status).toBe(200);
  });
});

