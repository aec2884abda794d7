export { createApp, type AppEnv } from './app.ts';
export { loadConfig, type Config } from './config.ts';
export type { AppDeps, Clock, Ids } from './deps.ts';
export { buildDeps, startServer, type RunningServer } from './main.ts';
export { allMigrations } from './migrations.ts';
