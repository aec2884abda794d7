// The composition root: configuration → real adapters → the app → an HTTP server. Only this
// file (and start.ts) touch the environment and the real clock.
import { serve, type ServerType } from '@hono/node-server';
import { createPdfPool } from '@tradie/pdf';
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';
import { v7 as uuidv7 } from 'uuid';
import { xeroFromConfig } from './integrations/xero/fromConfig.ts';
import { createApp } from './app.ts';
import { schedulePruning } from './maintenance/prune.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { systemClock, type AppDeps } from './deps.ts';
import { billingFromEnv } from './integrations/stripe/index.ts';
import { connectFromEnv } from './integrations/stripe/connect.ts';
import { createLogger } from './log.ts';
import { mailerFromEnv } from './mail/index.ts';
import { allMigrations } from './migrations.ts';
import { outboxWriter, scheduleReactions } from './reactions/outbox.ts';
import { scheduleReminderRuns } from './reminders/runner.ts';
import { xeroCallBudget } from './integrations/xero/callBudget.ts';
import { scheduleXeroPoll } from './integrations/xero/poll.ts';
import { scheduleRecurringCosts } from './costs/recurring.ts';
import { checkAppSecret, loadSecrets } from './appKeys.ts';

/** How long an idle keep-alive connection stays open: longer than a proxy in front keeps its own. */
export const KEEP_ALIVE_MS = 65_000;

export interface RunningServer {
  url: string;
  deps: AppDeps;
  close(): Promise<void>;
}

export async function buildDeps(config: Config): Promise<AppDeps> {
  const log = createLogger(config.logLevel);
  // Refused before anything is opened: no server signs with a missing, short or weak APP_SECRET.
  const problem = checkAppSecret(config);
  if (problem) throw new ConfigError(problem);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : `${config.dataDir}/db` }, projections, allMigrations, {
    // Reactions to events (reactions/registry.ts) are stored in the events' own transaction.
    eventRows: outboxWriter(),
  });
  const secrets = await loadSecrets(store.db, config, log).catch(async (e: unknown) => {
    await store.close();
    throw e;
  });
  return {
    config,
    store,
    clock: systemClock,
    ids: { uuid: () => uuidv7() },
    mailer: mailerFromEnv({ SMTP_URL: config.env.SMTP_URL }, { dataDir: config.dataDir, now: () => systemClock.now() }),
    secrets,
    log,
    // Each Xero organisation's calls counted in the database, shared by every process (callBudget.ts).
    accounting: xeroFromConfig(config, systemClock, { fetch: globalThis.fetch, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), budget: xeroCallBudget(() => store.db, () => systemClock.now()) }),
    billing: billingFromEnv(
      {
        STRIPE_SECRET_KEY: config.env.STRIPE_SECRET_KEY,
        STRIPE_PRICE_ID: config.env.STRIPE_PRICE_ID,
        STRIPE_WEBHOOK_SECRET: config.env.STRIPE_WEBHOOK_SECRET,
        STRIPE_API_BASE: config.env.STRIPE_API_BASE,
      },
      { now: () => systemClock.now() },
    ),
    connect: connectFromEnv(
      { STRIPE_SECRET_KEY: config.env.STRIPE_SECRET_KEY, STRIPE_CONNECT_WEBHOOK_SECRET: config.env.STRIPE_CONNECT_WEBHOOK_SECRET, STRIPE_API_BASE: config.env.STRIPE_API_BASE },
      { now: () => systemClock.now() },
    ),
  };
}

export async function startServer(config: Config = loadConfig()): Promise<RunningServer> {
  const deps = await buildDeps(config);
  // PDFs render on worker threads, with a time limit (packages/pdf pool.ts).
  const pdfPool = createPdfPool({ threads: config.pdf.threads, timeoutMs: config.pdf.timeoutMs });
  deps.renderPdf ??= (input) => pdfPool.render(input);
  const app = createApp(deps);
  // Tokens, throttle rows and idempotency keys that can no longer change an answer: at start-up and hourly.
  const stopPruning = schedulePruning(deps);
  // Reactions a crash left behind, and failed ones due again (routes run their own at once).
  const stopReactions = scheduleReactions(deps);
  // Payment reminders that are due, from any number of API processes (reminders/sender.ts).
  const stopReminders = scheduleReminderRuns(deps);
  // What Xero's webhooks missed: invoices changed there since the last poll (integrations/xero/poll.ts).
  const stopXeroPoll = scheduleXeroPoll(deps);
  // Repeating expenses' costs on their days (costs/recurring.ts).
  const stopRecurring = scheduleRecurringCosts(deps);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  // An idle keep-alive connection is kept longer than the proxies in front keep theirs (60 s is
  // common), so the server never closes one just as a request is sent down it: that race is a
  // reset connection for the phone, seen as 'socket hang up'. Headers must outlast it.
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  }
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = `http://localhost:${port}`;
  deps.log('info', `Tradie Quotes is running on ${url} (${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`})`);
  // PGlite has no autovacuum: refresh the planner's statistics every hour as the books grow.
  const analyze = deps.store.db.kind === 'pglite'
    ? setInterval(() => void deps.store.db.exec('ANALYZE').catch((e: unknown) => deps.log('error', 'ANALYZE failed', { error: String(e) })), 3_600_000)
    : undefined;
  analyze?.unref();
  let closing: Promise<void> | undefined;
  return {
    url,
    deps,
    close() {
      closing ??= (async () => {
        clearInterval(analyze);
        stopPruning();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await stopReactions();
        await stopReminders();
        await stopXeroPoll();
        await stopRecurring();
        await pdfPool.close();
        await deps.mailer.close();
        await deps.store.close();
      })();
      return closing;
    },
  };
}

/**
 * `npm start` (start.ts) and `node main.ts`: the server until SIGINT or SIGTERM. A configuration it
 * must not start with (ConfigError: an invalid variable, a missing or weak APP_SECRET) is logged
 * as one line saying what to change, and the process exits 1.
 */
export async function runFromCommandLine(): Promise<RunningServer> {
  let running: RunningServer;
  try {
    running = await startServer();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    createLogger('error')('error', `Tradie Quotes cannot start: ${e.message}`);
    process.exit(1);
  }
  const stop = (signal: string): void => {
    running.deps.log('info', `${signal}: shutting down`);
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return running;
}

if (import.meta.main) await runFromCommandLine();
