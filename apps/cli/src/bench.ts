// npm run bench [-- name-prefix…]: every benchmark, one JSON line per figure
// {"name","value","unit"}. Budgets and recorded figures: docs/performance.md.
import { domainFigures } from './bench/domainBench.ts';
import type { Figure } from './bench/figures.ts';
import { storeFigures } from './bench/storeBench.ts';

const suites: [string, () => Promise<Figure[]>][] = [
  ['domain', domainFigures],
  ['store', storeFigures],
];

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const [name, run] of suites) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o) || o.startsWith(name))) continue;
  try {
    for (const f of await run()) {
      if (only.length > 0 && !only.some((o) => f.name.startsWith(o) || o.startsWith(name))) continue;
      console.log(JSON.stringify(f));
    }
  } catch (e) {
    console.error(`bench ${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  }
}
