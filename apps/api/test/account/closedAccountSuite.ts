// A deleted business does no more business, shared by the PGlite (*.int.spec.ts) and PostgreSQL
// (*.pg.spec.ts) runs. A business with everything open — a quote and an invoice out with their
// links, an accepted quote with a variation waiting for the client's approval, a credit note on the
// client's invoice page, a client who had pressed Pay now, card payments and Xero connected,
// reminders queued, a Xero Connect half done, a signed logo and a download link, reset,
// confirmation, email-change and 'This wasn't me' links in its inbox, a session — deletes its
// account. Then, as an attacker would:
//   - every door without a sign-in, listed from the routes' own descriptions (describe(), the
//     list the OpenAPI document and the fuzz are made from, so a new public route fails here until
//     it is probed), is tried with what the business or its client held before the deletion: none
//     answers for it, and none changes a row that names it;
//   - every signed-in route refuses the session it had;
//   - every job kind of the outbox's registry (REACTIONS), the reminder schedule and the reminder
//     sender, the Xero poll and the repeating expenses' run (the timers main.ts starts, read from its source) are run for it: only the reactions
//     that wind it down run, nothing reaches Stripe, Xero or a mailbox; the one door for mail on an
//     account's behalf refuses it whoever asks.
// Another business, still trading, is answered as before at the same doors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCOUNT_CLOSED, CLIENT_LINK_MESSAGES } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountOwnedTables } from '../../src/account/purge.ts';
import { sendForAccount } from '../../src/documents/sendGuard.ts';
import type { Operation } from '../../src/openapi/describe.ts';
import { NOT_RUN_CLOSED, outboxProcessor } from '../../src/reactions/outbox.ts';
import { REACTIONS, type Reaction, type ReactionDeps } from '../../src/reactions/registry.ts';
import { makeDueRecurringCosts } from '../../src/costs/recurring.ts';
import { pollXero } from '../../src/integrations/xero/poll.ts';
import { scheduleReminders } from '../../src/reminders/scheduler.ts';
import { sendDueReminders } from '../../src/reminders/sender.ts';
import { PNG } from '../billing/support.ts';
import { freshIp } from '../clientLinks/support.ts';
import { line } from '../documents/support.ts';
import {
  connectXero, eventCount, fillPath, idsOf, makeFixtures, operations, opKey, paramKind, pathParams, startReliabilityApp, type Fixtures, type ReliabilityApp,
} from '../reliability/support.ts';
import type { TestApp } from '../support/testApp.ts';

const BUSINESS = 'Tamihana Electrical';
const CLIENT = 'Kōwhai Builders';

async function must(r: { status: number; text: string }, what: string, status = 200): Promise<void> {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
}

const tokenOf = (url: string): string => url.split('/').at(-1)!;

/**
 * Every row that names the account (each table with an account_id or user_id column, the users
 * row), as one comparable value per table: how many, and a digest of their text. A row inserted,
 * changed or deleted changes it.
 */
async function accountRows(t: TestApp, accountId: string): Promise<Record<string, string>> {
  const db = t.deps.store.db;
  const out: Record<string, string> = {};
  for (const { table, column } of await accountOwnedTables(db)) {
    const [row] = await db.query<{ n: number; h: string | null }>(`SELECT count(*)::int AS n, md5(string_agg(x::text, '|' ORDER BY x::text)) AS h FROM "${table}" x WHERE "${column}" = $1`, [accountId]);
    out[`${table}.${column}`] = `${Number(row?.n ?? 0)} ${row?.h ?? ''}`;
  }
  const [user] = await db.query<{ h: string | null }>('SELECT md5(u::text) AS h FROM users u WHERE id = $1', [accountId]);
  out.users = user?.h ?? '';
  return out;
}

/** The tables (as 'table.column') whose rows of the account differ, leaving out `allowed`. */
const changed = (before: Record<string, string>, after: Record<string, string>, allowed: readonly string[] = []): string[] =>
  Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k] && !allowed.some((a) => k.startsWith(`${a}.`)));

export function closedAccountSuite(label: string, databaseUrl?: () => Promise<string>): void {
  describe(`a deleted business does no more business: every door and every job (${label})`, () => {
    let r: ReliabilityApp;
    let t: TestApp;
    /** The business that deletes its account, and what it and its client held before. */
    let a: Fixtures & {
      quoteToken: string; invoiceToken: string; quotePage: { shown_sha256: string; version: number }; sessionId: string; stripeAccount: string; subscriptionId: string;
      logoUrl: string; exportUrl: string; resetToken: string; confirmToken: string; emailChangeLink: string; cancelToken: string; xeroCallback: string; xeroCookie: string;
      /** An accepted quote's link, and a variation of it sent for the client's approval. */
      variedToken: string; variationId: string; variationSha: string;
      /** A credit note the client's invoice page lists, with its PDF. */
      creditNoteId: string;
      reminder: { step_id: string; due_ms: number }; reminderSettings: Record<string, unknown>;
    };
    /** A business still trading. */
    let b: Fixtures & { quoteToken: string; logoUrl: string };

    const db = () => t.deps.store.db;
    const mailsTo = (address: string) => t.mailer.sent.filter((m) => m.to.map(String).includes(address));
    const linkIn = (text: string, path: string): string => new RegExp(`http://app\\.test(${path.replace(/[?]/g, '\\?')}[A-Za-z0-9_%.~-]+)`).exec(text)?.[1] ?? '';
    const publicCall = (method: 'GET' | 'POST', path: string, json?: unknown) =>
      t.call(method, `/public${path}`, { ip: freshIp(), headers: { 'User-Agent': 'Mozilla/5.0 (iPhone; test)' }, ...(json === undefined ? {} : { json }) });

    async function business(name: string): Promise<Fixtures & { quoteToken: string; invoiceToken: string; logoUrl: string }> {
      const f = await makeFixtures(t, name, CLIENT);
      const tk = f.user.token;
      await must(await t.put('/business-settings', { business_name: name === 'Aroha Tamihana' ? BUSINESS : `${name} Plumbing`, phone: '021 555 0101', email: 'office@example.nz', gst_number: '49-091-850' }, tk), 'settings');
      const fd = new FormData();
      fd.append('file', new File([PNG], 'logo.png'));
      await must(await t.call('POST', '/business-settings/logo', { token: tk, body: fd }), 'logo');
      await must(await t.post(`/invoices/${f.quoteId}/send`, {}, tk), 'send the quote');
      const quote = await t.post(`/invoices/${f.quoteId}/link`, undefined, tk);
      const invoice = await t.post(`/invoices/${f.invoiceId}/link`, undefined, tk);
      const logoUrl = (await t.get('/business-settings', tk)).json.logo_url as string;
      return { ...f, quoteToken: tokenOf(quote.json.url), invoiceToken: tokenOf(invoice.json.url), logoUrl };
    }

    beforeAll(async () => {
      r = await startReliabilityApp({ databaseUrl: await databaseUrl?.(), mailKind: 'smtp' });
      t = r.t;
      b = await business('Hone Ngata');

      // ---- The business that leaves, with everything open ----
      const f = await business('Aroha Tamihana');
      const tk = f.user.token;
      // Its confirmation link (mail really leaves this server), used only after the deletion.
      await vi.waitFor(() => expect(mailsTo(f.user.email).some((m) => m.text.includes('/confirm-email?token='))).toBe(true));
      const confirmToken = decodeURIComponent(linkIn(mailsTo(f.user.email).find((m) => m.text.includes('/confirm-email?token='))!.text, '/confirm-email?token=').split('token=')[1]!);
      // A paid subscription, Xero connected and the invoice synced, card payments connected.
      const checkout = await t.post('/billing/create-checkout-session', undefined, tk);
      await must(checkout, 'subscribe');
      const subscriptionId = (await r.stripe.completeCheckout(tokenOf(checkout.json.checkout_url))).subscription.id;
      await connectXero(t, tk);
      await must(await t.post(`/integrations/xero/sync/${f.invoiceId}`, undefined, tk), 'sync');
      // A credit note on the invoice: the client's page lists it with its PDF.
      const credit = await t.post(`/invoices/${f.invoiceId}/credit-notes`, { amount: '50.00', reason: 'Cover plate not needed' }, tk);
      await must(credit, 'credit note', 201);
      const creditNoteId = credit.json.id as string;
      await must(await publicCall('GET', `/invoices/${f.invoiceToken}/credit-notes/${creditNoteId}/pdf`), 'the credit note on the client page');
      // Another quote, accepted by the client; a variation of it emailed for their approval.
      const varied = await t.post('/invoices', { type: 'quote', client_id: f.clientId, line_items: [line('Heat pump, supplied and fitted', 1, 3200)] }, tk);
      await must(varied, 'varied quote', 201);
      await must(await t.post(`/invoices/${varied.json.id}/send`, {}, tk), 'send the varied quote');
      const variedToken = tokenOf((await t.post(`/invoices/${varied.json.id}/link`, undefined, tk)).json.url as string);
      const shown = (await publicCall('GET', `/quotes/${variedToken}`)).json as { shown_sha256: string; version: number };
      await must(await publicCall('POST', `/quotes/${variedToken}/accept`, { signer_name: 'Jo Bloggs', terms_accepted: true, shown_sha256: shown.shown_sha256, version: shown.version }), 'accept the varied quote');
      const proposed = await t.post(`/invoices/${varied.json.id}/variations`, { lines: [line('Extra outdoor unit bracket', 1, 180)], note: 'The wall needs a bracket' }, tk);
      await must(proposed, 'variation', 201);
      const variationId = proposed.json.variations.at(-1).id as string;
      await must(await t.post(`/invoices/${varied.json.id}/variations/${variationId}/send`, undefined, tk), 'send the variation');
      const variation = ((await publicCall('GET', `/quotes/${variedToken}`)).json as { variations: { id: string; status: string; shown_sha256: string }[] }).variations.find((v) => v.id === variationId)!;
      expect(variation.status).toBe('awaiting_approval');
      const onboarding = await t.post('/payments/connect', undefined, tk);
      await must(onboarding, 'connect');
      expect((await fetch(`${onboarding.json.onboarding_url as string}/complete`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
      const [account] = await db().query<{ stripe_account_id: string }>('SELECT stripe_account_id FROM payment_accounts WHERE account_id = $1', [f.user.userId]);
      // The client read the quote and pressed Pay now on the invoice.
      const quotePage = (await publicCall('GET', `/quotes/${f.quoteToken}`)).json as { shown_sha256: string; version: number };
      const pay = await publicCall('POST', `/invoices/${f.invoiceToken}/checkout`);
      await must(pay, 'pay now');
      // Reminders are on (the first emailed invoice turned them on) and the invoice's next one is queued.
      const [reminder] = await db().query<{ step_id: string; due_ms: number }>(
        'SELECT step_id, (extract(epoch FROM due_at) * 1000)::float8 AS due_ms FROM reminder_queue WHERE account_id = $1 AND document_id = $2',
        [f.user.userId, f.invoiceId],
      );
      const [reminderSettings] = await db().query<{ row: Record<string, unknown> }>('SELECT to_jsonb(s) AS row FROM reminder_settings s WHERE account_id = $1', [f.user.userId]);
      // Links in its inbox: a password reset, an email change; a signed download link; a Xero Connect
      // waiting for its callback in the browser that started it.
      await must(await t.post('/auth/forgot-password', { email: f.user.email }), 'forgot');
      await vi.waitFor(() => expect(mailsTo(f.user.email).some((m) => m.text.includes('/reset-password?token='))).toBe(true));
      const resetToken = decodeURIComponent(linkIn(mailsTo(f.user.email).find((m) => m.text.includes('/reset-password?token='))!.text, '/reset-password?token=').split('token=')[1]!);
      const newEmail = `moving-${f.user.userId.slice(-8)}@example.nz`;
      await must(await t.post('/account/change-email', { new_email: newEmail, password: f.user.password }, tk), 'change email');
      const emailChangeLink = linkIn(mailsTo(newEmail)[0]!.text, '/api/v1/account/confirm-email-change?token=');
      const cancelLink = linkIn(mailsTo(f.user.email).find((m) => m.text.includes('/account/cancel-email-change?token='))!.text, '/api/v1/account/cancel-email-change?token=');
      const cancelToken = new URL(cancelLink, 'http://app.test').searchParams.get('token')!;
      const exportUrl = (await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-06-30', basis: 'invoice' }, tk)).json.url as string;
      const authorize = await t.get('/integrations/xero/authorize', tk);
      const xeroCookie = authorize.headers.getSetCookie().find((c) => c.startsWith('xero_connect='))!.split(';')[0]!;
      const consent = await fetch(authorize.json.authorization_url as string, { redirect: 'manual' });
      const back = new URL(consent.headers.get('location') ?? '');
      a = {
        ...f, quotePage, sessionId: tokenOf(pay.json.checkout_url), stripeAccount: account!.stripe_account_id, subscriptionId, exportUrl, resetToken, confirmToken, emailChangeLink, cancelToken,
        variedToken, variationId, variationSha: variation.shown_sha256, creditNoteId,
        xeroCallback: `${back.pathname}${back.search}`, xeroCookie, reminder: reminder!, reminderSettings: reminderSettings!.row,
      };
      expect(r.stripe.connectSessions.get(a.sessionId)?.status).toBe('open');
      expect(a.reminder).toBeDefined();

      // ---- The deletion ----
      await must(await t.post('/account/delete', { confirm: 'DELETE', password: a.user.password }, tk), 'delete');
    }, 180_000);
    afterAll(() => r?.close());

    it('winds everything down at once: links withdrawn, open Checkout expired, Stripe and Xero disconnected, reminders dropped', async () => {
      const id = a.user.userId;
      const links = await db().query<{ withdrawn_reason: string | null }>('SELECT withdrawn_reason FROM client_links WHERE account_id = $1', [id]);
      expect(links.length).toBeGreaterThanOrEqual(2);
      expect(links.map((l) => l.withdrawn_reason)).toEqual(links.map(() => 'account_closed'));
      // The session the client opened is expired at Stripe: nobody can pay the closed business.
      expect(r.stripe.connectSessions.get(a.sessionId)?.status).toBe('expired');
      expect(await db().query("SELECT 1 FROM payment_checkout_sessions WHERE account_id = $1 AND status = 'open'", [id])).toEqual([]);
      const [payments] = await db().query<{ disconnected_at: unknown; charges_enabled: boolean }>('SELECT disconnected_at, charges_enabled FROM payment_accounts WHERE account_id = $1', [id]);
      expect(payments?.disconnected_at).not.toBeNull();
      expect(payments?.charges_enabled).toBe(false);
      // Xero: the refresh token revoked at Xero, the connection and the half-done Connect forgotten.
      expect(r.xero.state.revoked.length).toBeGreaterThanOrEqual(1);
      expect(await db().query('SELECT 1 FROM xero_connections WHERE account_id = $1', [id])).toEqual([]);
      expect(await db().query('SELECT 1 FROM xero_oauth_states WHERE account_id = $1', [id])).toEqual([]);
      const audit = (await db().query<{ kind: string }>('SELECT kind FROM audit_log WHERE account_id = $1', [id])).map((x) => x.kind);
      expect(audit).toEqual(expect.arrayContaining(['account_deleted', 'xero_disconnected']));
      expect(await db().query('SELECT 1 FROM reminder_queue WHERE account_id = $1', [id])).toEqual([]);
      expect(await db().query('SELECT 1 FROM reminder_settings WHERE account_id = $1', [id])).toEqual([]);
      // What needed Stripe and Xero went through the outbox, and is done.
      const windDown = await db().query<{ reaction: string; done: boolean }>("SELECT reaction, done_at IS NOT NULL AS done FROM outbox WHERE account_id = $1 AND stream_id = 'account-' || $1 ORDER BY reaction", [id]);
      expect(windDown).toEqual([{ reaction: 'account-closed-checkout', done: true }, { reaction: 'account-closed-xero', done: true }]);
      // The business still trading keeps its links and reminders.
      expect(await db().query('SELECT 1 FROM client_links WHERE account_id = $1 AND withdrawn_at IS NOT NULL', [b.user.userId])).toEqual([]);
      expect(await db().query('SELECT 1 FROM reminder_settings WHERE account_id = $1', [b.user.userId])).toHaveLength(1);
    });

    it('the business still trading is answered as before at the same doors', async () => {
      const quote = await publicCall('GET', `/quotes/${b.quoteToken}`);
      expect(quote.status).toBe(200);
      expect(quote.json.business.name).toBe('Hone Ngata Plumbing');
      expect((await publicCall('GET', `/quotes/${b.quoteToken}/pdf`)).status).toBe(200);
      expect((await t.get(b.logoUrl)).status).toBe(200);
      expect((await t.get('/invoices', b.user.token)).status).toBe(200);
    });

    // ---- every door without a sign-in ----

    /** What a probe may leave changed among the deleted account's rows: its own record of a refused call. */
    interface Probe {
      run(): Promise<void>;
      /** Tables whose rows of the account may change: the webhooks record the event (as for a closed account). */
      records?: readonly string[];
    }
    const closed = (res: { status: number; json: { detail?: unknown } | undefined; text: string }): void => {
      expect(res.status).toBe(410);
      expect(res.json?.detail).toBe(ACCOUNT_CLOSED);
      // Nothing of the business or its client.
      expect(res.text).not.toContain(BUSINESS);
      expect(res.text).not.toContain(CLIENT);
    };
    const PROBES: Record<string, Probe> = {
      // Doors that name no account: answered as for anyone.
      'GET /openapi.json': { run: async () => expect((await t.get('/openapi.json')).status).toBe(200) },
      'GET /health': { run: async () => expect((await t.get('/health')).status).toBe(200) },
      'GET /integrations/xero/close.js': { run: async () => expect((await t.get('/integrations/xero/close.js')).status).toBe(200) },
      // Sign-up: a new account, never the deleted one (which stays closed).
      'POST /auth/register': {
        run: async () => {
          const res = await t.post('/auth/register', { email: `new-${a.user.userId.slice(-8)}@example.nz`, password: 'a brand new password', full_name: 'Someone New' });
          expect(res.status).toBe(201);
          expect(res.json.id).not.toBe(a.user.userId);
        },
      },
      // Sign-in, sessions and emailed links: refused, the deletion revoked them in its transaction.
      'POST /auth/login': { run: async () => expect((await t.post('/auth/login', { email: a.user.email, password: a.user.password })).status).toBe(401) },
      'POST /auth/refresh': { run: async () => expect((await t.post('/auth/refresh', { refresh_token: a.user.refresh })).status).toBe(401) },
      'POST /auth/forgot-password': { run: async () => expect((await t.post('/auth/forgot-password', { email: a.user.email })).status).toBe(200) },
      'POST /auth/reset-password': {
        run: async () => {
          const res = await t.post('/auth/reset-password', { token: a.resetToken, new_password: 'taken over at last' });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
        },
      },
      'POST /auth/confirm-email': {
        run: async () => {
          const res = await t.post('/auth/confirm-email', { token: a.confirmToken });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
        },
      },
      'GET /account/confirm-email-change': { run: async () => expect((await t.call('GET', a.emailChangeLink)).status).toBe(200) },
      'POST /account/confirm-email-change': {
        run: async () => expect((await t.post('/account/confirm-email-change', { token: new URL(a.emailChangeLink, 'http://app.test').searchParams.get('token') })).status).toBe(422),
      },
      // 'This wasn't me' in the notice to the old address: its page is a button; the link was revoked.
      'GET /account/cancel-email-change': { run: async () => expect((await t.call('GET', `/account/cancel-email-change?token=${encodeURIComponent(a.cancelToken)}`)).status).toBe(200) },
      'POST /account/cancel-email-change': { run: async () => expect((await t.post('/account/cancel-email-change', { token: a.cancelToken })).status).toBe(422) },
      // The signed logo link the client's page carried.
      'GET /business-settings/logo': { run: async () => closed(await t.get(a.logoUrl)) },
      // Xero's webhook: a delivery not signed with the webhook key is refused before it is read; a signed
      // one only reads back invoices of accounts connected to that organisation (webhook.int.spec.ts).
      'POST /integrations/xero/webhook': { run: async () => expect((await t.post('/integrations/xero/webhook', { events: [], firstEventSequence: 1, lastEventSequence: 1, entropy: 'closed' })).status).toBe(401) },
      // Stripe's webhooks: answered (so Stripe stops sending), recorded as for a closed account, nothing applied.
      'POST /billing/webhook': {
        records: ['billing_webhook_events'],
        run: async () => {
          const sub = r.stripe.subscriptions.get(a.subscriptionId)!;
          const sent = await r.stripe.sendEvent('customer.subscription.updated', { ...sub, status: 'active', cancel_at_period_end: false });
          expect(sent.delivery.status).toBe(200);
          const [row] = await db().query<{ outcome: string }>('SELECT outcome FROM billing_webhook_events WHERE event_id = $1', [sent.event.id]);
          expect(row?.outcome).toBe('account_closed');
        },
      },
      'POST /payments/webhook': {
        records: ['payment_webhook_events'],
        run: async () => {
          const paid = await r.stripe.sendConnectEvent('payment_intent.succeeded', {
            id: `pi_closed_${a.user.userId.slice(-6)}`, object: 'payment_intent', amount: 5000, amount_received: 5000, currency: 'nzd', status: 'succeeded',
            metadata: { account_id: a.user.userId, document_id: a.invoiceId, link_id: '' },
          }, a.stripeAccount);
          const onboarded = await r.stripe.sendConnectEvent('account.updated', { ...r.stripe.accounts.get(a.stripeAccount)!, charges_enabled: true }, a.stripeAccount);
          for (const sent of [paid, onboarded]) {
            expect(sent.delivery.status).toBe(200);
            const [row] = await db().query<{ outcome: string }>('SELECT outcome FROM payment_webhook_events WHERE event_id = $1', [sent.event.id]);
            expect(row?.outcome).toBe('account_closed');
          }
        },
      },
      // Xero's redirect back to a Connect started before the deletion: nothing stored.
      'GET /integrations/xero/callback': {
        run: async () => {
          const res = await t.call('GET', `${a.xeroCallback}`, { headers: { Cookie: a.xeroCookie } });
          expect(res.status).toBe(400);
          expect(await db().query('SELECT 1 FROM xero_connections WHERE account_id = $1', [a.user.userId])).toEqual([]);
        },
      },
      // The client's links: every one 410 with the words the page shows, nothing of the business or client.
      'GET /public/quotes/{token}': { run: async () => closed(await publicCall('GET', `/quotes/${a.quoteToken}`)) },
      'GET /public/quotes/{token}/pdf': { run: async () => closed(await publicCall('GET', `/quotes/${a.quoteToken}/pdf`)) },
      'POST /public/quotes/{token}/accept': {
        run: async () => closed(await publicCall('POST', `/quotes/${a.quoteToken}/accept`, { signer_name: 'Jo Bloggs', terms_accepted: true, shown_sha256: a.quotePage.shown_sha256, version: a.quotePage.version })),
      },
      'POST /public/quotes/{token}/decline': { run: async () => closed(await publicCall('POST', `/quotes/${a.quoteToken}/decline`, { reasons: ['price'], note: '' })) },
      'POST /public/quotes/{token}/changes': { run: async () => closed(await publicCall('POST', `/quotes/${a.quoteToken}/changes`, { note: 'Could the tap be chrome?' })) },
      'POST /public/quotes/{token}/variations/{variationId}/accept': {
        run: async () => closed(await publicCall('POST', `/quotes/${a.variedToken}/variations/${a.variationId}/accept`, { signer_name: 'Jo Bloggs', shown_sha256: a.variationSha })),
      },
      'POST /public/quotes/{token}/variations/{variationId}/decline': {
        run: async () => closed(await publicCall('POST', `/quotes/${a.variedToken}/variations/${a.variationId}/decline`, { note: 'Not this year' })),
      },
      'GET /public/invoices/{token}': { run: async () => closed(await publicCall('GET', `/invoices/${a.invoiceToken}`)) },
      'GET /public/invoices/{token}/pdf': { run: async () => closed(await publicCall('GET', `/invoices/${a.invoiceToken}/pdf`)) },
      // A photo through the link: the closed business answers before any photo is looked for.
      'GET /public/quotes/{token}/photos/{photoId}': { run: async () => closed(await publicCall('GET', `/quotes/${a.quoteToken}/photos/01a227da-3644-71d0-9c9a-3f4eab33d8c6?size=thumb`)) },
      'GET /public/invoices/{token}/photos/{photoId}': { run: async () => closed(await publicCall('GET', `/invoices/${a.invoiceToken}/photos/01a227da-3644-71d0-9c9a-3f4eab33d8c6`)) },
      'GET /public/invoices/{token}/credit-notes/{creditNoteId}/pdf': { run: async () => closed(await publicCall('GET', `/invoices/${a.invoiceToken}/credit-notes/${a.creditNoteId}/pdf`)) },
      'POST /public/links/{token}/viewed': { run: async () => closed(await publicCall('POST', `/links/${a.quoteToken}/viewed`)) },
      'POST /public/invoices/{token}/checkout': {
        run: async () => {
          const calls = r.stripe.requests.length;
          closed(await publicCall('POST', `/invoices/${a.invoiceToken}/checkout`));
          expect(r.stripe.requests.length).toBe(calls);
        },
      },
    };
    const publicOperations = operations.filter((op: Operation) => op.auth === false);

    it('probes every door without a sign-in, as the routes describe themselves (a new public route fails here until it is probed)', () => {
      expect(publicOperations.length).toBeGreaterThanOrEqual(29);
      expect(Object.keys(PROBES).sort()).toEqual(publicOperations.map(opKey).sort());
    });

    for (const op of publicOperations) {
      it(`${opKey(op)} acts for nothing of it`, async () => {
        const probe = PROBES[opKey(op)];
        expect(probe, `no probe for ${opKey(op)}`).toBeDefined();
        const before = await accountRows(t, a.user.userId);
        const events = await eventCount(t, a.user.userId);
        const mails = t.mailer.sent.length;
        await probe!.run();
        expect(changed(before, await accountRows(t, a.user.userId), probe!.records)).toEqual([]);
        expect(await eventCount(t, a.user.userId)).toBe(events);
        // No email goes out for the closed business (a new sign-up's own confirmation aside).
        expect(t.mailer.sent.slice(mails).filter((m) => !m.subject.startsWith('Confirm your email address'))).toEqual([]);
      });
    }

    it('the download links it made before are refused: revoked by the deletion, and closed were one missed', async () => {
      const before = await accountRows(t, a.user.userId);
      const revoked = await t.call('GET', a.exportUrl);
      expect(revoked.status).toBe(403);
      expect(revoked.text).not.toContain(BUSINESS);
      expect(changed(before, await accountRows(t, a.user.userId))).toEqual([]);
      // A side path: a link the revocation missed still opens nothing of a closed account.
      await db().query("UPDATE one_time_tokens SET revoked_at = NULL WHERE account_id = $1 AND kind = 'report_export'", [a.user.userId]);
      try {
        closed(await t.call('GET', a.exportUrl));
      } finally {
        await db().query("UPDATE one_time_tokens SET revoked_at = $2 WHERE account_id = $1 AND kind = 'report_export'", [a.user.userId, t.clock.now().toISOString()]);
      }
    });

    it('every signed-in route refuses the session it had (401), whatever it names', async () => {
      const signedIn = operations.filter((op) => op.auth !== false);
      expect(signedIn.length).toBeGreaterThan(80);
      const before = await accountRows(t, a.user.userId);
      const answered: string[] = [];
      for (const op of signedIn) {
        const path = fillPath(op, Object.fromEntries(pathParams(op).map((p) => [p, idsOf(a, paramKind(op, p))[0]!])));
        const res = await t.call(op.method.toUpperCase(), path, { token: a.user.token, ip: freshIp() });
        if (res.status !== 401 || typeof res.json?.detail !== 'string') answered.push(`${opKey(op)} → ${res.status}`);
      }
      expect(answered).toEqual([]);
      expect(changed(before, await accountRows(t, a.user.userId))).toEqual([]);
    });

    // ---- every background job ----

    /** An outbox row of the closed account for `reaction`, as an event of `type` on its invoice would leave it, kept under `streamId`. */
    async function outboxRow(reaction: string, type: string, streamId: string): Promise<void> {
      await db().query(
        `INSERT INTO outbox (account_id, reaction, stream_id, event_id, event_position, event_type, payload, created_at, next_attempt_at)
         VALUES ($1, $2, $3, $4::uuid, 1, $5, $6::jsonb, $7, $7)`,
        [a.user.userId, reaction, streamId, t.deps.ids.uuid(), type, { documentId: a.invoiceId, outcome: 'failed' }, t.clock.now().toISOString()],
      );
    }

    it('every job kind of the outbox (REACTIONS) is marked done without running, except those that wind the account down', async () => {
      const ran: string[] = [];
      const spied: Reaction[] = REACTIONS.map((x) => ({ ...x, handle: async () => void ran.push(x.name) }));
      const streamId = `probe-${t.deps.ids.uuid()}`;
      for (const x of REACTIONS) for (const type of x.on) await outboxRow(x.name, type, streamId);
      const result = await outboxProcessor<ReactionDeps>(t.deps, spied).runDue({ accountId: a.user.userId });
      expect(result.failed).toBe(0);
      const windDown = REACTIONS.filter((x) => x.forClosedAccount).map((x) => x.name);
      expect(windDown.sort()).toEqual(['account-closed-checkout', 'account-closed-xero']);
      expect([...new Set(ran)].sort()).toEqual(windDown);
      const rows = await db().query<{ reaction: string; last_error: string | null }>(
        "SELECT reaction, last_error FROM outbox WHERE account_id = $1 AND stream_id = $2 AND done_at IS NOT NULL ORDER BY reaction",
        [a.user.userId, streamId],
      );
      const notRun = rows.filter((x) => !windDown.includes(x.reaction));
      expect(notRun.length).toBe(REACTIONS.filter((x) => !x.forClosedAccount).reduce((n, x) => n + x.on.length, 0));
      expect(new Set(notRun.map((x) => x.last_error))).toEqual(new Set([NOT_RUN_CLOSED]));
      await db().query('DELETE FROM outbox WHERE stream_id = $1', [streamId]);
    });

    it('the real reactions, run again for everything the account ever did, reach nobody', async () => {
      const id = a.user.userId;
      await db().query("UPDATE outbox SET done_at = NULL, last_error = NULL, attempts = 0, next_attempt_at = $2 WHERE account_id = $1 AND stream_id <> 'account-' || $1", [id, t.clock.now().toISOString()]);
      const before = await accountRows(t, id);
      const calls = { stripe: r.stripe.requests.length, xero: r.xero.state.requests.length, mail: t.mailer.sent.length };
      const result = await outboxProcessor(t.deps, REACTIONS).runDue({ accountId: id });
      expect(result.done).toBeGreaterThan(5);
      const left = await db().query<{ last_error: string | null }>("SELECT last_error FROM outbox WHERE account_id = $1 AND stream_id <> 'account-' || $1", [id]);
      expect(new Set(left.map((x) => x.last_error))).toEqual(new Set([NOT_RUN_CLOSED]));
      expect({ stripe: r.stripe.requests.length, xero: r.xero.state.requests.length, mail: t.mailer.sent.length }).toEqual(calls);
      expect(changed(before, await accountRows(t, id), ['outbox'])).toEqual([]);
    });

    it('the reminder schedule plans nothing for it, and the sender sends nothing', async () => {
      const id = a.user.userId;
      const now = t.clock.now();
      try {
        // At the moment its next reminder was due, with its settings back as they were (as if a
        // reaction had turned them on again), both timers' passes run.
        t.clock.set(new Date(Number(a.reminder.due_ms) + 60_000).toISOString());
        await db().query('INSERT INTO reminder_settings SELECT * FROM jsonb_populate_record(NULL::reminder_settings, $1::jsonb)', [a.reminderSettings]);
        await scheduleReminders(t.deps);
        expect(await db().query('SELECT 1 FROM reminder_queue WHERE account_id = $1', [id])).toEqual([]);
        // The business still trading has its reminder planned, due now like the deleted one's was.
        expect(await db().query('SELECT 1 FROM reminder_queue WHERE account_id = $1', [b.user.userId])).toHaveLength(1);
        await db().query('INSERT INTO reminder_queue (document_id, account_id, step_id, due_at) VALUES ($1, $2, $3, $4)', [a.invoiceId, id, a.reminder.step_id, t.clock.now().toISOString()]);
        const events = await eventCount(t, id);
        const mails = t.mailer.sent.length;
        const sent = await sendDueReminders(t.deps);
        const reminded = t.mailer.sent.slice(mails).map((m) => m.headers?.['X-Entity-Ref-ID']?.split('/')[0]);
        // The sender ran: the business still trading got its reminder; the deleted one got none.
        expect(sent.sent).toBe(1);
        expect(reminded).toEqual([b.invoiceId]);
        expect(await eventCount(t, id)).toBe(events);
        expect(await db().query('SELECT 1 FROM reminder_queue WHERE account_id = $1', [id])).toEqual([]);
      } finally {
        t.clock.set(now.toISOString());
      }
    });

    it("the Xero poll asks Xero nothing for it and queues nothing", async () => {
      const id = a.user.userId;
      await pollXero(t.deps);
      expect(await db().query('SELECT 1 FROM xero_polls WHERE account_id = $1', [id])).toEqual([]);
      expect(await db().query("SELECT 1 FROM outbox WHERE account_id = $1 AND reaction = 'xero-pull'", [id])).toEqual([]);
    });

    it('the repeating expenses run records nothing for it', async () => {
      const id = a.user.userId;
      const now = t.clock.now();
      try {
        // A month and more on: both businesses' monthly expense is due.
        t.clock.set(new Date(now.getTime() + 35 * 86_400_000).toISOString());
        const events = await eventCount(t, id);
        const costs = async (account: string) => (await db().query('SELECT 1 FROM costs WHERE account_id = $1', [account])).length;
        const [theirs, others] = [await costs(id), await costs(b.user.userId)];
        expect(await makeDueRecurringCosts(t.deps)).toBe(1);
        expect(await eventCount(t, id)).toBe(events);
        expect(await costs(id)).toBe(theirs);
        // The business still trading had its expense recorded.
        expect(await costs(b.user.userId)).toBe(others + 1);
      } finally {
        t.clock.set(now.toISOString());
      }
    });

    it("the one door for mail on an account's behalf refuses it, whoever asks (a notice, a reminder, a credit note, a variation)", async () => {
      const mails = t.mailer.sent.length;
      const mail = { from: 'noreply@app.test', to: ['accounts@kowhai.example.nz'], subject: 'Variation 2', text: 'Kia ora' };
      await expect(sendForAccount(t.deps, a.user.userId, mail)).rejects.toMatchObject({ name: 'Gone', detail: ACCOUNT_CLOSED });
      expect(t.mailer.sent.length).toBe(mails);
      // The business still trading sends as before.
      await sendForAccount(t.deps, b.user.userId, mail);
      expect(t.mailer.sent.length).toBe(mails + 1);
    });

    it('the timers main.ts starts are the jobs walked here (a new timer fails here until it is walked)', () => {
      const main = readFileSync(join(import.meta.dirname, '../../src/main.ts'), 'utf8');
      const timers = [...main.matchAll(/=\s*(schedule\w+)\(/g)].map((m) => m[1]).sort();
      // Pruning names no account, and the purge acts on deleted accounts only: that is its work.
      expect(timers).toEqual(['scheduleReactions', 'scheduleRecurringCosts', 'scheduleReminderRuns', 'schedulePruning', 'scheduleXeroPoll'].sort());
      expect(main).not.toMatch(/setInterval\((?![^\n]*ANALYZE)/);
    });

    it('the client link pages say why in the words the page shows', () => {
      expect(CLIENT_LINK_MESSAGES.accountClosed).toBe(ACCOUNT_CLOSED);
      expect(ACCOUNT_CLOSED).toBe('This business has closed its account.');
    });
  });
}
