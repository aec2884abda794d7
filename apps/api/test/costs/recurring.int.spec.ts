// /recurring-costs through the HTTP app on PGlite: a monthly phone bill set up with a first date in
// the past records what is already due at once; the runner records each later one on its day, once
// however often it looks (two runners at once too); stopping ends it and keeps what was made; the
// costs count in the GST report like any other; bad input is refused with a detail and writes
// nothing; another account's is 404.
import { describe, expect, it } from 'vitest';
import { makeDueRecurringCosts } from '../../src/costs/recurring.ts';
import { signInAgain } from '../documents/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';

const t = useTestApp();
const PHONE = { supplier: 'One NZ', amount: '65.00', frequency: 'monthly', start_date: '2026-03-31', category: 'other', note: 'Mobile' };
type Cost = { date: string; amount: string; kind: string; paid_date: string | null; gst_claimed: string; job_id: string | null; supplier: string };

async function expenses(token: string): Promise<Cost[]> {
  const r = await t.get('/costs?kind=expense', token);
  if (r.status !== 200) throw new Error(`costs: ${r.status} ${r.text}`);
  return r.json.costs;
}

describe('repeating expenses', () => {
  it('records what is due at once, then each on its day exactly once; stopped, no more, and what was made stays', async () => {
    t.clock.set('2026-05-04T21:30:00.000Z'); // 5 May in New Zealand
    const u = await signUp(t);
    const r = await t.post('/recurring-costs', PHONE, u.token);
    expect(r.status).toBe(201);
    // 31 March and 30 April were due: recorded now.
    expect(r.json).toMatchObject({ supplier: 'One NZ', amount: '65.00', gst: 'standard', frequency: 'monthly', start_date: '2026-03-31', end_date: null, paid_on_date: true, made: 2, last_made_on: '2026-04-30', next_date: '2026-05-31', stopped_on: null });
    const made = await expenses(u.token);
    expect(made.map((c) => [c.date, c.amount, c.paid_date, c.gst_claimed, c.job_id, c.supplier])).toEqual([
      ['2026-04-30', '65.00', '2026-04-30', '8.48', null, 'One NZ'],
      ['2026-03-31', '65.00', '2026-03-31', '8.48', null, 'One NZ'],
    ]);
    // Looking again the same day makes nothing.
    expect(await makeDueRecurringCosts(t.deps)).toBe(0);

    // 1 June: 31 May is due; two runners at once still make it once.
    t.clock.set('2026-05-31T13:00:00.000Z');
    const runs = await Promise.all([makeDueRecurringCosts(t.deps), makeDueRecurringCosts(t.deps)]);
    expect(runs[0] + runs[1]).toBe(1);
    u.token = await signInAgain(t, u);
    expect((await expenses(u.token)).map((c) => c.date)).toEqual(['2026-05-31', '2026-04-30', '2026-03-31']);
    expect((await t.get(`/recurring-costs/${r.json.id}`, u.token)).json).toMatchObject({ made: 3, next_date: '2026-06-30' });

    // The May–June GST period claims the 31 May one like any receipt.
    const gst = await t.get('/reports/gst?start_date=2026-05-01&end_date=2026-06-30&basis=invoice', u.token);
    expect(gst.json.gst_return.box11).toBe(65);

    // Stopped on 2 June: nothing more, ever; the three made stay and can be changed like any cost.
    t.clock.set('2026-06-01T21:30:00.000Z');
    u.token = await signInAgain(t, u);
    const stopped = await t.post(`/recurring-costs/${r.json.id}/stop`, undefined, u.token);
    expect(stopped.status).toBe(200);
    expect(stopped.json).toMatchObject({ made: 3, next_date: null, stopped_on: '2026-06-02' });
    expect((await t.post(`/recurring-costs/${r.json.id}/stop`, undefined, u.token)).json.stopped_on).toBe('2026-06-02');
    t.clock.set('2026-09-01T21:30:00.000Z');
    u.token = await signInAgain(t, u);
    expect(await makeDueRecurringCosts(t.deps)).toBe(0);
    expect(await expenses(u.token)).toHaveLength(3);
    const list = (await t.get('/recurring-costs', u.token)).json.recurring;
    expect(list.map((x: { id: string; next_date: string | null }) => [x.id, x.next_date])).toEqual([[r.json.id, null]]);
  });

  it('a business not registered for GST: 15 % is refused; set up without it, and one that deregisters later records no GST', async () => {
    t.clock.set('2026-05-04T21:30:00.000Z');
    const u = await signUp(t);
    const r = await t.post('/recurring-costs', { ...PHONE, start_date: '2026-05-05' }, u.token);
    expect(r.status).toBe(201);
    await t.deps.store.db.query('UPDATE business_settings SET gst_registered = false WHERE account_id = $1', [u.userId]);
    const refused = await t.post('/recurring-costs', PHONE, u.token);
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toMatch(/not registered for GST/);
    t.clock.set('2026-06-04T21:30:00.000Z');
    u.token = await signInAgain(t, u);
    expect(await makeDueRecurringCosts(t.deps)).toBe(1);
    const june = (await expenses(u.token)).find((c) => c.date === '2026-06-05')!;
    expect(june.gst_claimed).toBe('0.00');
  });

  it('refuses what it cannot use with a detail, writing nothing; the same Idempotency-Key twice sets up one', async () => {
    t.clock.set('2026-05-04T21:30:00.000Z');
    const u = await signUp(t);
    const refusals: [Record<string, unknown>, string][] = [
      [{ ...PHONE, start_date: '2025-01-01' }, 'The first date can be at most a year ago'],
      [{ ...PHONE, start_date: '2027-06-01' }, 'The first date can be at most a year ahead'],
      [{ ...PHONE, end_date: '2026-03-01' }, 'The last date must be on or after the first date'],
      [{ ...PHONE, frequency: 'daily' }, "frequency must be 'weekly', 'fortnightly', 'monthly', 'quarterly' or 'yearly'"],
      [{ ...PHONE, amount: '0' }, 'The amount must be more than $0.00'],
      [{ ...PHONE, supplier: '' }, 'Supplier is required'],
      [{ ...PHONE, start_date: '2026-02-30' }, 'The first date must be a real calendar day written as YYYY-MM-DD'],
    ];
    for (const [body, detail] of refusals) {
      const res = await t.post('/recurring-costs', body, u.token);
      expect([res.status, res.json.detail]).toEqual([422, detail]);
    }
    expect((await t.get('/recurring-costs', u.token)).json.recurring).toEqual([]);
    expect(await expenses(u.token)).toEqual([]);

    const key = { 'Idempotency-Key': 'phone-2026-05' };
    const first = await t.post('/recurring-costs', PHONE, u.token, key);
    const again = await t.post('/recurring-costs', PHONE, u.token, key);
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    expect(again.json.id).toBe(first.json.id);
    expect(await expenses(u.token)).toHaveLength(2);
  });

  it("another account's is not found, and the list is the account's own; signed out is 401", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const r = await t.post('/recurring-costs', { ...PHONE, start_date: '2026-05-05' }, a.token);
    expect((await t.get(`/recurring-costs/${r.json.id}`, b.token)).status).toBe(404);
    const stop = await t.post(`/recurring-costs/${r.json.id}/stop`, undefined, b.token);
    expect([stop.status, stop.json.detail]).toEqual([404, 'Repeating expense not found']);
    expect((await t.get(`/recurring-costs/${r.json.id}`, a.token)).json.next_date).toBe('2026-06-05');
    expect((await t.get('/recurring-costs', b.token)).json.recurring).toEqual([]);
    expect((await t.get('/recurring-costs')).status).toBe(401);
  });

  it('at most 50 going at once: the next is refused until one is stopped', async () => {
    const u = await signUp(t);
    let last = '';
    for (let i = 0; i < 50; i++) last = (await t.post('/recurring-costs', { ...PHONE, supplier: `Bill ${i}`, start_date: '2026-06-01' }, u.token)).json.id;
    const over = await t.post('/recurring-costs', { ...PHONE, start_date: '2026-06-01' }, u.token);
    expect(over.status).toBe(409);
    expect(over.json.detail).toBe('You can have at most 50 repeating expenses going at once. Stop one you no longer pay first.');
    expect((await t.post(`/recurring-costs/${last}/stop`, undefined, u.token)).status).toBe(200);
    expect((await t.post('/recurring-costs', { ...PHONE, start_date: '2026-06-01' }, u.token)).status).toBe(201);
  });
});
