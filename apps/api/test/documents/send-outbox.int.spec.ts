// POST /invoices/{id}/send with no mail server set up (no SMTP_URL): the real outbox mailer keeps
// the email on this server and nobody receives it. The answer and the document say so — 'Saved to
// the outbox — email is not set up on this server', outcome 'saved_not_delivered' — and nothing is
// marked sent: the status, the list, the reports and the Xero "sent" flag all stay as they were.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEND_MESSAGES } from '@tradie/contracts';
import { documentStreamId } from '@tradie/domain';
import { addressesOf, readOutbox } from '@tradie/testkit/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxMailer } from '../../src/mail/index.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';
import { addClient, eventTypes, line } from './support.ts';

let t: TestApp;
const outbox = join(mkdtempSync(join(tmpdir(), 'send-outbox-')), 'outbox');
const clock = new TestClock();

beforeAll(async () => {
  t = await createTestApp({ clock, overrides: { mailer: createOutboxMailer({ dir: outbox, now: () => clock.now() }) } });
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signUp>>;

async function documentFor(u: User, type: 'invoice' | 'quote', email: string) {
  const client_id = await addClient(t, u.userId, { name: 'Hēmi Walker', email });
  const r = await t.post('/invoices', { type, client_id, line_items: [line('Heat pump install', 1, 2400)] }, u.token);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.json as { id: string; reference: string };
}

describe('POST /invoices/{id}/send with no mail server (the outbox)', () => {
  it("answers 'Saved to the outbox', records 'saved, not delivered', and the invoice stays a draft everywhere", async () => {
    const u = await signUp(t);
    const inv = await documentFor(u, 'invoice', 'hemi@example.nz');
    const r = await t.post(`/invoices/${inv.id}/send`, undefined, u.token, { 'Idempotency-Key': 'outbox-1' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: inv.id, status: 'draft', to: ['hemi@example.nz'], outcome: 'saved_not_delivered', detail: 'Saved to the outbox — email is not set up on this server',
      sent_at: '2026-05-04T21:30:00.000Z',
    });
    expect(r.json.detail).toBe(SEND_MESSAGES.savedNotDelivered);

    // The email is in the outbox, as it would have gone.
    const kept = (await readOutbox(outbox)).filter((m) => m.mail.headers.get('x-entity-ref-id') === inv.id);
    expect(kept).toHaveLength(1);
    expect(addressesOf(kept[0]!.mail.to)).toEqual(['hemi@example.nz']);

    // Recorded as not delivered; never DocumentSent.
    expect(await eventTypes(t, documentStreamId(inv.id))).toEqual(['DocumentDrafted', 'ClientLinkIssued', 'DocumentSendNotDelivered', 'PdfGenerated']);
    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(detail).toMatchObject({ status: 'draft', status_label: 'Draft', issued_on: null });
    expect(detail.sends).toEqual([]);
    expect(detail.send_attempts).toEqual([
      { to: ['hemi@example.nz'], cc: [], bcc: [], subject: 'Invoice from Aroha Tamihana', at: '2026-05-04T21:30:00.000Z', outcome: 'saved_not_delivered', detail: SEND_MESSAGES.savedNotDelivered },
    ]);
    expect((await t.get('/invoices', u.token)).json.find((d: { id: string }) => d.id === inv.id).status).toBe('draft');
    // Not issued, so in no report.
    const gst = (await t.get('/reports/gst?start_date=2026-04-01&end_date=2026-06-30', u.token)).json;
    expect(gst.invoice_count).toBe(0);

    // The same key replays the same answer and keeps nothing more.
    const again = await t.post(`/invoices/${inv.id}/send`, undefined, u.token, { 'Idempotency-Key': 'outbox-1' });
    expect(again.json).toEqual(r.json);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');

    // Still a draft: it can be changed, and deleted (nobody has seen it).
    expect((await t.put(`/invoices/${inv.id}`, { line_items: [line('Heat pump install', 1, 2500)] }, u.token)).status).toBe(200);
    expect((await t.del(`/invoices/${inv.id}`, u.token)).status).toBeLessThan(300);
    expect((await eventTypes(t, documentStreamId(inv.id))).at(-1)).toBe('DocumentDeleted');
  });

  it('a quote stays a draft too, and an invoice already issued stays issued', async () => {
    const u = await signUp(t);
    const quote = await documentFor(u, 'quote', 'ana@example.nz');
    const q = await t.post(`/invoices/${quote.id}/send`, undefined, u.token);
    expect(q.json).toMatchObject({ status: 'draft', outcome: 'saved_not_delivered' });
    expect((await t.get(`/invoices/${quote.id}`, u.token)).json.status).toBe('draft');

    const inv = await documentFor(u, 'invoice', 'tui@example.nz');
    expect((await t.post(`/invoices/${inv.id}/issue`, undefined, u.token)).status).toBe(200);
    const s = await t.post(`/invoices/${inv.id}/send`, undefined, u.token);
    expect(s.json).toMatchObject({ status: 'issued', outcome: 'saved_not_delivered' });
    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(detail.status).toBe('issued');
    expect(detail.sends).toEqual([]);
    expect(detail.send_attempts.map((x: { outcome: string }) => x.outcome)).toEqual(['saved_not_delivered']);
  });
});
