// Configuration from the environment, parsed once at start-up (main.ts). Nothing else reads env.
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseTrustedProxies } from './security/clientIp.ts';

const optional = z.string().trim().optional().transform((v) => (v ? v : undefined));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optional,
  APP_URL: optional,
  /** Signs access tokens and download links, and encrypts stored provider tokens. Generated into DATA_DIR/app-secret when absent; required with DATABASE_URL (secrets.ts checkAppSecret). */
  APP_SECRET: optional,
  /** The secret before the last rotation: what it signed still verifies and what it encrypted still decrypts. */
  APP_SECRET_PREVIOUS: optional,
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  SMTP_URL: optional,
  MAIL_FROM: optional,
  /** Recipients (To, CC and BCC) an account may email per day: without an active paid subscription, and with one (documents/sendGuard.ts). */
  TRIAL_DAILY_RECIPIENTS: z.coerce.number().int().min(0).default(50),
  SEND_DAILY_RECIPIENTS: z.coerce.number().int().min(0).default(1000),
  XERO_CLIENT_ID: optional,
  XERO_CLIENT_SECRET: optional,
  XERO_REDIRECT_URI: optional,
  XERO_LOGIN_URL: optional,
  XERO_IDENTITY_URL: optional,
  XERO_API_URL: optional,
  XERO_SALES_ACCOUNT_CODE: optional,
  XERO_PAYMENTS_ACCOUNT_CODE: optional,
  /** The Xero app's webhook key: signs Xero's webhook deliveries (POST /integrations/xero/webhook). Unset: every delivery is refused (401). */
  XERO_WEBHOOK_KEY: optional,
  STRIPE_SECRET_KEY: optional,
  /** The monthly price (price_...), excluding GST. With STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET it turns billing on. */
  STRIPE_PRICE_ID: optional,
  /** The annual price (price_..., recurring yearly), excluding GST. Unset: only monthly billing is offered. Read by billing/routes.ts. */
  STRIPE_PRICE_ID_ANNUAL: optional.refine((v) => v === undefined || v.startsWith('price_'), 'must be a Stripe price id (price_...)'),
  /** The NZ GST Tax Rate (txr_..., 15 %, exclusive) added at checkout. Unset: one is created in Stripe once and remembered (billing/repository.ts). */
  STRIPE_TAX_RATE_ID: optional.refine((v) => v === undefined || v.startsWith('txr_'), 'must be a Stripe tax rate id (txr_...)'),
  STRIPE_WEBHOOK_SECRET: optional,
  /** The signing secret (whsec_...) of the Connect webhook endpoint (POST /api/v1/payments/webhook). With STRIPE_SECRET_KEY it turns clients' card payments on (payments/). */
  STRIPE_CONNECT_WEBHOOK_SECRET: optional,
  STRIPE_API_BASE: optional,
  WEB_DIST: optional,
  /** Comma-separated IP addresses of the reverse proxies in front of the API; only their X-Forwarded-For is believed. */
  TRUSTED_PROXIES: optional,
  /** Multiplies every per-IP limit (sign-up, sign-in, password reset): for an office or test rig whose users share one address. */
  IP_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(1_000_000).default(1),
  /** PDF worker threads at most (default: one fewer than the CPUs, 1–4), a render's time limit, and the cache of rendered PDFs. */
  PDF_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  PDF_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  PDF_CACHE_MB: z.coerce.number().min(0).default(32),
  LOG_LEVEL: z.enum(['silent', 'error', 'info']).default('info'),
  /** log2 of scrypt's N for password hashes (tests lower it). */
  PASSWORD_COST: z.coerce.number().int().min(10).max(20).optional(),
});

export type Env = z.output<typeof envSchema>;

/** A configuration the server must not start with; main.ts prints the message and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  appUrl: string;
  appSecret: string | undefined;
  appSecretPrevious: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  webDist: string;
  /** Peers whose X-Forwarded-For names the client (security/clientIp.ts). */
  trustedProxies: ReadonlySet<string>;
  /** The PDF worker pool (packages/pdf pool.ts) and the cache of rendered PDFs (documents/pdfCache.ts). */
  pdf: { threads: number | undefined; timeoutMs: number; cacheBytes: number };
  logLevel: Env['LOG_LEVEL'];
  env: Env;
}

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    appSecret: e.APP_SECRET,
    appSecretPrevious: e.APP_SECRET_PREVIOUS,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    webDist: resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    trustedProxies: parseTrustedProxies(e.TRUSTED_PROXIES),
    pdf: { threads: e.PDF_THREADS, timeoutMs: e.PDF_TIMEOUT_MS, cacheBytes: Math.round(e.PDF_CACHE_MB * 1024 * 1024) },
    logLevel: e.LOG_LEVEL,
    env: e,
  };
}
