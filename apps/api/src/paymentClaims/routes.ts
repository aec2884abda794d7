// Payment claims under the Construction Contracts Act 2002 (docs/cca-payment-claims.md), signed in
// and scoped to the account: the claim of an invoice, making a draft one a claim or not, the payer's
// payment schedule and retention released under /api/v1/invoices; a construction client's default
// under /api/v1/payment-claims/clients. Another account's invoice or client is 404.
import { clientPaymentClaimsSetting, paymentClaimInput, paymentClaimRecord, paymentScheduleInput, retentionReleaseInput } from '@tradie/contracts';
import { nzDateOf } from '@tradie/domain';
import { Hono } from 'hono';
import { actorOf, requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { accountClientId, loadDocument } from '../documents/repository.ts';
import { documentCommand, documentIdOf, readDocumentBody, reply } from '../documents/routes/http.ts';
import type { AppEnv } from '../http/env.ts';
import { describe } from '../openapi/describe.ts';
import { claimRecordFor, clearPaymentClaim, isConstructionClient, recordPaymentSchedule, releaseRetention, setConstructionClient, setPaymentClaim } from './commands.ts';

export const TAG = 'Payment claims';

/** Under /invoices, which is signed in once for all its parts (routes/index.ts). */
export function invoicePaymentClaimRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get(
    '/:id/payment-claim',
    describe({ tag: TAG, summary: "An invoice's payment claim: its dates, what is missing, the calculation, the payment schedule and retention (suggested details when it is not a claim)", response: { status: 200, schema: paymentClaimRecord }, errors: [404, 409] }),
    async (c) => {
      const loaded = await loadDocument(deps.store, c.get('accountId'), documentIdOf(c));
      return c.json(await claimRecordFor(deps.store, c.get('accountId'), loaded.state, loaded.version, nzDateOf(deps.clock.now())));
    },
  );

  r.put(
    '/:id/payment-claim',
    describe({ tag: TAG, summary: 'Make a draft invoice a payment claim under the Construction Contracts Act 2002, or change its details', body: paymentClaimInput, response: { status: 200, schema: paymentClaimRecord }, errors: [404, 409] }),
    async (c) => {
      const input = await readDocumentBody(c, paymentClaimInput);
      return reply(c, await setPaymentClaim(deps, actorOf(c), documentIdOf(c), input, input.version));
    },
  );

  r.delete(
    '/:id/payment-claim',
    describe({ tag: TAG, summary: 'A draft invoice is no longer a payment claim', response: { status: 200, schema: paymentClaimRecord }, errors: [404, 409] }),
    async (c) => reply(c, await clearPaymentClaim(deps, actorOf(c), documentIdOf(c))),
  );

  r.post(
    '/:id/payment-schedules',
    describe({ tag: TAG, summary: "Record the payer's payment schedule for a served claim (the latest recorded counts)", body: paymentScheduleInput, idempotent: true, response: { status: 201, schema: paymentClaimRecord }, errors: [404, 409] }),
    documentCommand(deps, paymentScheduleInput, recordPaymentSchedule),
  );

  r.post(
    '/:id/retention-releases',
    describe({ tag: TAG, summary: 'Record retention the payer released on a claim (at most what is held)', body: retentionReleaseInput, idempotent: true, response: { status: 201, schema: paymentClaimRecord }, errors: [404, 409] }),
    documentCommand(deps, retentionReleaseInput, releaseRetention),
  );
  return r;
}

/** Under /payment-claims: whether a client's new invoices start as payment claims. */
export function paymentClaimClientRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  const clientId = (accountId: string, id: string): Promise<string> => accountClientId(deps.store.db, accountId, id);

  r.get('/clients/:id', describe({ tag: TAG, summary: "Whether this client's new invoices start as payment claims", response: { status: 200, schema: clientPaymentClaimsSetting }, errors: [404] }), async (c) => {
    const id = await clientId(c.get('accountId'), c.req.param('id'));
    return c.json({ payment_claims: await isConstructionClient(deps.store.db, c.get('accountId'), id) });
  });

  r.put('/clients/:id', describe({ tag: TAG, summary: "Start this client's new invoices as payment claims (a construction client), or not", body: clientPaymentClaimsSetting, response: { status: 200, schema: clientPaymentClaimsSetting }, errors: [404] }), async (c) => {
    const { payment_claims } = await readDocumentBody(c, clientPaymentClaimsSetting);
    const accountId = c.get('accountId');
    await setConstructionClient(deps.store.db, accountId, await clientId(accountId, c.req.param('id')), payment_claims, deps.clock.now());
    return c.json({ payment_claims });
  });
  return r;
}
