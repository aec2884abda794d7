// Before a reminder goes, Xero's word on money is read back: a client who paid by bank transfer
// reconciled in Xero gets no reminder, while one who did not pay still does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { scheduleReminders } from '../../../src/reminders/scheduler.ts';
import { sendDueReminders } from '../../../src/reminders/sender.ts';
import { emailedInvoice, remindersOf } from '../../reminders/support.ts';
import { connectedUser, startXeroApp, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
beforeAll(async () => {
  // The clock starts on Tuesday 5 May 2026, 09:30 NZST: an invoice on 7-day terms is due Tuesday 12 May.
  x = await startXeroApp({ mailKind: 'smtp' });
});
afterAll(() => x?.close());
const DUE_0800 = '2026-05-11T20:00:00.000Z';

describe('reminders of invoices synced to Xero', () => {
  it('an invoice paid in Xero since it was planned gets no reminder and shows the payment; an unpaid one is reminded', async () => {
    const user = await connectedUser(x);
    const paid = await emailedInvoice(x.t, user);
    const unpaid = await emailedInvoice(x.t, user, { clientName: 'Mere Tane', email: 'mere@example.nz' });
    for (const d of [paid, unpaid]) expect((await x.t.post(`/integrations/xero/sync/${d.id}`, undefined, user.token)).status).toBe(200);
    const inv = x.fake.state.invoices.find((i) => i.Reference === paid.reference)!;

    x.clock.set(DUE_0800);
    await scheduleReminders(x.t.deps);
    // Reconciled in Xero after the reminder was planned, before it goes; no webhook came.
    const there = x.fake.payInXero(inv.InvoiceID, { amount: '230.00', date: '2026-05-11', reference: 'ASB WALKER' });
    expect(await sendDueReminders(x.t.deps)).toMatchObject({ sent: 1 });

    expect(remindersOf(x.t, paid.id)).toEqual([]);
    expect(remindersOf(x.t, unpaid.id)).toHaveLength(1);
    const payments = (await loadDocument(x.t.deps.store, user.userId, paid.id)).state.payments;
    expect(payments.map((p) => [p.amount, p.date, p.source?.externalId])).toEqual([['230.00', '2026-05-11', there.PaymentID]]);
  });
});
