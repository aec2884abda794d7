// POST /invoices/{id}/send through the SMTP mailer to a real SMTP server on loopback: recipients
// (To, CC, BCC in the envelope), the subject and message with their placeholders filled in, the
// PDF attached; 503 with nothing marked sent when the server is down; a refused recipient recorded
// as a failed send with the server's answer, nothing marked sent; one email per Idempotency-Key.
// (Without a mail server, the outbox: send-outbox.int.spec.ts.)
import { createServer, type AddressInfo } from 'node:net';
import { documentStreamId } from '@tradie/domain';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@tradie/testkit/smtp-sink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer, type Mailer, type OutgoingMail } from '../../src/mail/index.ts';
import { addressing } from '../mail/support.ts';
import { refusal } from '../support/refusal.ts';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { addClient, eventTypes, line, pdfText, setSettings } from './support.ts';

let t: TestApp;
let sink: SmtpSink;
let rejectingSink: SmtpSink;
let deadUrl: string;

/**
 * The app's mailer: the SMTP adapter, pointed at the sink. Tests may point it at a port where
 * nothing listens (server down), at a sink that refuses a recipient, or hold a send at a gate.
 */
const route: { url: string; gate: Promise<void> | null; entered: (() => void) | null } = { url: '', gate: null, entered: null };
const mailers = new Map<string, Mailer>();
const smtpFor = (url: string): Mailer => {
  let m = mailers.get(url);
  if (!m) mailers.set(url, (m = createSmtpMailer({ url, connectionTimeout: 2_000, greetingTimeout: 2_000 })));
  return m;
};
const mailer: Mailer = {
  kind: 'smtp',
  async send(mail: OutgoingMail) {
    route.entered?.();
    if (route.gate) await route.gate;
    return smtpFor(route.url).send(mail);
  },
  async close() {
    for (const m of mailers.values()) await m.close();
  },
};

/** Runs `call` with the mailer pointed at `url`, and back at the sink after. */
async function through<T>(url: string, call: () => Promise<T>): Promise<T> {
  route.url = url;
  try {
    return await call();
  } finally {
    route.url = sink.url;
  }
}

beforeAll(async () => {
  sink = await startSmtpSink();
  rejectingSink = await startSmtpSink({ rejectRecipients: ['gone@example.nz'] });
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadUrl = `smtp://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  route.url = sink.url;
  t = await createTestApp({ overrides: { mailer }, env: { MAIL_FROM: 'invoices@mail.tradie.test' } });
});
afterAll(async () => {
  await t.close();
  await mailer.close();
  await sink.stop();
  await rejectingSink.stop();
});

type User = Awaited<ReturnType<typeof signUp>>;

async function invoiceFor(u: User, client: Record<string, string> | null, body: Record<string, unknown> = {}) {
  const client_id = client ? await addClient(t, u.userId, { name: client.name ?? 'Client', ...client }) : null;
  const r = await t.post('/invoices', { type: 'invoice', client_id, line_items: [line('Heat pump install', 1, 2400)], ...body }, u.token);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.json as { id: string; reference: string; formatted: { total: string } };
}

const byDocument = (id: string) => (m: SinkMessage) => m.mail.headers.get('x-entity-ref-id') === id;
const sentTo = (id: string): SinkMessage[] => sink.messages.filter(byDocument(id));

describe('POST /invoices/{id}/send', () => {
  it('emails the client with CC/BCC from settings, filled-in placeholders, Reply-To and the PDF; the invoice is sent', async () => {
    const u = await signUp(t, 'Aroha Tamihana');
    await setSettings(t, u.userId, {
      business_name: 'Tāmaki Sparky', email: 'office@tamakisparky.nz', cc_email: 'books@tamakisparky.nz', bcc_email: 'archive@tamakisparky.nz', gst_number: '49-091-850',
    });
    const inv = await invoiceFor(u, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
    const r = await t.post(`/invoices/${inv.id}/send`, undefined, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      id: inv.id, status: 'sent', to: ['hemi@example.nz'], cc: ['books@tamakisparky.nz'], bcc: ['archive@tamakisparky.nz'],
      subject: 'Invoice from Tāmaki Sparky', message_id: expect.stringMatching(/^<.+>$/), sent_at: '2026-05-04T21:30:00.000Z',
      outcome: 'delivered', detail: null, gst_notice: null,
    });

    const got = await sink.waitFor(byDocument(inv.id));
    expect(addressing(got)).toEqual({
      mailFrom: 'invoices@mail.tradie.test', rcptTo: ['archive@tamakisparky.nz', 'books@tamakisparky.nz', 'hemi@example.nz'],
      to: ['hemi@example.nz'], cc: ['books@tamakisparky.nz'], replyTo: ['office@tamakisparky.nz'], bccHeader: false,
    });
    expect(got.mail.from?.text).toContain('Tāmaki Sparky via Tradie Quotes');
    expect(got.mail.subject).toBe('Invoice from Tāmaki Sparky');
    expect(got.mail.text).toContain('Hi Hēmi Walker,');
    expect(got.mail.text).toContain('Please find attached invoice INV-0001.');
    expect(got.mail.text).toContain('Kind regards,\nAroha Tamihana');
    expect(got.mail.text).not.toMatch(/\[(Business Name|Invoice Number|Client Name|Your Name)\]/);

    expect(got.mail.attachments).toHaveLength(1);
    const pdf = got.mail.attachments[0]!;
    expect(pdf.filename).toBe('INV-0001.pdf');
    expect(pdf.contentType).toBe('application/pdf');
    const text = pdfText(pdf.content);
    expect(text).toContain('Tax Invoice');
    expect(text).toContain('INV-0001');
    expect(text).toContain(inv.formatted.total);

    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(detail.status).toBe('sent');
    const delivered = { to: ['hemi@example.nz'], cc: ['books@tamakisparky.nz'], bcc: ['archive@tamakisparky.nz'], subject: 'Invoice from Tāmaki Sparky', at: '2026-05-04T21:30:00.000Z' };
    expect(detail.sends).toEqual([delivered]);
    expect(detail.send_attempts).toEqual([{ ...delivered, outcome: 'delivered', detail: null }]);
    expect(await eventTypes(t, documentStreamId(inv.id))).toEqual(['DocumentDrafted', 'ClientLinkIssued', 'DocumentSent', 'PdfGenerated']);
    expect((await t.get('/invoices', u.token)).json[0].status).toBe('sent');
  });

  it('the preview is what a send with no changes sends (to, cc, bcc, subject, message); an edited To, subject and message go as edited; another account gets 404', async () => {
    const u = await signUp(t, 'Aroha Tamihana');
    await setSettings(t, u.userId, { business_name: 'Tāmaki Sparky', cc_email: 'books@tamakisparky.nz', bcc_email: 'archive@tamakisparky.nz', gst_number: '49-091-850' });
    const inv = await invoiceFor(u, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
    const preview = await t.get(`/invoices/${inv.id}/send-preview`, u.token);
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({ to: ['hemi@example.nz'], cc: ['books@tamakisparky.nz'], bcc: ['archive@tamakisparky.nz'], subject: 'Invoice from Tāmaki Sparky' });
    expect(preview.json.message).toContain('Hi Hēmi Walker,');
    expect(preview.json.message).not.toMatch(/\[(Business Name|Invoice Number|Client Name|Your Name)\]/);
    expect(preview.json.after).toMatch(/^Below your message: the job, a link for the client to view and pay the invoice online/);
    // The figure shown in two places: the send with no changes sends exactly what the preview said.
    const sent = await t.post(`/invoices/${inv.id}/send`, undefined, u.token);
    expect(sent.json).toMatchObject({ to: preview.json.to, cc: preview.json.cc, bcc: preview.json.bcc, subject: preview.json.subject });
    const got = await sink.waitFor(byDocument(inv.id));
    expect(got.mail.text?.startsWith(preview.json.message)).toBe(true);

    // Edited on the sheet: the tradie's To, subject and message go as they typed them.
    const other = await invoiceFor(u, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
    const edited = await t.post(`/invoices/${other.id}/send`, { to: ['accounts@walker.nz'], cc: [], subject: 'Your heat pump invoice', message: 'Kia ora Hēmi, thanks for having us.' }, u.token);
    expect(edited.status).toBe(200);
    const mail = await sink.waitFor(byDocument(other.id));
    expect([mail.mail.subject, addressing(mail).to, mail.mail.text?.startsWith('Kia ora Hēmi, thanks for having us.')]).toEqual(['Your heat pump invoice', ['accounts@walker.nz'], true]);

    const stranger = await signUp(t, 'Someone Else');
    expect((await t.get(`/invoices/${inv.id}/send-preview`, stranger.token)).status).toBe(404);
  });

  it("ends the email with how to reach the business (name, phone, email, address), as the PDF prints them", async () => {
    const u = await signUp(t, 'Aroha Tamihana');
    await setSettings(t, u.userId, {
      business_name: 'Tāmaki Sparky', phone: '021 555 0199', email: 'office@tamakisparky.nz', address: '12 Rātā Street', city: 'Whangārei', postcode: '0110', gst_number: '49-091-850',
    });
    const inv = await invoiceFor(u, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
    expect((await t.post(`/invoices/${inv.id}/send`, undefined, u.token)).status).toBe(200);
    const got = await sink.waitFor(byDocument(inv.id));
    expect(got.mail.text?.trimEnd()).toMatch(/\n\n--\nTāmaki Sparky\nPhone 021 555 0199 · office@tamakisparky\.nz\n12 Rātā Street, Whangārei, 0110$/);
    const text = pdfText(got.mail.attachments[0]!.content).replace(/\s+/g, ' ');
    for (const shown of ['021 555 0199', 'office@tamakisparky.nz', '12 Rātā Street', 'Whangārei 0110']) expect(text).toContain(shown);
  });

  it("falls back to the user's name for [Business Name] and their login email for Reply-To; custom wording is filled in too", async () => {
    const u = await signUp(t, 'Wiremu Pere');
    await setSettings(t, u.userId, {
      default_email_subject: '[Invoice Number] from [Business Name] for [Client Name]',
      default_email_message: 'Kia ora [Client Name], [Invoice Number] is attached. [Your Name] ([Business Name])',
    });
    const inv = await invoiceFor(u, { name: 'Mere', email: 'mere@example.nz' });
    expect((await t.post(`/invoices/${inv.id}/send`, undefined, u.token)).status).toBe(200);
    const got = await sink.waitFor(byDocument(inv.id));
    expect(got.mail.subject).toBe('INV-0001 from Wiremu Pere for Mere');
    expect(got.mail.text?.trim()).toMatch(/^Kia ora Mere, INV-0001 is attached\. Wiremu Pere \(Wiremu Pere\)\n\nView and pay your invoice online: http:\/\/app\.test\/i\/[\w-]{32}$/);
    expect(addressing(got)).toMatchObject({ replyTo: [u.email], rcptTo: ['mere@example.nz'] }); // no CC/BCC in settings
  });

  it('a quote with the default wording says quote', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { business_name: 'Kōwhai Builders' });
    const quote = await invoiceFor(u, { name: 'Ana', email: 'ana@example.nz' }, { type: 'quote' });
    expect((await t.post(`/invoices/${quote.id}/send`, undefined, u.token)).json.subject).toBe('Quote from Kōwhai Builders');
    const got = await sink.waitFor(byDocument(quote.id));
    expect(got.mail.text).toContain('Please find attached quote QTE-0001.');
    expect(got.mail.attachments[0]?.filename).toBe('QTE-0001.pdf');
    expect((await t.get(`/invoices/${quote.id}`, u.token)).json.status).toBe('sent');
  });

  it('takes the recipients, subject and message from the request when given, and checks the addresses', async () => {
    const u = await signUp(t);
    await setSettings(t, u.userId, { cc_email: 'books@example.nz' });
    const inv = await invoiceFor(u, { name: 'Tui', email: 'tui@example.nz' });
    const bad = await t.post(`/invoices/${inv.id}/send`, { to: ['not-an-address'] }, u.token);
    expect(refusal(bad)).toEqual({ status: 422, detail: "To: 'not-an-address' is not a valid email address" });
    expect(sentTo(inv.id)).toHaveLength(0);
    const r = await t.post(`/invoices/${inv.id}/send`, { to: 'accounts@tui.nz, tui@example.nz', cc: [], bcc: ['me@example.nz'], subject: 'Your invoice [Invoice Number]', message: 'Thanks [Client Name]!' }, u.token);
    expect(r.status).toBe(200);
    const got = await sink.waitFor(byDocument(inv.id));
    expect(addressing(got).rcptTo).toEqual(['accounts@tui.nz', 'me@example.nz', 'tui@example.nz']);
    expect(got.mail.subject).toBe('Your invoice INV-0001');
    expect(got.mail.text?.trim()).toMatch(/^Thanks Tui!\n\nView and pay your invoice online: http:\/\/app\.test\/i\/[\w-]{32}$/);
  });

  it('refuses a client without an email (422) and a void invoice (409), sending nothing', async () => {
    const u = await signUp(t);
    const noEmail = await invoiceFor(u, { name: 'No Email' });
    const r = await t.post(`/invoices/${noEmail.id}/send`, undefined, u.token);
    expect(refusal(r)).toEqual({ status: 422, detail: 'This client has no email address. Add one to the client, then send.' });
    const noClient = await invoiceFor(u, null);
    expect((await t.post(`/invoices/${noClient.id}/send`, {}, u.token)).json.detail).toBe('This client has no email address. Add one to the client, then send.');
    const voided = await invoiceFor(u, { name: 'V', email: 'v@example.nz' });
    await t.post(`/invoices/${voided.id}/void`, undefined, u.token);
    const v = await t.post(`/invoices/${voided.id}/send`, undefined, u.token);
    expect(refusal(v)).toEqual({ status: 409, detail: 'This invoice is void.' });
    for (const id of [noEmail.id, noClient.id]) expect(await eventTypes(t, documentStreamId(id))).toEqual(['DocumentDrafted']);
    expect(sentTo(noEmail.id).length + sentTo(noClient.id).length + sentTo(voided.id).length).toBe(0);
  });

  it('answers 503 when the mail server is down and marks nothing sent; the same Idempotency-Key can try again', async () => {
    const u = await signUp(t);
    const inv = await invoiceFor(u, { name: 'Down', email: 'down@example.nz' });
    const headers = { 'Idempotency-Key': 'send-down' };
    const r = await through(deadUrl, () => t.post(`/invoices/${inv.id}/send`, undefined, u.token, headers));
    expect(refusal(r)).toEqual({ status: 503, detail: "We couldn't send the email right now. Please try again in a few minutes." });
    expect(r.headers.get('Retry-After')).toBe('60');
    expect(await eventTypes(t, documentStreamId(inv.id))).toEqual(['DocumentDrafted']);
    expect((await t.get(`/invoices/${inv.id}`, u.token)).json).toMatchObject({ status: 'draft', sends: [] });

    const retry = await t.post(`/invoices/${inv.id}/send`, undefined, u.token, headers);
    expect(retry.status).toBe(200);
    expect(sentTo(inv.id)).toHaveLength(1);
  });

  it("answers 422 when the server refuses the recipient, records the failure with the server's answer, and marks nothing sent", async () => {
    const u = await signUp(t);
    const inv = await invoiceFor(u, { name: 'Gone', email: 'gone@example.nz' });
    const headers = { 'Idempotency-Key': 'send-gone' };
    const r = await through(rejectingSink.url, () => t.post(`/invoices/${inv.id}/send`, undefined, u.token, headers));
    expect(refusal(r)).toEqual({ status: 422, detail: 'The mail server refused gone@example.nz. Please check the email address and try again.' });
    expect(await eventTypes(t, documentStreamId(inv.id))).toEqual(['DocumentDrafted', 'DocumentSendNotDelivered']);
    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(detail).toMatchObject({ status: 'draft', issued_on: null });
    expect(detail.sends).toEqual([]);
    expect(detail.send_attempts).toEqual([
      {
        to: ['gone@example.nz'], cc: [], bcc: [], subject: 'Invoice from Aroha Tamihana', at: '2026-05-04T21:30:00.000Z', outcome: 'failed',
        detail: expect.stringMatching(/^The mail server refused it: 550 .*gone@example\.nz.*Recipient address rejected: User unknown/),
      },
    ]);
    const listed = (await t.get('/invoices', u.token)).json.find((d: { id: string }) => d.id === inv.id);
    expect(listed.status).toBe('draft');
    // Nobody got it.
    expect(rejectingSink.messages.filter(byDocument(inv.id))).toHaveLength(0);

    // Try again once the address is fixed: the same key is free again (nothing went), and this one is delivered.
    const retry = await t.post(`/invoices/${inv.id}/send`, { to: ['found@example.nz'] }, u.token, { 'Idempotency-Key': 'send-found' });
    expect(retry.status).toBe(200);
    expect(retry.json).toMatchObject({ status: 'sent', outcome: 'delivered', detail: null });
    const after = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(after.status).toBe('sent');
    expect(after.sends).toHaveLength(1);
    expect(after.send_attempts.map((s: { outcome: string }) => s.outcome)).toEqual(['failed', 'delivered']);
  });

  it('a Cc the server refuses did not get it: the send is recorded for the others, the refusal apart, and the home screen lists it', async () => {
    const u = await signUp(t);
    const inv = await invoiceFor(u, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
    const r = await through(rejectingSink.url, () => t.post(`/invoices/${inv.id}/send`, { cc: ['gone@example.nz'] }, u.token));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'sent', outcome: 'delivered', to: ['hemi@example.nz'], cc: [] });
    expect(r.json.detail).toMatch(/^Sent, but not to gone@example\.nz: 550 /);
    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(detail.sends).toEqual([expect.objectContaining({ to: ['hemi@example.nz'], cc: [] })]);
    expect(detail.send_attempts.map((a: { outcome: string; cc: string[] }) => [a.outcome, a.cc])).toEqual([['delivered', []], ['failed', ['gone@example.nz']]]);
    const failures = (await t.get('/mail/failures', u.token)).json.items;
    expect(failures).toEqual([expect.objectContaining({ kind: 'document', reference: inv.reference, recipient: 'gone@example.nz', text: expect.stringMatching(new RegExp(`^${inv.reference} to gone@example.nz failed: 550 `)) })]);
  });

  it('one Idempotency-Key sends one email: 409 while the first is on its way, the stored answer after', async () => {
    const u = await signUp(t);
    const inv = await invoiceFor(u, { name: 'Tap', email: 'tap@example.nz' });
    const headers = { 'Idempotency-Key': 'send-tap' };
    let release!: () => void;
    route.gate = new Promise<void>((resolve) => (release = resolve));
    const entered = new Promise<void>((resolve) => (route.entered = resolve));
    const first = t.post(`/invoices/${inv.id}/send`, undefined, u.token, headers);
    try {
      await entered; // the first request is at the mailer
      const second = await t.post(`/invoices/${inv.id}/send`, undefined, u.token, headers);
      expect(refusal(second)).toEqual({ status: 409, detail: 'This is already being sent. Please wait a moment and reload.' });
    } finally {
      route.gate = null;
      route.entered = null;
      release();
    }
    const a = await first;
    expect(a.status).toBe(200);
    const b = await t.post(`/invoices/${inv.id}/send`, undefined, u.token, headers);
    expect(b.status).toBe(200);
    expect(b.json).toEqual(a.json);
    expect(b.headers.get('Idempotent-Replayed')).toBe('true');
    await sink.waitFor(byDocument(inv.id));
    expect(sentTo(inv.id)).toHaveLength(1);
    expect((await t.get(`/invoices/${inv.id}`, u.token)).json.sends).toHaveLength(1);
    // Without a key a second tap is a second, deliberate send.
    expect((await t.post(`/invoices/${inv.id}/send`, undefined, u.token)).status).toBe(200);
    expect((await t.get(`/invoices/${inv.id}`, u.token)).json.sends).toHaveLength(2);
  });
});
