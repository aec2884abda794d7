export { createApp, type AppEnv } from './app.ts';
export { loadConfig, type Config } from './config.ts';
export type { AppDeps, Clock, Ids } from './deps.ts';
export { buildDeps, startServer, type RunningServer } from './main.ts';
export { allMigrations } from './migrations.ts';
export { openApiDocument } from './openapi/document.ts';
export { apiOperations } from './openapi/apiOperations.ts';
export { hashPassword } from './auth/passwords.ts';
// For the benchmarks and fixtures in apps/cli: an app built from ports, seeded with events.
export { loadSecrets, secretsFrom, verificationKeys, type KeyRing, type Secrets } from './appKeys.ts';
export type { Mailer } from './mail/index.ts';
export { toNewEvents } from './commands.ts';
// The account's data as one JSON document (Download my data, `npm run export` / `npm run import`).
export {
  ACCOUNT_COLUMNS, ACCOUNT_TABLES, EXPORT_FORMAT, EXPORT_VERSION, accountIdByEmail, buildAccountExport, checkExportSignature, columnTypes, normaliseEmail, streamAccountExport,
  type AccountExport, type ExportedEvent, type Row,
} from './account/export.ts';
// Payment reminders' scheduling pass, for its benchmark.
export { scheduleReminders } from './reminders/scheduler.ts';
export { reminderMigrations } from './reminders/migrations.ts';
// The payment command's store path, for the store-ratio benchmark.
export { runDocumentCommand, type CommandPorts } from './documents/commands/run.ts';
export { recordedPaymentOf, type RecordedPayment } from './documents/view.ts';
export { outboxWriter } from './reactions/outbox.ts';
// A receipt's photo as it is kept (the receipt bench times it).
export { prepareReceipt, RECEIPT_MAX_SIDE } from './costs/receipts.ts';
