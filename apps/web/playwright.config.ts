import { defineConfig } from '@playwright/test';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from './e2e/browser.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = join(webRoot, '..', '..');
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;

// The real API serves the built app (dist/<route>/index.html, else dist/spa.html). Until the API's
// start script exists, a small server with the same contract stands in.
const apiStart = join(repoRoot, 'apps', 'api', 'src', 'start.ts');
const server = existsSync(apiStart)
  ? { command: 'node apps/api/src/start.ts', url: `${baseURL}/api/v1/health` }
  : { command: 'node apps/web/scripts/serve-dist.ts', url: `${baseURL}/` };

// Checks that do not depend on the screen size run once, in the desktop project.
const desktopOnly = ['**/offline.spec.ts', '**/budget.spec.ts'];

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  outputDir: './test-output/results',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  use: {
    baseURL,
    launchOptions: chromiumLaunchOptions(),
    locale: 'en-NZ',
    timezoneId: 'Pacific/Auckland',
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'phone', testIgnore: desktopOnly, use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    { name: 'narrow', testIgnore: desktopOnly, use: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  ],
  webServer: {
    ...server,
    cwd: repoRoot,
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'tradie-e2e-')) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
