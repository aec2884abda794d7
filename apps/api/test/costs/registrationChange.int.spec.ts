// Whether GST on a cost is claimed depends on the business being registered for GST, a setting and
// not an event. A GST report, the tax year's expenses or a job's profit asked for before and after
// the setting changes must follow it at once: no answer kept from before may be served after.
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';

const t = useTestApp();

describe('changing GST registration', () => {
  it('moves Box 11 and the expenses at once', async () => {
    const u = await signUp(t);
    const r = await t.post('/costs', { kind: 'receipt', supplier: 'Plumbing World', date: '2026-05-05', paid_date: '2026-05-05', amount: '115.00', gst: 'standard', category: 'materials' }, u.token);
    expect(r.status, r.text).toBe(201);
    const gst = '/reports/gst?start_date=2026-05-01&end_date=2026-06-30&basis=invoice';
    expect((await t.get(gst, u.token)).json.gst_return).toMatchObject({ box11: 115, box12: 15 });
    expect((await t.get('/reports/expenses?year=2027', u.token)).json).toMatchObject({ expenses: 100 });

    const off = await t.put('/business-settings', { gst_registered: false }, u.token);
    expect(off.status, off.text).toBe(200);
    expect((await t.get(gst, u.token)).json.gst_return).toMatchObject({ box11: 0, box12: 0 });
    expect((await t.get('/reports/expenses?year=2027', u.token)).json).toMatchObject({ expenses: 115 });

    expect((await t.put('/business-settings', { gst_registered: true }, u.token)).status).toBe(200);
    expect((await t.get(gst, u.token)).json.gst_return).toMatchObject({ box11: 115, box12: 15 });
  });
});
