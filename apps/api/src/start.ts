// `npm start`: builds the web app when its build is missing or older than its sources, then
// starts the server. A fresh clone works after `npm ci && npm start`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const web = join(root, 'apps/web');
const dist = join(web, 'dist');

function newest(dir: string): number {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'test-output' || entry.name === 'e2e') continue;
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = [
  join(web, 'src'), join(web, 'public'), join(web, 'scripts'), join(web, 'spa.html'), join(web, 'public.html'), join(web, 'vite.config.ts'),
  join(web, 'package.json'), join(root, 'packages/domain/src'), join(root, 'packages/contracts/src'),
];
const built = existsSync(join(dist, 'spa.html')) ? statSync(join(dist, 'spa.html')).mtimeMs : 0;
const latest = Math.max(...sources.filter(existsSync).map((p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs)));
if (!process.env.WEB_DIST && (built === 0 || latest > built)) {
  console.error(built === 0 ? 'Building the web app (first start)…' : 'The web app changed since it was built; rebuilding…');
  const r = spawnSync('npm', ['run', 'build', '-w', '@tradie/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// A configuration mistake (a missing or weak APP_SECRET, …) ends it with one line saying what to change, exit 1.
const { runFromCommandLine } = await import('./main.ts');
await runFromCommandLine();
