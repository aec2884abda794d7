// Two API processes on one PostgreSQL database, one fake Xero: a credit note made in Xero on a
// stage invoice, read by both processes at once, is recorded once and gives its share back to the
// quote once (one StageCredited), as the tradie's own credit note does.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { pullFromXero } from '../../../src/integrations/xero/sync.ts';
import { command, connectedUser, makeDocument, sendCmd, type XeroTestApp } from './support.ts';
import { twoProcesses } from './twoProcesses.ts';

const apps = twoProcesses('xero_stage_credit');


describe('two API processes, one database', () => {
  it('a credit from Xero on a deposit, read by both at once, is given back to the quote once', async () => {
    const user = await connectedUser(apps.one);
    // The quote is $465.75; a 20 % deposit $93.15, credited in full in Xero.
    const quote = await makeDocument(apps.one.t, user, { type: 'quote' });
    expect((await apps.one.t.post(`/invoices/${quote.id}/accept`, undefined, user.token)).status).toBe(200);
    const deposit = (await apps.one.t.post(`/invoices/${quote.id}/stages`, { kind: 'deposit', percent: 20 }, user.token)).json;
    await command(apps.one.t, user, deposit.id, sendCmd);
    expect((await apps.one.t.post(`/integrations/xero/sync/${deposit.id}`, undefined, user.token)).status).toBe(200);
    const inv = apps.fake.state.invoices.find((i) => i.Reference === deposit.reference)!;
    apps.fake.creditInXero(inv.InvoiceID, { amount: '93.15', date: '2026-05-14' });

    // One of the two may find the other holding the invoice (409 busy): it is tried again later.
    const pulls = await Promise.allSettled([pullFromXero(apps.one.t.deps, user.userId, deposit.id), pullFromXero(apps.two.t.deps, user.userId, deposit.id)]);
    expect(pulls.some((p) => p.status === 'fulfilled' && p.value.credited.length === 1)).toBe(true);
    expect((await pullFromXero(apps.two.t.deps, user.userId, deposit.id)).credited).toEqual([]);

    expect((await loadDocument(apps.two.t.deps.store, user.userId, deposit.id)).state.creditNotes).toHaveLength(1);
    const stagesAt = async (x: XeroTestApp) => (await x.t.get(`/invoices/${quote.id}`, user.token)).json.stages;
    expect(await stagesAt(apps.two)).toMatchObject({ quoted: 465.75, invoiced: 0, remaining: 465.75, invoices: [{ id: deposit.id, total: 93.15, credited: 93.15 }] });
    const quoteEvents = (await apps.one.t.deps.store.readStream(`document-${quote.id}`)).events.map((e) => e.type);
    expect(quoteEvents.filter((t) => t === 'StageCredited')).toHaveLength(1);
  });
});
