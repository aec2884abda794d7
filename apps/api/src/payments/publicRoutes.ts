// POST /public/invoices/{token}/checkout: the client's 'Pay now' (no sign-in, rate-limited per IP).
import { checkoutStarted, CLIENT_LINK_MESSAGES } from '@tradie/contracts';
import { Hono } from 'hono';
import { resolveClientLink } from '../clientLinks/resolve.ts';
import type { AppDeps } from '../deps.ts';
import type { AppEnv } from '../http/env.ts';
import { describe } from '../openapi/describe.ts';
import { clientIp } from '../security/clientIp.ts';
import { hit, type Limit, tooMany } from '../security/rateLimit.ts';
import { startCheckout } from './checkout.ts';
import { providerCall } from './routes.ts';

/** Checkouts per IP address: generous for a person, tight for a script making sessions. */
export const CHECKOUT_IP_LIMIT: Limit = { name: 'checkout:ip', max: 20, windowSeconds: 600 };

export function publicPaymentRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/invoices/:token/checkout', describe({
    tag: 'Client links', summary: "Pay an invoice by card: a Stripe Checkout address on the business's own Stripe account", auth: false,
    response: { status: 200, schema: checkoutStarted }, errors: [404, 409, 410, 429, 502, 503],
  }), async (c) => {
    const ip = clientIp(c, deps.config.trustedProxies);
    const limit = { ...CHECKOUT_IP_LIMIT, max: CHECKOUT_IP_LIMIT.max * deps.config.env.IP_LIMIT_MULTIPLIER };
    const h = await hit(deps.store.db, limit, ip, deps.clock.now());
    if (!h.allowed) throw tooMany(CLIENT_LINK_MESSAGES.rateLimited, h);
    // The address carries the token: it is not passed on to other sites, and not indexed.
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Robots-Tag', 'noindex, nofollow');
    const token = c.req.param('token');
    const link = await resolveClientLink(deps, token, 'invoice');
    const { checkoutUrl } = await providerCall(deps, 'checkout', () => startCheckout(deps, { token, linkId: link.linkId, accountId: link.accountId, documentId: link.documentId }));
    return c.json({ checkout_url: checkoutUrl });
  });
  return r;
}
