/**
 * The e2e API server with a fake Stripe and a fake Xero (packages/testkit) on loopback.
 *
 * Playwright starts its webServer before globalSetup, and the fakes listen on ports chosen when they
 * start, so they cannot be started from globalSetup: this launcher (the main webServer's command)
 * starts them first, points the API's configuration at them and then starts the API in the same
 * process (apps/api/src/start.ts), so they live and die together.
 *
 * From playwright.config.ts (webServer env): PORT, APP_URL, DATA_DIR, STRIPE_SECRET_KEY,
 * STRIPE_PRICE_ID, STRIPE_WEBHOOK_SECRET, STRIPE_CONNECT_WEBHOOK_SECRET, XERO_CLIENT_ID, XERO_CLIENT_SECRET, XERO_REDIRECT_URI.
 * Set here, from the fakes: STRIPE_API_BASE, XERO_LOGIN_URL, XERO_IDENTITY_URL, XERO_API_URL.
 *
 * Tests find the fakes in DATA_DIR/e2e-fakes.json (see fakes.ts): their addresses, and a small
 * `control` server: GET /xero/invoices (what the fake Xero holds), POST /xero/deny-next-consent,
 * POST /xero/compute-own-tax?on=1|0, POST /xero/refuse-next?path=…&message=…, POST /xero/pay-in-xero?invoiceId=…&amount=…
 * and POST /xero/void-in-xero?invoiceId=… (answering the signed webhook delivery Xero would post).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFakeStripe } from '@tradie/testkit/fake-stripe';
import { startFakeXero, xeroWebhookDelivery } from '@tradie/testkit/fake-xero';
import { FAKES_FILE, type FakesInfo, type FakeXeroInvoiceView } from './fakes.ts';

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`api-with-fakes: ${name} is not set (run through apps/web/playwright.config.ts)`);
  return v;
}

const appUrl = required('APP_URL');
const dataDir = required('DATA_DIR');

const stripe = await startFakeStripe({
  webhookSecret: required('STRIPE_WEBHOOK_SECRET'),
  secretKey: required('STRIPE_SECRET_KEY'),
  webhookUrl: `${appUrl}/api/v1/billing/webhook`,
  // Stripe Connect: clients paying invoices by card on the business's own (fake) Stripe account.
  connectWebhookSecret: required('STRIPE_CONNECT_WEBHOOK_SECRET'),
  connectWebhookUrl: `${appUrl}/api/v1/payments/webhook`,
  // A monthly and an annual plan, as the pricing page offers (test amounts, exclusive of GST).
  prices: [
    { id: required('STRIPE_PRICE_ID'), unitAmount: 750, currency: 'nzd', interval: 'month' },
    { id: required('STRIPE_PRICE_ID_ANNUAL'), unitAmount: 9000, currency: 'nzd', interval: 'year' },
  ],
});

const xero = await startFakeXero({
  clientId: required('XERO_CLIENT_ID'),
  clientSecret: required('XERO_CLIENT_SECRET'),
  redirectUris: [required('XERO_REDIRECT_URI')],
  tenants: [{ tenantName: 'Tama Tradie Ltd (E2E)' }],
});

process.env.STRIPE_API_BASE = stripe.url;
process.env.XERO_LOGIN_URL = xero.loginUrl;
process.env.XERO_IDENTITY_URL = xero.identityUrl;
process.env.XERO_API_URL = xero.apiUrl;

// What the fakes hold, for assertions, and the one fault the browser tests need.
const control = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (req.method === 'GET' && path === '/xero/invoices') {
    const invoices: FakeXeroInvoiceView[] = xero.state.invoices.map((i) => ({
      invoiceId: i.InvoiceID,
      invoiceNumber: i.InvoiceNumber,
      reference: i.Reference,
      status: i.Status,
      tenantId: i.tenantId,
      total: (Number(i.totalCents) / 100).toFixed(2),
      amountPaid: (Number(i.paidCents) / 100).toFixed(2),
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(invoices));
    return;
  }
  if (req.method === 'POST' && path === '/xero/deny-next-consent') {
    // The next sign-in at the fake Xero comes back as if the user pressed Cancel.
    xero.denyNextConsent('access_denied');
    res.writeHead(204);
    res.end();
    return;
  }
  if (req.method === 'POST' && path === '/xero/compute-own-tax') {
    // On: the fake Xero ignores the tax sent on each line and works out its own, per line.
    xero.computeOwnTax(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('on') === '1');
    res.writeHead(204);
    res.end();
    return;
  }
  if (req.method === 'POST' && path === '/xero/refuse-next') {
    // The next matching call at the fake Xero answers a validation error with this message, as Xero would.
    const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    xero.failNext(q.get('path') ?? '', 400, {}, {
      ErrorNumber: 10,
      Type: 'ValidationException',
      Message: 'A validation exception occurred',
      Elements: [{ ValidationErrors: [{ Message: q.get('message') ?? 'Refused' }] }],
    });
    res.writeHead(204);
    res.end();
    return;
  }
  if (req.method === 'POST' && (path === '/xero/pay-in-xero' || path === '/xero/void-in-xero')) {
    // The bookkeeper pays or voids the invoice in Xero itself; the answer is the webhook delivery Xero
    // would post about it, signed with the app's webhook key, for the test to deliver.
    const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const invoiceId = q.get('invoiceId') ?? '';
    const inv = xero.state.invoices.find((i) => i.InvoiceID === invoiceId);
    if (!inv) {
      res.writeHead(404);
      res.end();
      return;
    }
    if (path === '/xero/pay-in-xero') xero.payInXero(invoiceId, { amount: q.get('amount') ?? '0', date: q.get('date') ?? '2026-05-12', reference: 'Bank transfer' });
    else xero.voidInXero(invoiceId);
    const delivery = xeroWebhookDelivery(process.env.XERO_WEBHOOK_KEY ?? '', [{ tenantId: inv.tenantId, resourceId: invoiceId }]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(delivery));
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('Not found');
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));

const info: FakesInfo = {
  stripe: stripe.url,
  xero: xero.url,
  xeroTenants: xero.tenants,
  control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
};
writeFileSync(join(dataDir, FAKES_FILE), JSON.stringify(info, null, 2));

// A computed specifier: the web app's type check does not follow it into the API's sources.
const apiStart = join(import.meta.dirname, '..', '..', '..', 'api', 'src', 'start.ts');
await import(pathToFileURL(apiStart).href);
