// The Connect adapter's webhook side: Stripe's events → ours, verified with the Connect secret only.
import { signStripePayload } from '@tradie/testkit/fake-stripe';
import { describe, expect, it } from 'vitest';
import { createStripeConnect } from '../../src/integrations/stripe/connect.ts';
import { cardPaymentId } from '../../src/payments/webhook.ts';

const NOW = new Date('2026-05-05T00:00:00Z');
const SECRET = 'whsec_connect_unit';
const connect = createStripeConnect({ secretKey: 'sk_test_unit', connectWebhookSecret: SECRET }, { now: () => NOW });
const unix = Math.floor(NOW.getTime() / 1000);
const signed = (event: object, secret = SECRET) => {
  const payload = JSON.stringify(event);
  return connect.verifyWebhook(payload, signStripePayload(payload, secret, unix));
};
const base = { object: 'event', created: unix, account: 'acct_1', api_version: '2026-10-28', livemode: false };

describe('verifyWebhook', () => {
  it('maps a paid Checkout Session on a connected account, with whose invoice it pays', () => {
    const r = signed({
      ...base, id: 'evt_1', type: 'checkout.session.completed',
      data: { object: { id: 'cs_1', object: 'checkout.session', mode: 'payment', payment_status: 'paid', payment_intent: 'pi_1', amount_total: 11787, metadata: { account_id: 'a1', document_id: 'd1', link_id: 'l1' } } },
    });
    expect(r).toEqual({
      ok: true,
      event: {
        id: 'evt_1', created: unix, connectedAccountId: 'acct_1', type: 'checkout.session.completed',
        session: { id: 'cs_1', paymentStatus: 'paid', paymentIntentId: 'pi_1', amountTotal: 11787, metadata: { accountId: 'a1', documentId: 'd1', linkId: 'l1' } },
      },
    });
  });

  it('ignores a subscription checkout (billing has its own endpoint) and types it does not act on', () => {
    const sub = signed({ ...base, id: 'evt_2', type: 'checkout.session.completed', data: { object: { id: 'cs_2', mode: 'subscription', metadata: {} } } });
    expect(sub.ok && sub.event.type).toBe('ignored');
    const other = signed({ ...base, id: 'evt_3', type: 'payout.paid', data: { object: { id: 'po_1' } } });
    expect(other.ok && other.event).toMatchObject({ type: 'ignored', stripeType: 'payout.paid' });
  });

  it('maps refunds with the total refunded so far and the latest refund', () => {
    const r = signed({
      ...base, id: 'evt_4', type: 'charge.refunded',
      data: { object: { id: 'ch_1', object: 'charge', amount: 11500, amount_refunded: 6000, payment_intent: 'pi_1', refunds: { data: [{ id: 're_1', created: unix - 10 }, { id: 're_2', created: unix }] } } },
    });
    expect(r.ok && r.event).toMatchObject({ type: 'charge.refunded', charge: { id: 'ch_1', paymentIntentId: 'pi_1', amount: 11500, amountRefunded: 6000, latestRefundId: 're_2' } });
  });

  it('refuses the billing endpoint secret, a changed body and a stale timestamp', () => {
    expect(signed({ ...base, id: 'evt_5', type: 'account.updated', data: { object: { id: 'acct_1' } } }, 'whsec_billing')).toMatchObject({ ok: false, error: { reason: 'bad_signature' } });
    const payload = JSON.stringify({ ...base, id: 'evt_6', type: 'account.updated', data: { object: { id: 'acct_1' } } });
    expect(connect.verifyWebhook(`${payload} `, signStripePayload(payload, SECRET, unix))).toMatchObject({ ok: false });
    expect(connect.verifyWebhook(payload, signStripePayload(payload, SECRET, unix - 301))).toMatchObject({ ok: false, error: { reason: 'stale_timestamp' } });
    expect(connect.verifyWebhook(payload, undefined)).toMatchObject({ ok: false });
  });
});

describe('cardPaymentId', () => {
  it('is one UUID per PaymentIntent, the same every time', () => {
    expect(cardPaymentId('pi_1')).toBe(cardPaymentId('pi_1'));
    expect(cardPaymentId('pi_1')).not.toBe(cardPaymentId('pi_2'));
    expect(cardPaymentId('pi_1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
