// npm run bench -- web: the web budget (docs/performance.md, Web) on the real server. Starts the API
// (PGlite in a temporary data directory) serving the built app (apps/web/dist, built first when it
// is missing or older than its sources), then measures in Debian's Chromium on an emulated phone on
// slow 4G with apps/web/scripts/perf.ts: the landing page, the calculator after sign-in, typing on
// a 50-line calculator. The machine's load average is printed before and after, because the
// figures are wall-clock times on a shared machine.
import { loadConfig, startServer } from '@tradie/api';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Figure } from './figures.ts';

const root = resolve(import.meta.dirname, '../../../..');
const web = join(root, 'apps/web');
const dist = join(web, 'dist');

/** The perf module's shape. Imported by a computed path so the CLI's type check stays out of the web sources (DOM types). */
interface PerfModule {
  measureWeb(options: { baseUrl: string; runs?: number; log?: (line: string) => void }): Promise<Figure[]>;
}

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'test-output') continue;
    t = Math.max(t, newest(join(path, entry)));
  }
  return t;
}

/** Builds the web app when dist is missing or older than what it is built from. */
export function ensureWebBuild(log: (line: string) => void): void {
  const built = existsSync(join(dist, 'spa.html')) ? statSync(join(dist, 'spa.html')).mtimeMs : 0;
  const sources = ['src', 'public', 'scripts/prerender.ts', 'spa.html', 'public.html', 'vite.config.ts', 'package.json'].map((p) => join(web, p));
  const latest = Math.max(...sources.map(newest), newest(join(root, 'packages/domain/src')), newest(join(root, 'packages/contracts/src')));
  if (built !== 0 && built >= latest) return;
  log(built === 0 ? 'web: building apps/web (no dist yet)' : 'web: apps/web changed since its build; rebuilding');
  const r = spawnSync('npm', ['run', 'build', '-w', '@tradie/web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`npm run build -w @tradie/web failed (${r.status})`);
}

const load = (): Figure => ({ name: 'web.machine.load1', value: Number(loadavg()[0]!.toFixed(2)), unit: 'load average (1 min)' });

export async function webFigures({ runs = 3, log = (line: string) => void process.stderr.write(`${line}\n`) } = {}): Promise<Figure[]> {
  ensureWebBuild(log);
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-bench-web-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: dist, LOG_LEVEL: 'error', PASSWORD_COST: '12' });
  const server = await startServer(config);
  try {
    const baseUrl = server.url.replace('localhost', '127.0.0.1');
    const perf = (await import(join(web, 'scripts', 'perf.ts'))) as PerfModule;
    const before = load();
    const figures = await perf.measureWeb({ baseUrl, runs, log });
    return [{ ...before, name: 'web.machine.load1.before' }, ...figures, { ...load(), name: 'web.machine.load1.after' }];
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
