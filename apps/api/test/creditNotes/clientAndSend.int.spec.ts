// The client sees the credit notes, and a credit note can be emailed to them.
//
// An invoice of $873.50 (1 × $873.50 incl. GST) paid in full, then credited $80.00 ('Labour not
// needed') and the $80.00 paid back: the client's page showed Total $873.50, Paid $793.50, Balance
// $0.00 and a payment of $873.50, and never the credit. Now it lists CN-0001 (its amount, reason
// and PDF through the link) and the figures name each movement: $873.50 − $80.00 credited −
// $873.50 paid + $80.00 paid back = $0.00. The total is the independent oracle's.
//
// Emailing a credit note goes through the document send's guard (sendGuard.ts) and records what
// happened to the email: delivered, kept in the outbox (nobody received it), or refused.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMAIL_UNCONFIRMED_CODE, SEND_MESSAGES } from '@tradie/contracts';
import { documentStreamId } from '@tradie/domain';
import { oracleTotals } from '@tradie/testkit/oracle/oracle';
import { readOutbox } from '@tradie/testkit/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailRejectedError, createOutboxMailer } from '../../src/mail/index.ts';
import { publicClient } from '../clientLinks/support.ts';
import { addClient, eventTypes, line, pdfText, setSettings } from '../documents/support.ts';
import { createTestApp, signUp, TestClock, type TestApp, useTestApp } from '../support/testApp.ts';

const t = useTestApp();
type User = Awaited<ReturnType<typeof signUp>>;
const cents = (money: string): bigint => BigInt(money.replace(/[^\d-]/g, ''));

/** An invoice of $873.50 incl. GST with a link for the client, paid in full, credited $80.00 and the $80.00 paid back. */
async function creditedAndRefunded(app: TestApp, u: User) {
  await setSettings(app, u.userId, { business_name: 'Kōwhai Plumbing Limited', gst_number: '49-091-850', address: '12 Kahikatea Drive', city: 'Whangārei', postcode: '0110' });
  const client_id = await addClient(app, u.userId, { name: 'Aroha Ngata', email: 'aroha@example.nz' });
  const inv = await app.post('/invoices', { type: 'invoice', client_id, line_items: [line('Hot water cylinder, supplied and fitted', 1, '873.50', { tax_included: true })] }, u.token);
  expect(inv.status).toBe(201);
  const id = inv.json.id as string;
  const link = await app.post(`/invoices/${id}/link`, undefined, u.token);
  const token = /\/i\/([A-Za-z0-9_-]+)$/.exec(link.json.url)![1]!;
  expect((await app.post(`/invoices/${id}/mark-paid`, { date: '2026-05-05' }, u.token)).status).toBe(200);
  const cn = await app.post(`/invoices/${id}/credit-notes`, { amount: '80.00', reason: 'Labour not needed' }, u.token);
  expect(cn.status).toBe(201);
  expect((await app.post(`/credit-notes/${cn.json.id}/refunds`, { amount: 80, date: '2026-05-06', method: 'bank_transfer', reference: 'Refund' }, u.token)).status).toBe(201);
  return { id, token, creditNoteId: cn.json.id as string };
}

describe("the client's invoice page after a credit note", () => {
  it('lists each credit note with its amount, reason and PDF, and figures that add up to the balance', async () => {
    const u = await signUp(t);
    const { token, creditNoteId } = await creditedAndRefunded(t, u);
    const c = publicClient(t);
    const page = (await c.get(`/invoices/${token}`)).json;
    const total = oracleTotals([{ qty: '1', unitPrice: '873.50', inclusive: true, rate: '0.15' }], 'total').total;
    expect(cents(page.document.formatted.total)).toBe(total);
    expect(page.money).toEqual({ credited: '$80.00', received: '$873.50', refunded: '$80.00' });
    expect(page.document.formatted).toMatchObject({ paid: '$793.50', balance: '$0.00' });
    // Total − credited − received + paid back = the balance shown.
    expect(total - cents(page.money.credited) - cents(page.money.received) + cents(page.money.refunded)).toBe(cents(page.document.formatted.balance));
    expect(page.credit_notes).toEqual([
      { reference: 'CN-0001', date: '2026-05-05', reason: 'Labour not needed', total: 80, formatted: { total: '$80.00', refunded: '$80.00' }, pdf_url: `/public/invoices/${token}/credit-notes/${creditNoteId}/pdf` },
    ]);

    // Its PDF through the link, with the business's address as its invoices carry it.
    const pdf = await t.app.request(`/api/v1${page.credit_notes[0].pdf_url}`, {}, { remoteAddress: c.ip });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
    const text = pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/[ \t]+/g, ' ');
    expect(text).toContain('CN-0001');
    expect(text).toContain('Kōwhai Plumbing Limited');
    expect(text).toContain('12 Kahikatea Drive');
    expect(text).toContain('Reason: Labour not needed');
  });

  it('serves only the credit notes of the link’s own invoice', async () => {
    const u = await signUp(t);
    const { token } = await creditedAndRefunded(t, u);
    const other = await creditedAndRefunded(t, await signUp(t));
    const c = publicClient(t);
    expect((await c.get(`/invoices/${token}/credit-notes/${other.creditNoteId}/pdf`)).status).toBe(404);
    expect((await c.get(`/invoices/${token}/credit-notes/not-an-id/pdf`)).status).toBe(404);
  });
});

describe('POST /credit-notes/{id}/send', () => {
  it('emails the credit note with its PDF to the client, records it as delivered, and a repeat with the same key sends nothing more', async () => {
    const u = await signUp(t);
    const { id, creditNoteId } = await creditedAndRefunded(t, u);
    const before = t.mailer.sent.length;
    const r = await t.post(`/credit-notes/${creditNoteId}/send`, undefined, u.token, { 'Idempotency-Key': 'cn-send-1' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ outcome: 'delivered', detail: null, to: ['aroha@example.nz'], subject: 'Credit note CN-0001 for invoice INV-0001 from Kōwhai Plumbing Limited' });
    expect(r.json.credit_note.sends).toEqual([
      { to: ['aroha@example.nz'], cc: [], bcc: [], subject: r.json.subject, at: '2026-05-04T21:30:00.000Z', outcome: 'delivered', detail: null },
    ]);
    const mail = t.mailer.sent.at(-1)!;
    expect(t.mailer.sent.length).toBe(before + 1);
    expect(mail.attachments?.map((a) => a.filename)).toEqual(['CN-0001.pdf']);
    expect(mail.text).toContain('Please find attached credit note CN-0001 for invoice INV-0001: $80.00 including GST.\n\nReason: Labour not needed');
    expect(mail.text).toContain('$80.00 of it has been paid back to you.');
    expect(mail.text).toContain('See the invoice and its credit notes online: http://app.test/i/');

    const again = await t.post(`/credit-notes/${creditNoteId}/send`, undefined, u.token, { 'Idempotency-Key': 'cn-send-1' });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(t.mailer.sent.length).toBe(before + 1);
    expect((await eventTypes(t, documentStreamId(id))).filter((e) => e === 'CreditNoteEmailed')).toHaveLength(1);
    const timeline = (await t.get(`/invoices/${id}/timeline`, u.token)).json.entries.map((e: { text: string }) => e.text);
    expect(timeline).toContain('Credit note CN-0001 emailed to aroha@example.nz');
  });

  it('a refusal by the mail server is recorded as not delivered and answered 422; never called sent', async () => {
    const u = await signUp(t);
    const { creditNoteId } = await creditedAndRefunded(t, u);
    t.mailer.failWith = new MailRejectedError(['aroha@example.nz'], false, 'refused', { serverAnswer: '550 5.1.1 User unknown' });
    try {
      const r = await t.post(`/credit-notes/${creditNoteId}/send`, undefined, u.token);
      expect(r.status).toBe(422);
    } finally {
      t.mailer.failWith = undefined;
    }
    const note = (await t.get(`/credit-notes/${creditNoteId}`, u.token)).json;
    expect(note.sends).toMatchObject([{ to: ['aroha@example.nz'], outcome: 'failed', detail: 'The mail server refused it: 550 5.1.1 User unknown' }]);
  });

  it('to nobody (the client has no email) is refused with the reason, and another account’s credit note is 404', async () => {
    const u = await signUp(t);
    const client_id = await addClient(t, u.userId, { name: 'No Email' });
    const inv = (await t.post('/invoices', { type: 'invoice', client_id, line_items: [line('Work', 1, 100)] }, u.token)).json;
    await t.post(`/invoices/${inv.id}/issue`, undefined, u.token);
    const cn = (await t.post(`/invoices/${inv.id}/credit-notes`, { amount: 10, reason: 'Discount' }, u.token)).json;
    const r = await t.post(`/credit-notes/${cn.id}/send`, undefined, u.token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe('The client has no email address: add one to the client, or say who the credit note goes to.');
    expect((await t.post(`/credit-notes/${cn.id}/send`, undefined, (await signUp(t)).token)).status).toBe(404);
    expect((await t.get(`/credit-notes/${cn.id}`, u.token)).json.sends).toEqual([]);
  });
});

describe('POST /credit-notes/{id}/send through the outbox and the send guard', () => {
  const clock = new TestClock();
  const outbox = join(mkdtempSync(join(tmpdir(), 'cn-outbox-')), 'outbox');
  let app: TestApp;
  let smtp: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ clock, overrides: { mailer: createOutboxMailer({ dir: outbox, now: () => clock.now() }) } });
    smtp = await createTestApp({ mailKind: 'smtp' });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  it("with no mail server, answers 'Saved to the outbox' and records it as not delivered", async () => {
    const u = await signUp(app);
    const { creditNoteId } = await creditedAndRefunded(app, u);
    const r = await app.post(`/credit-notes/${creditNoteId}/send`, undefined, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ outcome: 'saved_not_delivered', detail: SEND_MESSAGES.savedNotDelivered });
    expect(r.json.credit_note.sends).toMatchObject([{ outcome: 'saved_not_delivered', detail: SEND_MESSAGES.savedNotDelivered }]);
    expect((await readOutbox(outbox)).filter((m) => m.mail.headers.get('x-entity-ref-id') === creditNoteId)).toHaveLength(1);
  });

  it('where mail leaves the server, an account whose email is not confirmed sends nothing and records nothing (the same guard as an invoice)', async () => {
    const u = await signUp(smtp, 'Aroha Tamihana', { confirmEmail: false });
    await smtp.deps.store.db.query('UPDATE users SET email_confirmed_at = created_at WHERE id = $1', [u.userId]);
    const { creditNoteId } = await creditedAndRefunded(smtp, u);
    await smtp.deps.store.db.query('UPDATE users SET email_confirmed_at = NULL WHERE id = $1', [u.userId]);
    const before = smtp.mailer.sent.length;
    const r = await smtp.post(`/credit-notes/${creditNoteId}/send`, undefined, u.token);
    expect(r.status).toBe(403);
    expect(r.json.code).toBe(EMAIL_UNCONFIRMED_CODE);
    expect(smtp.mailer.sent.length).toBe(before);
    expect((await smtp.get(`/credit-notes/${creditNoteId}`, u.token)).json.sends).toEqual([]);
  });
});
