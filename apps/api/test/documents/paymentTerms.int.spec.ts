// Payment terms per client and as the business's default: N days, the 20th of the month following
// and due on receipt. The due date is worked out once (the domain's dueDateFor) and the detail,
// the PDF and the client's page say the same words for it (paymentTermsText).
import { oracleDueDate } from '@tradie/testkit/oracle/dueDates';
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';
import { publicClient, sendAndReadLink } from '../clientLinks/support.ts';
import { addClient, line, pdfText, setSettings } from './support.ts';

const t = useTestApp();
// The test clock is 2026-05-04T21:30Z: 5 May 2026 in New Zealand.
const TODAY = '2026-05-05';

describe('payment terms', () => {
  it('a client on the 20th of the month following: the invoice is due 20 June, said the same on the detail, the PDF and the client’s page', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { business_name: 'Kauri Plumbing', gst_number: '49-091-850' });
    const client_id = await addClient(t, u.userId, { name: 'Aroha Ngata', email: 'aroha@example.nz', default_payment_terms: '20th of the month following' });
    const r = await t.post('/invoices', { type: 'invoice', client_id, line_items: [line('Labour', 2, 85)] }, u.token);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ issue_date: TODAY, payment_terms: '20th of the month following', due_date: '2026-06-20', payment_terms_text: '20th of the month following — due 20/06/2026' });
    expect(r.json.due_date).toBe(oracleDueDate(TODAY, '20th of the month following'));
    const pdf = await t.app.request(`/api/v1/invoices/${r.json.id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } });
    expect(pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/[ \t]+/g, ' ')).toContain(r.json.payment_terms_text);
    const { token } = await sendAndReadLink(t, u, r.json.id);
    const page = await publicClient(t).get(`/invoices/${token}`);
    expect(page.json.document).toMatchObject({ due_date: '2026-06-20', payment_terms_text: r.json.payment_terms_text });
  });

  it('any number of days is taken; a revision to new terms works the due date out again', async () => {
    const u = await signUp(t);
    const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Labour', 1, 85)], payment_terms: '21 days' }, u.token);
    expect(r.json).toMatchObject({ due_date: '2026-05-26', payment_terms_text: '21 days — due 26/05/2026' });
    const onReceipt = await t.put(`/invoices/${r.json.id}`, { line_items: [line('Labour', 1, 85)], payment_terms: 'Due on receipt' }, u.token);
    expect(onReceipt.json).toMatchObject({ due_date: TODAY, payment_terms_text: 'Due on receipt' });
  });

  it('refuses terms that are not terms, saying what is, and writes nothing', async () => {
    const u = await signUp(t);
    for (const payment_terms of ['0 days', '400 days', 'net 30', '20th']) {
      const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Labour', 1, 85)], payment_terms }, u.token);
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.json)).toMatch(/a number of days from 1 to 365/);
    }
    expect((await t.get('/invoices', u.token)).json).toEqual([]);
    const c = await t.post('/clients', { name: 'Hemi', default_payment_terms: '0 days' }, u.token);
    expect(c.status).toBe(422);
  });

  it('without a client, the business default from the set-up applies', async () => {
    const u = await signUp(t);
    expect((await t.put('/setup', { default_payment_terms: '20th of the month following' }, u.token)).status).toBe(200);
    const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Labour', 1, 85)] }, u.token);
    expect(r.json).toMatchObject({ payment_terms: '20th of the month following', due_date: '2026-06-20' });
  });
});
