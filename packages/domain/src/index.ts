// The pure domain: money, GST, margin, dates, NZ identifiers, clients, quotes and invoices,
// numbering, reports and when payment reminders go. Imports decimal.js and zod, nothing else.
export * from './money/decimal.ts';
export * from './money/rational.ts';
export * from './money/rounding.ts';
export * from './money/money.ts';
export * from './gst/gst.ts';
export * from './margin/margin.ts';
export * from './dates/dates.ts';
export * from './dates/paymentTerms.ts';
export * from './dates/nzHolidays.ts';
export * from './reminders/schedule.ts';
export * from './identifiers/nzIdentifiers.ts';
export * from './errors.ts';
export * from './decider.ts';
export * from './clients/client.ts';
export { clientEventSchemas, storedClientFields } from './clients/events.ts';
export * from './documents/events.ts';
export * from './documents/lines.ts';
export * from './documents/document.ts';
export * from './documents/accountingTotals.ts';
export * from './numbering/references.ts';
export * from './numbering/events.ts';
export * from './events/fields.ts';
export * from './events/registry.ts';
export * from './reports/rows.ts';
export * from './reports/gstReport.ts';
export * from './reports/annualSummary.ts';
export * from './reports/replay.ts';
