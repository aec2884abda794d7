// zod schemas of the /api/v1 requests and responses, shared by the API and the web app.
export * from './common.ts';
export * from './clients.ts';
export * from './invoices.ts';
export * from './auth.ts';
export * from './reports.ts';
export * from './settings.ts';
export * from './billing.ts';
export * from './accounting.ts';
export * from './sending.ts';
export * from './security.ts';
export * from './account.ts';
export * from './templates.ts';
export * from './clientLinks.ts';
export * from './reminders.ts';
export * from './creditNotes.ts';
export * from './paymentClaims.ts';
export * from './setup.ts';
