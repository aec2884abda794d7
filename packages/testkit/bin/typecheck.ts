// Type-checks every workspace with its own tsconfig (the web app has DOM types, the rest Node's).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['packages/domain', 'packages/contracts', 'packages/store', 'packages/projections', 'packages/pdf', 'packages/testkit', 'apps/api', 'apps/cli', 'apps/web'];
const tsc = join(process.cwd(), 'node_modules', '.bin', 'tsc');
let failed = 0;
for (const root of roots) {
  if (!existsSync(join(root, 'tsconfig.json'))) continue;
  const r = spawnSync(tsc, ['-p', root, '--pretty'], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`typecheck failed in ${root}`);
  }
}
process.exit(failed ? 1 : 0);
