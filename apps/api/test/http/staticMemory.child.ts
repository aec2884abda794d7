// Run by static.int.spec.ts in a child process (node --expose-gc): asks the static handler for
// different paths that do not exist — long ones, as an attacker would send them — and prints what
// the process holds afterwards as JSON. A first round of the same size warms the process up (V8's
// heap and the allocator reach their working size); the second round is the one measured, so
// the figure is what the requests keep, not what handling any request costs once.
import { Hono } from 'hono';
import { createStaticHandler } from '../../src/http/static.ts';

const [dist, countArg] = process.argv.slice(2);
if (!dist) throw new Error('usage: staticMemory.child.ts DIST [COUNT]');
const count = Number(countArg ?? 20_000);
const app = new Hono();
app.get('*', createStaticHandler(dist));

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const settle = (): NodeJS.MemoryUsage => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage();
};

const filler = 'x'.repeat(3000);
const statuses = new Map<number, number>();
async function round(tag: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    // Three shapes: a hashed asset, a file with an extension, and a page route (the SPA shell).
    const path = i % 3 === 0 ? `/assets/${filler}-${tag}${i}.js` : i % 3 === 1 ? `/${filler}-${tag}${i}.png` : `/app/${filler}/${tag}${i}`;
    const res = await app.request(path);
    await res.arrayBuffer();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
}

await round('warm-');
const before = settle();
await round('measured-');
const after = settle();
process.stdout.write(JSON.stringify({ count, statuses: Object.fromEntries(statuses), rssBefore: before.rss, rssAfter: after.rss, heapBefore: before.heapUsed, heapAfter: after.heapUsed }) + '\n');
