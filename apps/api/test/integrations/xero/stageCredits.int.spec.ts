// A credit note made in Xero on a stage invoice (a deposit from an accepted quote) gives its share
// back to the quote as the tradie's own credit note does: Invoiced and Remaining follow, by the
// same step. Its own fake Xero: the account numbers its invoices from INV-0001, which another
// file's invoices in a shared organisation would already hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { pullFromXero } from '../../../src/integrations/xero/sync.ts';
import { command, connectedUser, makeDocument, sendCmd, startXeroApp, type User, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { paymentsAccountCode: '090' } });
});
afterAll(() => x?.close());

const stateOf = async (user: User, id: string) => (await loadDocument(x.t.deps.store, user.userId, id)).state;

describe('a credit note from Xero on a stage invoice', () => {
  it("gives its share back to the quote's Remaining as a credit note issued here does", async () => {
    const user = await connectedUser(x);
    // The quote is $465.75; a 20 % deposit $93.15, credited in full in Xero.
    const quote = await makeDocument(x.t, user, { type: 'quote' });
    expect((await x.t.post(`/invoices/${quote.id}/accept`, undefined, user.token)).status).toBe(200);
    const deposit = (await x.t.post(`/invoices/${quote.id}/stages`, { kind: 'deposit', percent: 20 }, user.token)).json;
    await command(x.t, user, deposit.id, sendCmd);
    expect((await x.t.post(`/integrations/xero/sync/${deposit.id}`, undefined, user.token)).status).toBe(200);
    const inv = x.fake.state.invoices.find((i) => i.Reference === deposit.reference)!;
    const stagesBefore = (await x.t.get(`/invoices/${quote.id}`, user.token)).json.stages;
    expect(stagesBefore.remaining).toBeLessThan(stagesBefore.quoted);

    x.fake.creditInXero(inv.InvoiceID, { amount: String(deposit.total.toFixed(2)), date: '2026-05-14' });
    expect((await pullFromXero(x.t.deps, user.userId, deposit.id)).credited).toHaveLength(1);
    const [note] = (await stateOf(user, deposit.id)).creditNotes;
    const stages = (await x.t.get(`/invoices/${quote.id}`, user.token)).json.stages;
    expect(stages).toMatchObject({ quoted: stagesBefore.quoted, invoiced: 0, remaining: stagesBefore.quoted });
    expect(stages.invoices).toEqual([expect.objectContaining({ id: deposit.id, total: deposit.total, credited: deposit.total })]);

    // The same as the tradie's own credit note of the same amount on a twin deposit.
    const twinQuote = await makeDocument(x.t, user, { type: 'quote' });
    expect((await x.t.post(`/invoices/${twinQuote.id}/accept`, undefined, user.token)).status).toBe(200);
    const twin = (await x.t.post(`/invoices/${twinQuote.id}/stages`, { kind: 'deposit', percent: 20 }, user.token)).json;
    await command(x.t, user, twin.id, sendCmd);
    expect((await x.t.post(`/invoices/${twin.id}/credit-notes`, { amount: deposit.total, reason: 'Deposit returned' }, user.token)).status).toBe(201);
    const twinStages = (await x.t.get(`/invoices/${twinQuote.id}`, user.token)).json.stages;
    expect({ invoiced: stages.invoiced, remaining: stages.remaining, credited: stages.invoices[0].credited }).toEqual({ invoiced: twinStages.invoiced, remaining: twinStages.remaining, credited: twinStages.invoices[0].credited });
    expect(note?.total).toBe((await stateOf(user, twin.id)).creditNotes[0]?.total);
  });
});
