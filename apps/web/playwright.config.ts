import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from './e2e/browser.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = join(webRoot, '..', '..');

// Several runs may share this machine and this checkout at once. Each run gets its own ports (two
// free ones, unless E2E_PORT / E2E_SHORT_TTL_PORT say otherwise) and its own results folder, so one
// run never meets another's servers or clears its traces. Set once on process.env: the runner
// loads this file first and its workers inherit the variables.
process.env.E2E_PORT ??= String(freePort());
process.env.E2E_SHORT_TTL_PORT ??= String(freePort());
process.env.E2E_RUN_ID ??= `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
// A second API whose access tokens last 5 seconds, for the silent-refresh test (auth-expiry.spec.ts).
const shortTtlPort = Number(process.env.E2E_SHORT_TTL_PORT);
const shortTtlURL = `http://127.0.0.1:${shortTtlPort}`;

/** A port nobody listens on now (asked of the system: a server on port 0, closed at once). */
function freePort(): number {
  const script = "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

// The servers' data directories. Set on process.env once (the runner loads this file first and its
// workers inherit the variables), so tests can read the outbox: see e2e/support/outbox.ts.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'tradie-e2e-'));
process.env.E2E_SHORT_TTL_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'tradie-e2e-ttl-'));
// Cheaper password hashes (scrypt N = 2^12 instead of 2^17) so that signing up a user per test
// stays fast on a busy machine; the hashing itself is covered by the API tests.
const passwordCost = '12';

// The real API serves the built app (dist/<route>/index.html, else dist/spa.html). Until the API's
// start script exists, a small server with the same contract stands in.
const apiStart = join(repoRoot, 'apps', 'api', 'src', 'start.ts');
const server = existsSync(apiStart)
  ? { command: 'node apps/api/src/start.ts', url: `${baseURL}/api/v1/health` }
  : { command: 'node apps/web/scripts/serve-dist.ts', url: `${baseURL}/` };

// The main server runs with a fake Stripe and a fake Xero on loopback (e2e/support/api-with-fakes.ts
// starts them, then the API in the same process; tests find them with e2e/support/fakes.ts). The
// secrets are fixed test values; the fakes' addresses are filled in by the launcher.
const fakesLauncher = { command: 'node apps/web/e2e/support/api-with-fakes.ts', url: server.url };
const fakeServicesEnv = {
  STRIPE_SECRET_KEY: 'sk_test_e2e_tradie',
  STRIPE_PRICE_ID: 'price_e2e_full_access',
  STRIPE_PRICE_ID_ANNUAL: 'price_e2e_full_access_annual',
  STRIPE_WEBHOOK_SECRET: 'whsec_e2e_tradie_webhook_secret',
  STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_e2e_tradie_connect_secret',
  XERO_CLIENT_ID: 'e2e-xero-client-id',
  XERO_CLIENT_SECRET: 'e2e-xero-client-secret',
  XERO_REDIRECT_URI: `${baseURL}/api/v1/integrations/xero/callback`,
  XERO_WEBHOOK_KEY: 'e2e-xero-webhook-key',
};

// The screen sizes: phone (390×844) is the main project and runs every behaviour test. The narrow
// phone (360×740) and desktop (1280×800) run only what checks layout: the accessibility sweep over
// every route (a11y.spec.ts) and the tests below, which look at a screen's layout at each size
// (matched by title; a test renamed away from this list still runs at phone size).
const layoutTests = [
  /a11y\.spec\.ts/,
  /the signed-in header fits the screen/,
  /long names and addresses never make the page scroll sideways/,
  /Edit on a card far down the list brings the form into view/,
  /a quote with three lines, a 25% margin and a template becomes a paid invoice/,
  /GST report for Q1/,
  /period shortcuts fill the dates; errors say what failed/,
  /Settings: every tab/,
  /Export for my accountant downloads one ZIP/,
  /Settings → Account: Delete my account/,
  /a template saved in one browser is there in another/,
  /Subscribe annually/,
];
// Checks that do not depend on the screen size run once, in the desktop project.
const desktopOnly = ['**/offline.spec.ts', '**/budget.spec.ts'];
// Runs once, at phone size: the fake Xero has one organisation, and Xero invoice numbers are unique
// in an organisation, so two screen sizes syncing their INV-0001 at once would meet there.
const phoneOnly = ['**/settings-xero.spec.ts', '**/xero-comes-back.spec.ts', '**/costs-to-xero.spec.ts'];
// Runs only against the short-token server.
const shortTtlOnly = ['**/auth-expiry.spec.ts'];
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  outputDir: `./test-output/results/${process.env.E2E_RUN_ID}`,
  fullyParallel: true,
  // Two browsers at once: a test spends most of its time waiting on the page and the API, so two
  // workers on this two-core machine finish the suite far sooner than one (E2E_WORKERS overrides).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  // Generous, as two workers share two cores with the API and the browsers: these are waits, and
  // a test that passes passes sooner. Timings are measured in the benchmarks, never here.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    launchOptions: chromiumLaunchOptions(),
    locale: 'en-NZ',
    timezoneId: 'Pacific/Auckland',
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'phone', testIgnore: [...desktopOnly, ...shortTtlOnly], use: phone },
    {
      name: 'desktop',
      testIgnore: [...shortTtlOnly, ...phoneOnly],
      grep: [...layoutTests, /offline\.spec\.ts/, /budget\.spec\.ts/],
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'narrow',
      testIgnore: [...desktopOnly, ...shortTtlOnly, ...phoneOnly],
      grep: layoutTests,
      use: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    },
    { name: 'phone-short-ttl', testMatch: shortTtlOnly, use: { ...phone, baseURL: shortTtlURL } },
    { name: 'desktop-short-ttl', testMatch: shortTtlOnly, use: { viewport: { width: 1280, height: 800 }, baseURL: shortTtlURL } },
  ],
  webServer: [
    {
      ...(existsSync(apiStart) ? fakesLauncher : server),
      cwd: repoRoot,
      env: { ...fakeServicesEnv, PORT: String(port), HOST: '127.0.0.1', APP_URL: baseURL, DATA_DIR: process.env.E2E_DATA_DIR, PASSWORD_COST: passwordCost, IP_LIMIT_MULTIPLIER: '1000' },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: server.command,
      url: server.url.replace(baseURL, shortTtlURL),
      cwd: repoRoot,
      env: { PORT: String(shortTtlPort), HOST: '127.0.0.1', APP_URL: shortTtlURL, DATA_DIR: process.env.E2E_SHORT_TTL_DATA_DIR, ACCESS_TOKEN_TTL_SECONDS: '5', PASSWORD_COST: passwordCost, IP_LIMIT_MULTIPLIER: '1000' },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
