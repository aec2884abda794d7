// TRANSITION — to be deleted with transition.ts. The old hand-written table of /api/v1 operations:
// the routes now describe themselves (describe.ts) and the document is built from them; an entry
// here is used only for a route that does not describe itself yet (transition.ts).
import * as c from '@tradie/contracts';
import { z } from 'zod';

export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI style: /invoices/{id}. */
  path: string;
  tag: string;
  summary: string;
  /** false for the few routes a guest may call. */
  auth?: boolean;
  body?: z.ZodType;
  /** Describes a non-JSON body. */
  bodyNote?: string;
  query?: z.ZodType;
  idempotent?: boolean;
  /** The success answer: a schema, or a description for non-JSON answers. */
  response: { status: number; schema?: z.ZodType; description?: string; contentType?: string };
  /** Error statuses this operation answers besides 401/422 (each body is {detail}). */
  errors?: number[];
}

const detail = z.object({ detail: z.string() });
const anyObject = z.object({}).passthrough();
const id = (noun: string) => `${noun} id`;

export const operations: Operation[] = [
  { method: 'get', path: '/openapi.json', tag: 'System', summary: 'This API description (OpenAPI 3.1)', auth: false, response: { status: 200, schema: anyObject } },
  { method: 'get', path: '/health', tag: 'System', summary: 'Health check', auth: false, response: { status: 200, schema: z.object({ status: z.literal('ok') }) }, errors: [503] },

  // Authentication
  { method: 'post', path: '/auth/register', tag: 'Authentication', summary: 'Create an account (starts the 14-day trial); at most 10 an hour per address', auth: false, body: c.registerInput, response: { status: 201, schema: c.currentUser }, errors: [409, 429] },
  { method: 'post', path: '/auth/login', tag: 'Authentication', summary: 'Sign in (attempts counted per account and address before the password is checked)', auth: false, body: c.loginInput, response: { status: 200, schema: c.tokenPair }, errors: [429] },
  { method: 'post', path: '/auth/refresh', tag: 'Authentication', summary: 'Rotate the refresh token (a reuse after 30 s ends the session family; 90-day absolute lifetime)', auth: false, body: c.refreshInput, response: { status: 200, schema: c.tokenPair } },
  { method: 'post', path: '/auth/logout', tag: 'Authentication', summary: "Sign out: revokes this device's refresh token and its family", body: c.logoutInput, response: { status: 200, schema: detail } },
  { method: 'post', path: '/auth/logout-all', tag: 'Authentication', summary: 'Sign out everywhere: revokes every refresh token of the user', response: { status: 200, schema: detail } },
  { method: 'post', path: '/auth/change-password', tag: 'Authentication', summary: 'Change the password (signs out every other session; answers a fresh pair for this device)', body: c.changePasswordInput, response: { status: 200, schema: c.tokenPair.extend({ detail: z.string() }) }, errors: [429] },
  { method: 'get', path: '/auth/me', tag: 'Authentication', summary: 'The signed-in user', response: { status: 200, schema: c.currentUser } },
  { method: 'post', path: '/auth/forgot-password', tag: 'Authentication', summary: 'Email a reset link (same answer for unknown emails; 3 an hour per address)', auth: false, body: c.forgotPasswordInput, response: { status: 200, schema: detail }, errors: [429] },
  { method: 'post', path: '/auth/reset-password', tag: 'Authentication', summary: 'Set a new password with a reset token (single use, one hour, only the newest link works)', auth: false, body: c.resetPasswordInput, response: { status: 200, schema: detail }, errors: [400, 429] },
  { method: 'post', path: '/auth/confirm-email', tag: 'Authentication', summary: 'Confirm the email address with the emailed link (single use, 7 days, only the newest link works)', auth: false, body: c.confirmEmailInput, response: { status: 200, schema: c.confirmEmailResult }, errors: [400] },
  { method: 'post', path: '/auth/resend-confirmation', tag: 'Authentication', summary: 'Email a new confirmation link (3 an hour per account)', response: { status: 200, schema: detail }, errors: [429, 503] },
  { method: 'get', path: '/auth/sending-status', tag: 'Authentication', summary: "Whether the account may send: email confirmed (needed when mail really leaves the server) and today's recipients against the daily limit", response: { status: 200, schema: c.sendingStatus } },

  // Clients
  { method: 'get', path: '/clients', tag: 'Clients', summary: 'The client book, sorted by name', query: c.clientListQuery, response: { status: 200, schema: c.clientList } },
  { method: 'post', path: '/clients', tag: 'Clients', summary: 'Add a client (GST number / NZBN warnings never block)', body: c.clientInput, idempotent: true, response: { status: 201, schema: c.clientRecord } },
  { method: 'get', path: '/clients/{id}', tag: 'Clients', summary: 'One client', response: { status: 200, schema: c.clientRecord }, errors: [404] },
  { method: 'put', path: '/clients/{id}', tag: 'Clients', summary: 'Replace a client (send the version you edited)', body: c.clientUpdateInput, response: { status: 200, schema: c.clientRecord }, errors: [404, 409] },
  { method: 'delete', path: '/clients/{id}', tag: 'Clients', summary: 'Delete a client (their quotes and invoices keep the name)', response: { status: 204, description: 'Deleted' }, errors: [404] },
  { method: 'get', path: '/clients/{id}/documents', tag: 'Clients', summary: "A client's quotes and invoices with totals and balance owing", response: { status: 200, schema: c.clientHistory }, errors: [404] },

  // Quotes and invoices
  { method: 'get', path: '/invoices', tag: 'Quotes and invoices', summary: 'List, newest first (X-Next-Cursor, X-Total-Count headers)', query: c.listDocumentsQuery, response: { status: 200, schema: z.array(c.documentListRecord) } },
  { method: 'get', path: '/invoices/counts', tag: 'Quotes and invoices', summary: 'Tab counts', response: { status: 200, schema: c.documentCounts } },
  { method: 'post', path: '/invoices', tag: 'Quotes and invoices', summary: 'Create a quote or invoice (numbered QTE-/INV-, issue date today in NZ)', body: c.createDocumentInput, idempotent: true, response: { status: 201, schema: c.documentDetail }, errors: [402, 404] },
  { method: 'get', path: '/invoices/{id}', tag: 'Quotes and invoices', summary: 'One document with lines, totals, payments and balance', response: { status: 200, schema: c.documentDetail }, errors: [404] },
  { method: 'put', path: '/invoices/{id}', tag: 'Quotes and invoices', summary: 'Revise a draft', body: c.reviseDocumentInput, response: { status: 200, schema: c.documentDetail }, errors: [402, 404, 409] },
  { method: 'delete', path: '/invoices/{id}', tag: 'Quotes and invoices', summary: 'Delete an unseen draft; an issued document is voided (its number is never reused)', response: { status: 200, schema: z.object({ id: z.string(), outcome: z.enum(['deleted', 'voided']) }) }, errors: [404, 409] },
  { method: 'post', path: '/invoices/{id}/void', tag: 'Quotes and invoices', summary: 'Void', body: c.voidDocumentInput, response: { status: 200, schema: c.documentDetail }, errors: [404, 409] },
  { method: 'post', path: '/invoices/{id}/issue', tag: 'Quotes and invoices', summary: 'Mark a draft invoice issued (handed over without the app\'s email): it counts in the reports from now on', response: { status: 200, schema: c.documentDetail }, errors: [404, 409] },
  { method: 'post', path: '/invoices/{id}/accept', tag: 'Quotes and invoices', summary: 'Mark a quote accepted', response: { status: 200, schema: c.documentDetail }, errors: [404, 409] },
  { method: 'post', path: '/invoices/{id}/decline', tag: 'Quotes and invoices', summary: 'Mark a quote declined', response: { status: 200, schema: c.documentDetail }, errors: [404, 409] },
  { method: 'post', path: '/invoices/{id}/convert', tag: 'Quotes and invoices', summary: 'Turn a quote into a new invoice', response: { status: 201, schema: c.documentDetail }, errors: [402, 404, 409] },
  { method: 'post', path: '/invoices/{id}/generate-pdf', tag: 'Quotes and invoices', summary: 'Render the PDF and record its hash', response: { status: 200, schema: c.generatePdfResult }, errors: [404] },
  { method: 'get', path: '/invoices/{id}/pdf', tag: 'Quotes and invoices', summary: 'The PDF', response: { status: 200, contentType: 'application/pdf', description: 'The PDF, named by its reference' }, errors: [404] },
  { method: 'post', path: '/invoices/{id}/send', tag: 'Quotes and invoices', summary: 'Email it to the client with the PDF attached (403 `email_unconfirmed` until the email address is confirmed; 429 over the daily recipients or 30 sends in 10 minutes)', body: c.sendDocumentInput, idempotent: true, response: { status: 200, schema: c.sendResult }, errors: [402, 403, 404, 409, 429, 503] },
  { method: 'post', path: '/invoices/{id}/mark-paid', tag: 'Quotes and invoices', summary: 'Record a payment of the outstanding balance', body: c.markPaidInput, idempotent: true, response: { status: 200, schema: c.documentDetail }, errors: [404, 409] },
  { method: 'get', path: '/invoices/{id}/payments', tag: 'Quotes and invoices', summary: 'Payment history', response: { status: 200, schema: z.array(c.paymentRecord) }, errors: [404] },
  { method: 'post', path: '/invoices/{id}/payments', tag: 'Quotes and invoices', summary: 'Record a payment (more than $0, at most the balance, whole cents)', body: c.paymentInput, idempotent: true, response: { status: 201, schema: anyObject }, errors: [404, 409] },
  { method: 'delete', path: '/invoices/{id}/payments/{paymentId}', tag: 'Quotes and invoices', summary: 'Remove a payment', response: { status: 200, schema: c.documentDetail }, errors: [404, 409] },

  // Reports
  { method: 'get', path: '/reports/gst', tag: 'Reports', summary: 'GST report for a date range (invoice or payments basis) with the GST return boxes', query: c.gstReportQuery, response: { status: 200, schema: c.gstReportResponse } },
  { method: 'get', path: '/reports/annual', tag: 'Reports', summary: 'Annual summary for an NZ tax year (2026 = 1 Apr 2025 – 31 Mar 2026)', query: c.annualReportQuery, response: { status: 200, schema: c.annualReportResponse } },
  { method: 'post', path: '/reports/export-links', tag: 'Reports', summary: 'A short-lived signed link to a CSV export (for opening in a new tab)', body: c.exportLinkInput, response: { status: 200, schema: c.exportLinkResponse } },
  { method: 'get', path: '/reports/export/gst-csv', tag: 'Reports', summary: 'GST report as CSV (bearer token or signed link)', query: c.gstReportQuery, response: { status: 200, contentType: 'text/csv', description: 'RFC 4180 CSV, one row per invoice and the totals' }, errors: [403] },
  { method: 'get', path: '/reports/export/annual-csv', tag: 'Reports', summary: 'Annual summary as CSV (bearer token or signed link)', query: c.annualReportQuery, response: { status: 200, contentType: 'text/csv', description: 'RFC 4180 CSV' }, errors: [403] },

  // Business settings
  { method: 'get', path: '/business-settings', tag: 'Business settings', summary: 'Every business setting with its default', response: { status: 200, schema: c.businessSettingsRecord } },
  { method: 'put', path: '/business-settings', tag: 'Business settings', summary: 'Save business, email and currency settings (logo_url ignored)', body: c.businessSettingsInput, response: { status: 200, schema: c.businessSettingsRecord } },
  { method: 'post', path: '/business-settings/logo', tag: 'Business settings', summary: 'Upload the logo: PNG, JPEG or SVG (checked by content, SVG sanitised), at most 2 MB', bodyNote: 'multipart/form-data with a `file` field', response: { status: 200, schema: c.logoUploadResponse }, errors: [413] },
  { method: 'get', path: '/business-settings/logo', tag: 'Business settings', summary: 'The logo (signed-in, or with the signature logo_url carries)', auth: false, response: { status: 200, contentType: 'image/*', description: 'The logo, served with nosniff and a sandboxing Content-Security-Policy' }, errors: [403, 404] },
  { method: 'delete', path: '/business-settings/logo', tag: 'Business settings', summary: 'Remove the logo', response: { status: 200, schema: detail } },

  // Billing
  { method: 'get', path: '/billing/subscription-status', tag: 'Billing', summary: 'Trial and subscription status', response: { status: 200, schema: c.subscriptionStatusResponse } },
  { method: 'post', path: '/billing/create-checkout-session', tag: 'Billing', summary: 'Start a subscription: the Stripe Checkout address', response: { status: 200, schema: c.checkoutSessionResponse }, errors: [409, 502, 503] },
  { method: 'post', path: '/billing/create-portal-session', tag: 'Billing', summary: 'Manage the subscription: the Stripe billing portal address', response: { status: 200, schema: c.portalSessionResponse }, errors: [409, 502, 503] },
  { method: 'post', path: '/billing/webhook', tag: 'Billing', summary: 'Stripe webhooks (verified by Stripe-Signature; each event applied once)', auth: false, bodyNote: 'the raw Stripe event JSON', response: { status: 200, schema: anyObject }, errors: [400] },

  // Xero
  { method: 'get', path: '/integrations/xero/authorize', tag: 'Xero', summary: 'The Xero sign-in address for the Connect window (PKCE + state); sets the xero_connect cookie that binds the callback to this browser', response: { status: 200, schema: c.accountingAuthorization }, errors: [503] },
  { method: 'get', path: '/integrations/xero/callback', tag: 'Xero', summary: 'Where Xero sends the Connect window back; needs the xero_connect cookie of the browser that pressed Connect; stores the tokens encrypted', auth: false, response: { status: 200, contentType: 'text/html', description: 'A page that closes the window' }, errors: [400, 503] },
  { method: 'get', path: '/integrations/xero/close.js', tag: 'Xero', summary: "The callback page's closing script", auth: false, response: { status: 200, contentType: 'text/javascript', description: 'Script' } },
  { method: 'get', path: '/integrations/xero/status', tag: 'Xero', summary: 'Connection status', response: { status: 200, schema: c.accountingStatus } },
  { method: 'delete', path: '/integrations/xero/disconnect', tag: 'Xero', summary: 'Revoke and forget the connection', response: { status: 200, schema: detail } },
  { method: 'post', path: '/integrations/xero/sync/{id}', tag: 'Xero', summary: 'Sync an invoice to Xero once (a second sync creates nothing)', response: { status: 200, schema: c.accountingSyncResult }, errors: [400, 402, 404, 409, 429, 503] },
  { method: 'post', path: '/integrations/xero/push/{id}', tag: 'Xero', summary: "Push a synced invoice's payments, sent flag and void to Xero", response: { status: 200, schema: c.accountingPushResult }, errors: [400, 404, 429, 503] },

  // Security
  { method: 'get', path: '/security/audit', tag: 'Security', summary: "The account's security activity (sign-ins, password changes, Xero connections…), newest first, paged with `before`", query: c.auditLogQuery, response: { status: 200, schema: c.auditLogPage } },
];

export const documentedPathParams = { id: id('The resource'), paymentId: id('The payment') };
