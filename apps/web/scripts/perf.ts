/**
 * Web performance on a mid-range phone on slow 4G, measured in Debian's Chromium through Playwright:
 * 390×844, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, 4× CPU slowdown, cold cache (a new
 * browser per run, HTTP cache off, no service worker). Each figure is the median of `runs` runs.
 *
 * The landing page (`measureLandingPage`):
 *   web.landing.lcp                      Largest Contentful Paint, ms                    (budget ≤ 1500)
 *   web.landing.cls                      Cumulative Layout Shift                          (budget ≤ 0.02)
 *   web.landing.usable                   load event: the page is complete and every link works, ms
 *   web.landing.js_before_usable         gzip KB of JavaScript fetched before load        (budget ≤ 60)
 *   web.landing.js_total                 gzip KB of JavaScript including the idle-time hydration
 *   web.landing.js_total_save_data       the same with Save-Data on and the connection reported as
 *                                        3G: everything fetched by the time the network has been
 *                                        idle for 3 s (budget ≤ 60; the app waits for intent)
 *
 * The calculator after sign-in (`measureCalculator`, needs the API: a fresh account per run):
 *   web.calculator.usable                navigation start until the Generate button and the first
 *                                        line's inputs are on screen and enabled, ms     (budget ≤ 2500)
 *   web.calculator.js_initial            gzip KB of JavaScript fetched before usable      (budget ≤ 170)
 *   web.calculator.requests_before_usable  requests the page made before usable
 *
 * Typing a price on a 50-line and on a 200-line calculator (`measureCalculatorTyping`, CPU 4× slower;
 * the network does not take part): per keystroke, the Event Timing API's duration — key press until
 * the next frame is painted, what INP counts. The browser reports only interactions of 16 ms or more;
 * quicker ones count as 16. N is 50 or 200 (a big job: the budget holds there too):
 *   web.calculator.typing_N_lines.median   ms
 *   web.calculator.typing_N_lines.p95      ms                                              (budget ≤ 50)
 *   web.calculator.typing_N_lines.max      ms
 *   web.calculator.typing_N_lines.main_thread_cpu_per_key   the main-thread CPU a keystroke
 *                                        costs, traced at full speed (thread time: the machine's
 *                                        other work is not in it; × 4 is the phone's share)
 *
 * `npm run bench -- web` (apps/cli/src/bench/webBench.ts) starts the real API on the built app and
 * calls these. Run alone: `node apps/web/scripts/perf.ts [baseUrl]` — with the address of a running
 * app (e.g. `npm start`) it measures everything there; without one it serves apps/web/dist itself
 * and measures the landing page only (the calculator needs the API).
 */
import { chromium, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { serveDist } from './serve-dist.ts';

export interface PerfFigure {
  name: string;
  value: number;
  unit: string;
}

export interface PerfOptions {
  baseUrl: string;
  path?: string;
  runs?: number;
  env?: NodeJS.ProcessEnv;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface SignedInPerfOptions extends PerfOptions {
  /** For creating the accounts through the API (default: the global fetch). */
  fetch?: typeof globalThis.fetch;
}

export const slow4g = {
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
  cpuSlowdown: 4,
  viewport: { width: 390, height: 844 },
} as const;

const phoneContext = { viewport: slow4g.viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 2, serviceWorkers: 'block', locale: 'en-NZ', timezoneId: 'Pacific/Auckland' } as const;

// ---------------------------------------------------------------------------------------------
// Shared pieces: a throttled page, and the JavaScript it fetched (gzip -9 of the bytes served).
// ---------------------------------------------------------------------------------------------

interface ScriptTracker {
  /** url → gzip -9 bytes of the body. */
  sizes: Map<string, number>;
  /** url → fetched before the mark. */
  beforeMark: Set<string>;
  mark: () => void;
  settled: () => Promise<void>;
}

async function trackScripts(cdp: CDPSession): Promise<ScriptTracker> {
  const sizes = new Map<string, number>();
  const beforeMark = new Set<string>();
  const scripts = new Map<string, string>();
  const pending: Array<Promise<void>> = [];
  let marked = false;
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') {
      scripts.set(event.requestId, event.response.url);
      if (!marked) beforeMark.add(event.response.url);
    }
  });
  cdp.on('Network.loadingFinished', (event) => {
    const url = scripts.get(event.requestId);
    if (!url) return;
    pending.push(
      cdp
        .send('Network.getResponseBody', { requestId: event.requestId })
        .then(({ body, base64Encoded }) => {
          sizes.set(url, gzipSync(Buffer.from(body, base64Encoded ? 'base64' : 'utf8'), { level: 9 }).length);
        })
        .catch(() => undefined),
    );
  });
  await cdp.send('Network.enable');
  return {
    sizes,
    beforeMark,
    mark: () => {
      marked = true;
    },
    settled: async () => {
      await Promise.all(pending);
    },
  };
}

async function throttle(cdp: CDPSession, network = true): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (network) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: slow4g.latencyMs,
      downloadThroughput: slow4g.downloadBitsPerSecond / 8,
      uploadThroughput: slow4g.uploadBitsPerSecond / 8,
    });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slow4g.cpuSlowdown });
}

async function withPhone<T>(env: NodeJS.ProcessEnv, fn: (context: BrowserContext, page: Page) => Promise<T>): Promise<T> {
  const browser = await chromium.launch(chromiumLaunchOptions(env));
  try {
    const context = await browser.newContext(phoneContext);
    return await fn(context, await context.newPage());
  } finally {
    await browser.close();
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const sumOf = (sizes: Map<string, number>, urls: Iterable<string>) => [...urls].reduce((total, url) => total + (sizes.get(url) ?? 0), 0);

// ---------------------------------------------------------------------------------------------
// The landing page.
// ---------------------------------------------------------------------------------------------

interface LandingRun {
  lcp: number;
  cls: number;
  usable: number;
  jsBeforeUsable: number;
  jsTotal: number;
}

const observeVitals = () => {
  const w = window as unknown as { __vitals: { lcp: number; cls: number } };
  w.__vitals = { lcp: 0, cls: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__vitals.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
      if (!entry.hadRecentInput) w.__vitals.cls += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

/** navigator.connection as Chromium reports it with Save-Data on, on a 3G connection. */
const saveDataConnection = () => {
  const connection = Object.assign(new EventTarget(), { saveData: true, effectiveType: '3g', downlink: 0.4, rtt: 400, type: 'cellular' });
  Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection });
};

async function landingRun(baseUrl: string, path: string, env: NodeJS.ProcessEnv, saveData = false): Promise<LandingRun> {
  return withPhone(env, async (context, page) => {
    await page.addInitScript(observeVitals);
    if (saveData) {
      await page.addInitScript(saveDataConnection);
      await context.setExtraHTTPHeaders({ 'Save-Data': 'on' });
    }
    const cdp = await context.newCDPSession(page);
    const scripts = await trackScripts(cdp);
    await throttle(cdp);

    await page.goto(new URL(path, baseUrl).href, { waitUntil: 'load' });
    scripts.mark();
    const usable = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return nav ? nav.loadEventStart : 0;
    });
    if (saveData) {
      // Nothing should follow; whatever does is counted.
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(3000);
    } else {
      // Let the idle-time hydration finish, so its layout shifts (if any) and bytes are counted.
      await page.waitForSelector('html[data-hydrated="true"]', { timeout: 60_000 }).catch(() => undefined);
      await page.waitForTimeout(1000);
    }
    await scripts.settled();
    const vitals = await page.evaluate(() => (window as unknown as { __vitals: { lcp: number; cls: number } }).__vitals);
    return { lcp: vitals.lcp, cls: vitals.cls, usable, jsBeforeUsable: sumOf(scripts.sizes, scripts.beforeMark), jsTotal: sumOf(scripts.sizes, scripts.sizes.keys()) };
  });
}

export async function measureLandingPage({ baseUrl, path = '/', runs = 3, env = process.env, log = () => undefined }: PerfOptions): Promise<PerfFigure[]> {
  const results: LandingRun[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await landingRun(baseUrl, path, env);
    log(`landing run ${i + 1}/${runs}: lcp ${Math.round(r.lcp)} ms, cls ${r.cls.toFixed(3)}, js before usable ${kb(r.jsBeforeUsable)} KB`);
    results.push(r);
  }
  const pick = (key: keyof LandingRun) => median(results.map((r) => r[key]));
  const saveData: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await landingRun(baseUrl, path, env, true);
    log(`landing run ${i + 1}/${runs} with Save-Data: js ${kb(r.jsTotal)} KB`);
    saveData.push(r.jsTotal);
  }
  return [
    { name: 'web.landing.lcp', value: Math.round(pick('lcp')), unit: 'ms' },
    { name: 'web.landing.cls', value: Math.round(pick('cls') * 1000) / 1000, unit: 'score' },
    { name: 'web.landing.usable', value: Math.round(pick('usable')), unit: 'ms' },
    { name: 'web.landing.js_before_usable', value: kb(pick('jsBeforeUsable')), unit: 'KB gzip' },
    { name: 'web.landing.js_total', value: kb(pick('jsTotal')), unit: 'KB gzip' },
    { name: 'web.landing.js_total_save_data', value: kb(median(saveData)), unit: 'KB gzip' },
  ];
}

// ---------------------------------------------------------------------------------------------
// Signed in: a fresh account per run, its tokens in localStorage before the first page script.
// ---------------------------------------------------------------------------------------------

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

async function createAccount(baseUrl: string, fetchFn: typeof globalThis.fetch): Promise<Tokens> {
  const email = `perf-${randomUUID()}@example.co.nz`;
  const password = 'correct horse battery';
  const post = async (path: string, body: unknown, expected: number) => {
    const res = await fetchFn(new URL(`/api/v1${path}`, baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`POST ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  await post('/auth/register', { email, password, full_name: 'Perf Tradie' }, 201);
  const login = await post('/auth/login', { email, password }, 200);
  return { accessToken: String(login.access_token), refreshToken: String(login.refresh_token) };
}

async function signIn(page: Page, tokens: Tokens, template?: string): Promise<void> {
  await page.addInitScript(
    ([access, refresh, handover]) => {
      window.localStorage.setItem('access_token', access);
      window.localStorage.setItem('refresh_token', refresh);
      if (handover) window.localStorage.setItem('loadTemplate', handover);
    },
    [tokens.accessToken, tokens.refreshToken, template ?? ''] as const,
  );
}

/**
 * In the page, before any of its scripts: the moment (performance.now()) the calculator became
 * usable — the Generate button and line 1's description, qty and price inputs are in the document,
 * visible and enabled. Checked on every DOM change; the time is taken in the next animation frame,
 * so it is the frame that shows them.
 */
const watchCalculatorUsable = () => {
  const w = window as unknown as { __usableAt?: number };
  const ready = (el: Element | null) => el instanceof HTMLElement && !(el as HTMLInputElement | HTMLButtonElement).disabled && el.getClientRects().length > 0;
  const usable = () => {
    const generate = [...document.querySelectorAll('button')].find((b) => /^Generate (Quote|Invoice)$/.test(b.textContent?.trim() ?? ''));
    const first = document.querySelector('.calc-line');
    return ready(generate ?? null) && first !== null && ready(first.querySelector('input[id$="-description"]')) && ready(first.querySelector('input[id$="-qty"]')) && ready(first.querySelector('input[id$="-price"]'));
  };
  const observer = new MutationObserver(() => {
    if (w.__usableAt === undefined && usable()) {
      observer.disconnect();
      requestAnimationFrame(() => {
        w.__usableAt = performance.now();
      });
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
};

interface CalculatorRun {
  usable: number;
  jsInitial: number;
  requests: number;
}

async function calculatorRun(baseUrl: string, env: NodeJS.ProcessEnv, fetchFn: typeof globalThis.fetch): Promise<CalculatorRun> {
  const tokens = await createAccount(baseUrl, fetchFn);
  return withPhone(env, async (context, page) => {
    await signIn(page, tokens);
    await page.addInitScript(watchCalculatorUsable);
    const cdp = await context.newCDPSession(page);
    const scripts = await trackScripts(cdp);
    await throttle(cdp);

    await page.goto(new URL('/app/calculator', baseUrl).href, { waitUntil: 'commit' });
    const usable = await page.waitForFunction(() => (window as unknown as { __usableAt?: number }).__usableAt, undefined, { timeout: 60_000, polling: 100 }).then((h) => h.jsonValue() as Promise<number>);
    if (!page.url().endsWith('/app/calculator')) throw new Error(`expected the calculator, got ${page.url()}`);
    // What the page had asked for before it was usable: the Resource Timing entries that started
    // before that moment (the scripts are matched by URL to their bytes, collected over CDP).
    const before = await page.evaluate((at) => performance.getEntriesByType('resource').filter((e) => e.startTime <= at).map((e) => e.name), usable);
    scripts.mark();
    await page.waitForTimeout(500);
    await scripts.settled();
    const beforeSet = new Set(before);
    const js = [...scripts.sizes.keys()].filter((url) => beforeSet.has(url));
    return { usable, jsInitial: sumOf(scripts.sizes, js), requests: before.length + 1 };
  });
}

export async function measureCalculator({ baseUrl, runs = 3, env = process.env, fetch: fetchFn = globalThis.fetch, log = () => undefined }: SignedInPerfOptions): Promise<PerfFigure[]> {
  const results: CalculatorRun[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await calculatorRun(baseUrl, env, fetchFn);
    log(`calculator run ${i + 1}/${runs}: usable ${Math.round(r.usable)} ms, initial js ${kb(r.jsInitial)} KB, ${r.requests} requests`);
    results.push(r);
  }
  const pick = (key: keyof CalculatorRun) => median(results.map((r) => r[key]));
  return [
    { name: 'web.calculator.usable', value: Math.round(pick('usable')), unit: 'ms' },
    { name: 'web.calculator.js_initial', value: kb(pick('jsInitial')), unit: 'KB gzip' },
    { name: 'web.calculator.requests_before_usable', value: pick('requests'), unit: 'requests' },
  ];
}

// ---------------------------------------------------------------------------------------------
// Typing on a long calculator.
// ---------------------------------------------------------------------------------------------

/** Lines handed over as a template (the way the Templates tab opens the calculator). */
export function templateOf(count: number): string {
  const lineItems = Array.from({ length: count }, (_, i) => ({ description: `Item ${i + 1}`, qty: 1 + (i % 3), unit_price: 10 + i, tax_included: false, tax_rate: 0.15 }));
  return JSON.stringify({ id: 1, name: `${count} lines`, type: 'quote', lineItems, profitMarginPercent: 25, includeGst: true, clientData: null, createdAt: '2026-05-05T00:00:00.000Z' });
}

const observeInteractions = () => {
  const byInteraction = new Map<number, number>();
  (window as unknown as { __interactions: Map<number, number> }).__interactions = byInteraction;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEventTiming[]) {
      if (e.interactionId && e.name.startsWith('key')) byInteraction.set(e.interactionId, Math.max(byInteraction.get(e.interactionId) ?? 0, e.duration));
    }
  }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
};

/** The keystrokes typed per run: a price into three lines spread over the document. */
const TYPED = '123.45';

interface TypingRun {
  /** Input-to-paint per keystroke, ms (Event Timing, CPU 4× slower). */
  samples: number[];
  /** The page's main-thread CPU time per keystroke, ms, traced with no slowdown (thread time, so what the rest of a busy machine does is left out). */
  cpuPerKey: number;
}

/** CPU time (thread time, ms) of the top-level tasks on the renderer's main thread in a Chromium trace. */
export function mainThreadCpuMs(trace: Buffer): number {
  type TraceEvent = { name: string; ph: string; tid: number; pid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string } };
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && mains.has(`${e.pid}:${e.tid}`)).sort((a, b) => a.ts - b.ts);
  // Top-level tasks only (a task run inside another is already in its time).
  let end = -Infinity;
  let total = 0;
  for (const task of tasks) {
    if (task.ts < end) continue;
    end = task.ts + (task.dur ?? 0);
    total += task.tdur ?? 0;
  }
  return total / 1000;
}

async function typingRun(baseUrl: string, count: number, env: NodeJS.ProcessEnv, fetchFn: typeof globalThis.fetch): Promise<TypingRun> {
  const tokens = await createAccount(baseUrl, fetchFn);
  return withPhone(env, async (context, page) => {
    await signIn(page, tokens, templateOf(count));
    await page.goto(new URL('/app/calculator', baseUrl).href);
    const rows = [Math.ceil(count / 4), Math.ceil(count / 2), count];
    const last = page.getByLabel(`Line ${count} Unit price`, { exact: true });
    await last.waitFor({ timeout: 60_000 });
    if ((await last.inputValue()) !== String(10 + count - 1)) throw new Error(`the ${count}-line template did not load`);
    const cdp = await context.newCDPSession(page);
    await throttle(cdp, false);
    await page.evaluate(observeInteractions);
    for (const row of rows) {
      const price = page.getByLabel(`Line ${row} Unit price`, { exact: true });
      await price.click();
      await price.selectText();
      await page.keyboard.type(TYPED, { delay: 150 });
    }
    // The last entries are reported after their frame is painted.
    await page.waitForTimeout(1000);
    const reported = await page.evaluate(() => [...(window as unknown as { __interactions: Map<number, number> }).__interactions.values()]);

    // The CPU a keystroke costs, from a trace of the same typing at full speed (thread time: what the
    // rest of the machine does is not in it; the slowdown would be, so it is off here).
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const browser = page.context().browser();
    if (!browser) throw new Error('no browser');
    const traced = page.getByLabel(`Line ${rows[0]! + 1} Unit price`, { exact: true });
    await traced.click();
    await traced.selectText();
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] });
    await page.keyboard.type(TYPED, { delay: 150 });
    await page.waitForTimeout(300);
    const cpu = mainThreadCpuMs(await browser.stopTracing());
    // Keystrokes under 16 ms are not reported: they count as 16. (Only key presses are kept: the
    // click that focuses the field and the selection of its text are not key presses.)
    const keystrokes = rows.length * TYPED.length;
    return { samples: [...reported, ...Array<number>(Math.max(0, keystrokes - reported.length)).fill(16)], cpuPerKey: cpu / TYPED.length };
  });
}

export async function measureCalculatorTyping({ baseUrl, runs = 3, env = process.env, fetch: fetchFn = globalThis.fetch, log = () => undefined, lines = 50 }: SignedInPerfOptions & { lines?: number }): Promise<PerfFigure[]> {
  const all: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { samples, cpuPerKey } = await typingRun(baseUrl, lines, env, fetchFn);
    log(`typing run ${i + 1}/${runs} (${lines} lines): median ${median(samples)} ms, max ${Math.max(...samples)} ms over ${samples.length} keystrokes; main thread ${cpuPerKey.toFixed(1)} ms CPU a keystroke`);
    all.push(...samples);
    cpu.push(cpuPerKey);
  }
  const name = `web.calculator.typing_${lines}_lines`;
  return [
    { name: `${name}.median`, value: median(all), unit: 'ms' },
    { name: `${name}.p95`, value: percentile(all, 95), unit: 'ms' },
    { name: `${name}.max`, value: Math.max(...all), unit: 'ms' },
    { name: `${name}.main_thread_cpu_per_key`, value: Math.round(median(cpu) * 10) / 10, unit: 'ms (thread time, no slowdown)' },
  ];
}

/** Everything above, against a running app (the API serving the built web app). */
export async function measureWeb(options: SignedInPerfOptions): Promise<PerfFigure[]> {
  return [
    ...(await measureLandingPage(options)),
    ...(await measureCalculator(options)),
    ...(await measureCalculatorTyping(options)),
    ...(await measureCalculatorTyping({ ...options, lines: 200 })),
  ];
}

if (import.meta.url === new URL(`file://${process.argv[1] ?? ''}`).href) {
  const baseUrl = process.argv[2];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (baseUrl) {
    for (const figure of await measureWeb({ baseUrl, log })) console.log(JSON.stringify(figure));
  } else {
    const server = await serveDist(fileURLToPath(new URL('../dist', import.meta.url)), 0);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const figure of await measureLandingPage({ baseUrl: url, log })) console.log(JSON.stringify(figure));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}
