// GET/PUT /setup through the HTTP app on PGlite: a new account starts the first-run set-up at its
// first step, the step reached is kept on the server (resumable), skipping and finishing are
// remembered, the trade and default payment terms are checked and saved, the default terms reach a
// document without a client, and each account's set-up is its own.
import { SETUP_MESSAGES } from '@tradie/contracts';
import { describe, expect, it } from 'vitest';
import { setupMigrations } from '../../src/setup/migrations.ts';
import { line } from '../documents/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';

describe('the first-run set-up', () => {
  const t = useTestApp();

  it('starts a new account at the first step, and carries on from the step reached', async () => {
    const { token } = await signUp(t);
    expect((await t.get('/setup', token)).json).toEqual({ step: 'business', finished: null, trade: '', default_payment_terms: '7 days' });
    const r = await t.put('/setup', { step: 'bank' }, token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ step: 'bank', finished: null });
    // Another device, later: the same step.
    expect((await t.get('/setup', token)).json.step).toBe('bank');
    expect((await t.put('/setup', { finished: 'skipped' }, token)).json).toMatchObject({ step: 'bank', finished: 'skipped' });
    expect((await t.put('/setup', { finished: null }, token)).json).toMatchObject({ step: 'bank', finished: null });
    expect((await t.put('/setup', { step: 'trade', finished: 'done' }, token)).json).toMatchObject({ step: 'trade', finished: 'done' });
  });

  it('saves the trade and the default payment terms, refusing anything else and writing nothing', async () => {
    const { token } = await signUp(t);
    const bad = await t.put('/setup', { trade: 'astronaut', step: 'trade' }, token);
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBe(SETUP_MESSAGES.trade);
    expect((await t.put('/setup', { default_payment_terms: '0 days' }, token)).json.detail).toBe(SETUP_MESSAGES.terms);
    expect((await t.get('/setup', token)).json).toEqual({ step: 'business', finished: null, trade: '', default_payment_terms: '7 days' });
    expect((await t.put('/setup', { trade: 'plumber', default_payment_terms: '14 days' }, token)).json).toMatchObject({ trade: 'plumber', default_payment_terms: '14 days' });
  });

  it("gives a document without a client the business's default payment terms", async () => {
    const { token } = await signUp(t);
    await t.put('/setup', { default_payment_terms: '14 days' }, token);
    const r = await t.post('/invoices', { type: 'invoice', client_id: null, line_items: [line('Call-out', 1, 95)] }, token);
    expect(r.status).toBe(201);
    expect(r.json.payment_terms).toBe('14 days');
  });

  it('counts as done for an account made before the set-up existed (its migration), not for one that saved settings since; each account has its own', async () => {
    const a = await signUp(t);
    // The migration's statement that marks the accounts there when it runs.
    await t.deps.store.db.query(setupMigrations[0]!.sql.split(';').find((q) => q.includes('INSERT INTO business_setup'))!);
    const b = await signUp(t);
    expect((await t.put('/business-settings', { business_name: 'New Hand Plumbing' }, b.token)).status).toBe(200);
    expect((await t.get('/setup', b.token)).json.finished).toBeNull();
    expect((await t.get('/setup', a.token)).json.finished).toBe('done');
    await t.put('/setup', { step: 'logo', trade: 'electrician' }, b.token);
    expect((await t.get('/setup', b.token)).json).toMatchObject({ step: 'logo', trade: 'electrician' });
    expect((await t.get('/setup', a.token)).json).toMatchObject({ step: 'business', trade: '' });
    expect((await t.get('/setup')).status).toBe(401);
  });
});
