// Payment claims under the Construction Contracts Act 2002, through the API: a construction
// client's stage invoices start as claims with suggested details; sending is refused with the list
// of what s 20 needs until it is there; the sent claim's PDF (read back with pdftotext) and email
// carry every element and the Form 1 notice, with the same amounts and dates as the screen's
// record; the due date for payment becomes 20 working days after service when the tradie chose the
// Act's default, and a claim never moves the invoice's own due date without asking; the site's lines
// kept apart; the next claim picks up the contract (an approved variation in it); a payment schedule
// and a retention release; other accounts and bad input refused.
import { CCA_FORM_1, documentStreamId } from '@tradie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { addClient, eventTypes, line, pdfText, setSettings } from '../documents/support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signUp>>;

/** A construction client and an accepted quote: framing $20,000 + GST and roofing $10,000 + GST = $34,500.00. */
async function construction(u: User): Promise<{ clientId: string; quoteId: string }> {
  await setSettings(t, u.userId, { business_name: 'Waikato Framing Ltd', gst_number: '123-456-788' });
  const clientId = await addClient(t, u.userId, { name: 'Hemi Parata', email: 'hemi@example.com', address: '12 Kahikatea Drive, Hamilton' });
  expect((await t.put(`/payment-claims/clients/${clientId}`, { payment_claims: true }, u.token)).json).toEqual({ payment_claims: true });
  const q = await t.post('/invoices', { type: 'quote', client_id: clientId, line_items: [line('Framing', 1, 20000), line('Roofing', 1, 10000)] }, u.token);
  expect(q.status).toBe(201);
  expect((await t.post(`/invoices/${q.json.id}/accept`, undefined, u.token)).status).toBe(200);
  return { clientId, quoteId: q.json.id as string };
}

const complete = {
  contract_reference: 'Garage build, contract GB-7',
  contract_date: '2026-04-20',
  site: '12 Kahikatea Drive, Hamilton',
  work: 'Framing and roofing of the garage',
  period_from: '2026-04-20',
  period_to: '2026-05-04',
  retention_percent: 5,
  // The contract sets no due date: the Act's default (20 working days after service) applies.
  due_date_choice: 'act',
};

/** A stage of the quote invoiced, made a claim with `details` and sent (served): the stage invoice. */
async function servedClaim(u: User, quoteId: string, stage: Record<string, unknown>, details: Record<string, unknown> = complete): Promise<{ id: string; reference: string }> {
  const invoice = (await t.post(`/invoices/${quoteId}/stages`, stage, u.token)).json;
  expect((await t.put(`/invoices/${invoice.id}/payment-claim`, details, u.token)).status).toBe(200);
  expect((await t.post(`/invoices/${invoice.id}/send`, undefined, u.token)).status).toBe(200);
  return invoice;
}

describe('payment claims', () => {
  it('a construction client’s stage invoice starts as a claim; sending waits for every s 20 element; the PDF, the email and the record agree', async () => {
    const u = await signUp(t);
    const { quoteId } = await construction(u);
    // 40 % complete: 23,000.00 × 0.4 = 9,200.00 and 11,500.00 × 0.4 = 4,600.00 → 13,800.00.
    const first = await t.post(`/invoices/${quoteId}/stages`, { kind: 'progress', percent_complete: 40 }, u.token);
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ is_payment_claim: true, total: 13800 });
    const id = first.json.id as string;

    const suggested = (await t.get(`/invoices/${id}/payment-claim`, u.token)).json;
    expect(suggested).toMatchObject({ active: true, editable: true, served_on: null });
    expect(suggested.details).toMatchObject({ contract_reference: 'Quote QTE-0001', site: '12 Kahikatea Drive, Hamilton', work: 'Framing; Roofing', retention_percent: '0' });

    // Take the site away: the send is refused with the list, nothing is mailed or recorded.
    expect((await t.put(`/invoices/${id}/payment-claim`, { ...complete, site: '', contract_date: null }, u.token)).status).toBe(200);
    const before = await eventTypes(t, documentStreamId(id));
    const refused = await t.post(`/invoices/${id}/send`, undefined, u.token);
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toBe("This payment claim can't be sent yet. Add: the date of the contract; the site address.");
    expect(await eventTypes(t, documentStreamId(id))).toEqual(before);
    expect(t.mailer.sent).toHaveLength(0);
    expect((await t.get(`/invoices/${id}/payment-claim`, u.token)).json.missing.map((m: { field: string }) => m.field)).toEqual(['contract_date', 'site']);

    // Complete: 5 % retention of 13,800.00 = 690.00; claimed 13,110.00.
    const set = await t.put(`/invoices/${id}/payment-claim`, complete, u.token);
    expect(set.json).toMatchObject({ missing: [], calculation: { contract_sum: 34500, variations: 0, this_claim: 13800, previously_claimed: 0, retention: 690, claimed: 13110 } });
    expect(set.json.calculation.lines).toEqual([
      { description: 'Framing', value: 23000, percent_to_date: '40', to_date: 9200, previous: 0, this_claim: 9200, variation: false },
      { description: 'Roofing', value: 11500, percent_to_date: '40', to_date: 4600, previous: 0, this_claim: 4600, variation: false },
    ]);

    // Sent on Tuesday 5 May 2026 (NZ): 20 working days → 6–8 May (3), 11–15 (8), 18–22 (13),
    // 25–29 (18); Monday 1 June is King's Birthday; 2, 3 June (20) → Wednesday 3 June 2026.
    const sent = await t.post(`/invoices/${id}/send`, undefined, u.token);
    expect(sent.status).toBe(200);
    const record = (await t.get(`/invoices/${id}/payment-claim`, u.token)).json;
    expect(record).toMatchObject({ served_on: '2026-05-05', payment_due: '2026-06-03', schedule_due_by: '2026-06-03', editable: false, schedule_status: 'Payment schedule due by 3 June 2026' });
    expect((await t.get(`/invoices/${id}`, u.token)).json.due_date).toBe(record.payment_due);

    const mail = t.mailer.sent.at(-1)!;
    expect(mail.text).toContain('This is a payment claim made under the Construction Contracts Act 2002.');
    expect(mail.text).toContain('Claimed amount: $13,110.00 (GST included), due for payment on 3 June 2026.');
    expect(mail.text).toContain('Payment schedule due by 3 June 2026.');
    expect(mail.text).toContain(CCA_FORM_1.subtitle);

    const attached = mail.attachments?.[0]?.content as Buffer;
    const text = pdfText(attached).replace(/\s+/g, ' ');
    for (const element of [
      'This is a payment claim made under the Construction Contracts Act 2002.', // s 20(2)(f)
      'Construction contract Garage build, contract GB-7', // (b)
      'Contract date 20 April 2026',
      'Site 12 Kahikatea Drive, Hamilton',
      'Construction work Framing and roofing of the garage', // (c)
      'Period of this claim 20 April 2026 to 4 May 2026',
      'Claimed amount $13,110.00', // (d), the same figure as the record's
      'Due date for payment 3 June 2026',
      'Payment schedule due by 3 June 2026',
      'How the claimed amount was calculated', // (e)
      'Contract sum $34,500.00',
      'Less retention withheld (5 %) $690.00',
      'Claimed amount (incl. GST) $13,110.00',
      'Tax Invoice', // in writing, and a tax invoice naming the buyer
      'Hemi Parata',
      CCA_FORM_1.title, // s 20(3): the Form 1 notice
      CCA_FORM_1.subtitle,
      ...CCA_FORM_1.sections.map((s) => s.heading),
      `Notice version ${CCA_FORM_1.version}`,
    ]) {
      expect(text).toContain(element);
    }
    expect(record.calculation.claimed).toBe(13110);

    // The served claim cannot change.
    expect((await t.put(`/invoices/${id}/payment-claim`, complete, u.token)).status).toBe(409);
  });

  it('the next claim on the same contract picks up its details, counts the variation and what was claimed before; a schedule and a retention release', async () => {
    const u = await signUp(t);
    const { quoteId } = await construction(u);
    const first = await servedClaim(u, quoteId, { kind: 'progress', percent_complete: 40 });

    // Extra window $2,000 + GST = 2,300.00. 70 %: framing 16,100 − 9,200 = 6,900; roofing 8,050 −
    // 4,600 = 3,450; window 1,610 → 11,960.00; retention 5 % = 598.00; claimed 11,362.00.
    const varied = await t.post(`/invoices/${quoteId}/variations`, { line: line('Extra window', 1, 2000) }, u.token);
    expect(varied.status).toBe(201);
    // Approved on the client's word (the client link's own approval: clientLinks/variations.int.spec.ts).
    expect((await t.post(`/invoices/${quoteId}/variations/${varied.json.variations[0].id}/approve`, undefined, u.token)).status).toBe(200);
    const second = (await t.post(`/invoices/${quoteId}/stages`, { kind: 'progress', percent_complete: 70 }, u.token)).json;
    const claim = (await t.get(`/invoices/${second.id}/payment-claim`, u.token)).json;
    expect(claim.details).toMatchObject({ contract_reference: complete.contract_reference, site: complete.site, retention_percent: '5', period_from: '2026-05-05' });
    expect(claim.calculation).toMatchObject({ contract_sum: 34500, variations: 2300, previously_claimed: 13800, this_claim: 11960, retention: 598, claimed: 11362 });
    expect(claim.calculation.earlier).toEqual([{ reference: first.reference, total: 13800 }]);
    expect(claim.calculation.lines.map((l: { percent_to_date: string; variation: boolean }) => [l.percent_to_date, l.variation])).toEqual([['70', false], ['70', false], ['70', true]]);

    // A schedule received for less than claimed on the first claim (13,110.00): 12,000.00.
    const bad = await t.post(`/invoices/${first.id}/payment-schedules`, { received_on: '2026-05-12', scheduled_amount: 12000 }, u.token);
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toContain('gives reasons');
    const schedule = await t.post(`/invoices/${first.id}/payment-schedules`, { received_on: '2026-05-12', scheduled_amount: 12000, reasons: 'Roof flashing not finished' }, u.token);
    expect(schedule.status).toBe(201);
    expect(schedule.json.schedule).toEqual({ received_on: '2026-05-12', scheduled_amount: 12000, reasons: 'Roof flashing not finished', difference: 1110 });
    expect(schedule.json.schedule_status).toBe('Payment schedule received 12 May 2026: $12,000.00 scheduled, $1,110.00 less than the $13,110.00 claimed');
    const timeline = (await t.get(`/invoices/${first.id}/timeline`, u.token)).json.entries.map((e: { kind: string; text: string }) => [e.kind, e.text]);
    expect(timeline).toContainEqual(['claim', 'Made a payment claim under the Construction Contracts Act 2002']);
    expect(timeline).toContainEqual(['payment_schedule', 'Payment schedule received 12/05/2026: $12,000.00 scheduled (Roof flashing not finished)']);
    expect(timeline.filter(([kind]: [string]) => kind === 'claim')).toHaveLength(1);

    // Retention held 690.00 until released.
    expect(schedule.json.retention_held).toBe(690);
    expect((await t.post(`/invoices/${first.id}/retention-releases`, { amount: 690.01, date: '2026-09-01' }, u.token)).status).toBe(422);
    const released = await t.post(`/invoices/${first.id}/retention-releases`, { amount: 690, date: '2026-09-01' }, u.token);
    expect(released.status).toBe(201);
    expect(released.json).toMatchObject({ retention_held: 0, retention_releases: [{ amount: 690, date: '2026-09-01' }] });
  });

  it('a served claim says the same when an earlier stage invoice is voided afterwards: the record and the PDF made again', async () => {
    const u = await signUp(t);
    const { quoteId } = await construction(u);
    const pdfOf = async (id: string): Promise<string> => {
      const res = await t.app.request(`/api/v1/invoices/${id}/pdf`, { headers: { Authorization: `Bearer ${u.token}` } });
      expect(res.status).toBe(200);
      return pdfText(new Uint8Array(await res.arrayBuffer()));
    };
    // Deposit 10 % = 3,450.00, then 40 % complete: 13,800.00 − 3,450.00 = 10,350.00 this claim.
    const deposit = await servedClaim(u, quoteId, { kind: 'deposit', percent: 10 }, { ...complete, retention_percent: 0 });
    const progress = await servedClaim(u, quoteId, { kind: 'progress', percent_complete: 40 }, { ...complete, retention_percent: 0 });
    const served = (await t.get(`/invoices/${progress.id}/payment-claim`, u.token)).json;
    expect(served.calculation).toMatchObject({ previously_claimed: 3450, this_claim: 10350, claimed: 10350 });
    expect(served.calculation.earlier).toEqual([{ reference: deposit.reference, total: 3450 }]);
    const servedPdf = await pdfOf(progress.id);
    expect(servedPdf).toContain(deposit.reference);

    // A minute later the deposit invoice is voided: its stage is withdrawn from the quote.
    t.clock.advance(60_000);
    expect((await t.post(`/invoices/${deposit.id}/void`, undefined, u.token)).status).toBe(200);
    expect((await t.get(`/invoices/${quoteId}`, u.token)).json.stages.invoices.map((s: { id: string }) => s.id)).toEqual([progress.id]);
    const after = (await t.get(`/invoices/${progress.id}/payment-claim`, u.token)).json;
    expect(after.calculation).toEqual(served.calculation);
    expect(await pdfOf(progress.id)).toBe(servedPdf);

    // The next claim, made after the void, counts what stands: the progress claim only.
    const next = (await t.post(`/invoices/${quoteId}/stages`, { kind: 'progress', percent_complete: 60 }, u.token)).json;
    const nextClaim = (await t.get(`/invoices/${next.id}/payment-claim`, u.token)).json;
    expect(nextClaim.calculation.earlier).toEqual([{ reference: progress.reference, total: 10350 }]);
  });

  it('reminders chase what is due now, never the retention held back until it is released', async () => {
    const u = await signUp(t);
    const { quoteId } = await construction(u);
    const first = await servedClaim(u, quoteId, { kind: 'progress', percent_complete: 40 });
    const target = async (): Promise<string | null> =>
      (await t.deps.store.db.query<{ balance_cents: string }>('SELECT balance_cents::text AS balance_cents FROM reminder_targets WHERE document_id = $1', [first.id]))[0]?.balance_cents ?? null;
    // Due now is the claimed amount: 13,800.00 less the 690.00 retention withheld.
    expect(await target()).toBe('1311000');
    // The claimed amount paid (13,110.00): the 690.00 retention is held, nothing is due now.
    expect((await t.post(`/invoices/${first.id}/payments`, { amount: 13110, date: '2026-05-20', method: 'bank_transfer' }, u.token)).status).toBe(201);
    expect(await target()).toBeNull();
    expect((await t.get(`/invoices/${first.id}`, u.token)).json.balance).toBe(690);
    expect((await t.post(`/reminders/invoices/${first.id}/send-now`, undefined, u.token)).status).toBe(409);
    // Released: now it is due, and reminders may chase it.
    expect((await t.post(`/invoices/${first.id}/retention-releases`, { amount: 690, date: '2026-09-01' }, u.token)).status).toBe(201);
    expect(await target()).toBe('69000');
  });

  it('no schedule by the deadline: the claim says the claimed amount is due', async () => {
    const u = await signUp(t);
    const { quoteId } = await construction(u);
    const first = await servedClaim(u, quoteId, { kind: 'deposit', percent: 10 }, { ...complete, retention_percent: 0 });
    const now = t.clock.now().toISOString();
    try {
      t.clock.set('2026-06-04T02:00:00Z');
      const token = (await t.post('/auth/login', { email: u.email, password: u.password })).json.access_token as string;
      const late = (await t.get(`/invoices/${first.id}/payment-claim`, token)).json;
      expect(late.schedule_status).toBe('No payment schedule received by 3 June 2026: the claimed amount of $3,450.00 is due on 3 June 2026');
    } finally {
      t.clock.set(now);
    }
  });

  it("asks which due date applies before saving, never moving the invoice's own on its own; the site's lines stay apart on the screen, the PDF and the email", async () => {
    const u = await signUp(t);
    const now = t.clock.now().toISOString();
    try {
      // Saturday 28 November 2026, 14 days' terms: due 12 December 2026. The Act's default, 20
      // working days after service that day: 30 Nov (1) … 23 Dec (18); 24 Dec–5 Jan are not
      // working days; 6 Jan (19), 7 Jan (20) → 7 January 2027.
      t.clock.set('2026-11-27T21:00:00Z');
      const token = (await t.post('/auth/login', { email: u.email, password: u.password })).json.access_token as string;
      await setSettings(t, u.userId, { business_name: 'Rata Roofing Ltd', gst_number: '123-456-788' });
      const clientId = await addClient(t, u.userId, { name: 'Mere Tane', email: 'mere@example.com', address: '48 Rata Road\nHillcrest\nHamilton 3216' });
      const inv = await t.post('/invoices', { type: 'invoice', client_id: clientId, payment_terms: '14 days', line_items: [line('Re-roof', 1, 8000)] }, token);
      expect(inv.json.due_date).toBe('2026-12-12');
      const id = inv.json.id as string;
      const question = "The Construction Contracts Act due date is 7 January 2027; the invoice's own terms say 12 December 2026 — which applies?";

      // Before it is a claim, the screen has the question and the site on one line.
      const suggested = (await t.get(`/invoices/${id}/payment-claim`, token)).json;
      expect(suggested.due_date_question).toEqual({ act_due: '2027-01-07', invoice_due: '2026-12-12', text: question, chosen: null });
      expect(suggested.details.site).toBe('48 Rata Road, Hillcrest, Hamilton 3216');

      // Saving without a choice is refused with the question: nothing is written, the due date stays.
      const details = { ...complete, site: suggested.details.site, due_date_choice: undefined };
      const before = await eventTypes(t, documentStreamId(id));
      const refused = await t.put(`/invoices/${id}/payment-claim`, details, token);
      expect([refused.status, refused.json.detail]).toEqual([422, question]);
      expect(await eventTypes(t, documentStreamId(id))).toEqual(before);
      expect((await t.get(`/invoices/${id}`, token)).json.due_date).toBe('2026-12-12');

      // The invoice's own terms apply: the claim's due date for payment is 12 December 2026.
      const own = await t.put(`/invoices/${id}/payment-claim`, { ...details, due_date_choice: 'invoice' }, token);
      expect(own.status).toBe(200);
      expect(own.json).toMatchObject({ payment_due: '2026-12-12', details: { payment_due_date: '2026-12-12', site: '48 Rata Road, Hillcrest, Hamilton 3216' }, due_date_question: { chosen: 'invoice' } });
      expect((await t.get(`/invoices/${id}`, token)).json.due_date).toBe('2026-12-12');
      // The Act's default instead: 7 January 2027, said so on the record.
      const act = await t.put(`/invoices/${id}/payment-claim`, { ...details, due_date_choice: 'act' }, token);
      expect(act.json).toMatchObject({ payment_due: '2027-01-07', details: { payment_due_date: null }, due_date_question: { chosen: 'act' } });
      expect((await t.get(`/invoices/${id}`, token)).json.due_date).toBe('2027-01-07');
      // Back to the invoice's terms, then sent: the served claim keeps 12 December 2026.
      expect((await t.put(`/invoices/${id}/payment-claim`, { ...details, due_date_choice: 'invoice', site: '48 Rata Road\nHillcrest\nHamilton 3216' }, token)).status).toBe(200);
      expect((await t.post(`/invoices/${id}/send`, undefined, token)).status).toBe(200);
      const served = (await t.get(`/invoices/${id}/payment-claim`, token)).json;
      expect(served).toMatchObject({ served_on: '2026-11-28', payment_due: '2026-12-12', due_date_question: null, details: { site: '48 Rata Road, Hillcrest, Hamilton 3216' } });
      const mail = t.mailer.sent.at(-1)!;
      expect(mail.text).toContain('Garage build, contract GB-7 (20 April 2026), 48 Rata Road, Hillcrest, Hamilton 3216.');
      expect(mail.text).toContain('due for payment on 12 December 2026');
      const pdf = pdfText(mail.attachments?.[0]?.content as Buffer).replace(/\s+/g, ' ');
      expect(pdf).toContain('Site 48 Rata Road, Hillcrest, Hamilton 3216');
      expect(pdf).toContain('Due date for payment 12 December 2026');
    } finally {
      t.clock.set(now);
    }
  });

  it('refuses what cannot be right, and another account’s invoice or client is not found', async () => {
    const u = await signUp(t);
    const other = await signUp(t, 'Someone Else');
    const { clientId, quoteId } = await construction(u);
    const invoice = (await t.post(`/invoices/${quoteId}/stages`, { kind: 'deposit', percent: 10 }, u.token)).json;
    expect((await t.put(`/invoices/${invoice.id}/payment-claim`, { ...complete, retention_percent: '12abc' }, u.token)).status).toBe(422);
    expect((await t.put(`/invoices/${invoice.id}/payment-claim`, { ...complete, period_from: '2026-05-04', period_to: '2026-05-01' }, u.token)).json.detail).toBe('The claim period cannot end before it starts');
    expect((await t.put(`/invoices/${invoice.id}/payment-claim`, { ...complete, contract_date: '20/04/2026' }, u.token)).status).toBe(422);
    expect((await t.put(`/invoices/${quoteId}/payment-claim`, complete, u.token)).status).toBe(409);
    expect((await t.get(`/invoices/${quoteId}/payment-claim`, u.token)).status).toBe(409);
    expect((await t.post(`/invoices/${invoice.id}/payment-schedules`, { received_on: '2026-05-12', scheduled_amount: 1, reasons: 'x' }, u.token)).status).toBe(409);
    for (const r of [
      await t.get(`/invoices/${invoice.id}/payment-claim`, other.token),
      await t.put(`/invoices/${invoice.id}/payment-claim`, complete, other.token),
      await t.del(`/invoices/${invoice.id}/payment-claim`, other.token),
      await t.get(`/payment-claims/clients/${clientId}`, other.token),
      await t.put(`/payment-claims/clients/${clientId}`, { payment_claims: false }, other.token),
    ]) {
      expect(r.status).toBe(404);
    }
    // Not a claim any more, while a draft: it sends as an ordinary invoice.
    const cleared = await t.del(`/invoices/${invoice.id}/payment-claim`, u.token);
    expect(cleared.json.active).toBe(false);
    expect((await t.post(`/invoices/${invoice.id}/send`, undefined, u.token)).status).toBe(200);
    expect(t.mailer.sent.at(-1)!.text).not.toContain('Construction Contracts Act');
  });
});
