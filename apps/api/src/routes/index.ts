// Every resource under /api/v1, one sub-app each. Each feature owns its folder.
import { Hono } from 'hono';
import { requireAuth } from '../auth/middleware.ts';
import { accountRoutes } from '../account/routes.ts';
import { integrationRoutes } from '../integrations/routes.ts';
import type { AppEnv } from '../http/env.ts';
import { emailConfirmationRoutes } from '../auth/emailConfirmation.ts';
import { authRoutes } from '../auth/routes.ts';
import { billingRoutes } from '../billing/routes.ts';
import { clientRoutes } from '../clients/routes.ts';
import { costRoutes, hoursRoutes, jobRoutes, recurringRoutes } from '../costs/routes.ts';
import { clientLinkPublicRoutes } from '../clientLinks/publicRoutes.ts';
import { clientLinkRoutes } from '../clientLinks/routes.ts';
import type { AppDeps } from '../deps.ts';
import { documentRoutes } from '../documents/routes.ts';
import { creditNoteRoutes, invoiceCreditNoteRoutes } from '../creditNotes/routes.ts';
import { invoicePaymentClaimRoutes, paymentClaimClientRoutes } from '../paymentClaims/routes.ts';
import { reportRoutes } from '../reports/routes.ts';
import { mailRoutes, reminderRoutes } from '../reminders/routes.ts';
import { securityRoutes } from '../security/routes.ts';
import { pricingRoutes } from '../settings/pricingRoutes.ts';
import { settingsRoutes } from '../settings/routes.ts';
import { setupRoutes } from '../setup/routes.ts';
import { templateRoutes } from '../templates/routes.ts';
import { priceBookRoutes } from '../priceBook/routes.ts';
import { paymentRoutes } from '../payments/routes.ts';
import { publicPaymentRoutes } from '../payments/publicRoutes.ts';

export function featureRoutes(deps: AppDeps): [string, Hono<AppEnv>][] {
  return [
    ['/auth', authRoutes(deps)],
    // Confirming the email address, and whether the account may send (auth/emailConfirmation.ts).
    ['/auth', emailConfirmationRoutes(deps)],
    ['/clients', clientRoutes(deps)],
    ['/invoices', invoiceRoutes(deps)],
    ['/credit-notes', creditNoteRoutes(deps)],
    ['/payment-claims', paymentClaimClientRoutes(deps)],
    // The pages a client opens from a link, without signing in (clientLinks/publicRoutes.ts).
    ['/public', clientLinkPublicRoutes(deps)],
    // Paying an invoice by card from its link (payments/publicRoutes.ts).
    ['/public', publicPaymentRoutes(deps)],
    ['/reports', reportRoutes(deps)],
    ['/business-settings', settingsRoutes(deps)],
    // How 'Price from cost' prices: categories and labour rates (settings/pricingRoutes.ts).
    ['/business-settings', pricingRoutes(deps)],
    ['/setup', setupRoutes(deps)],
    ['/billing', billingRoutes(deps)],
    ['/payments', paymentRoutes(deps)],
    ['/integrations', integrationRoutes(deps)],
    ['/security', securityRoutes(deps)],
    ['/account', accountRoutes(deps)],
    ['/templates', templateRoutes(deps)],
    ['/price-book', priceBookRoutes(deps)],
    ['/costs', costRoutes(deps)],
    ['/hours', hoursRoutes(deps)],
    ['/recurring-costs', recurringRoutes(deps)],
    ['/jobs', jobRoutes(deps)],
    ['/reminders', reminderRoutes(deps)],
    ['/mail', mailRoutes(deps)],
  ];
}

/**
 * /invoices: one sub-app, signed in once, made of the features that hang off a document — the
 * documents themselves, a document's client link and timeline (clientLinks/routes.ts), crediting
 * an invoice (creditNotes/routes.ts) and payment claims under the Construction Contracts Act 2002
 * (paymentClaims/routes.ts).
 */
function invoiceRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));
  for (const part of [documentRoutes(deps), clientLinkRoutes(deps), invoiceCreditNoteRoutes(deps), invoicePaymentClaimRoutes(deps)]) r.route('/', part);
  return r;
}
