export { createApp, type AppEnv } from './app.ts';
export { loadConfig, type Config } from './config.ts';
export type { AppDeps, Clock, Ids } from './deps.ts';
export { buildDeps, startServer, type RunningServer } from './main.ts';
export { allMigrations } from './migrations.ts';
export { benchReports, type BenchFigure, type ReportsBenchOptions } from './reports/bench.ts';
export { openApiDocument } from './openapi/document.ts';
export { benchDocumentList } from './documents/bench.ts';
export { hashPassword } from './auth/passwords.ts';
