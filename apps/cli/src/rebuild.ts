// npm run projections:rebuild [-- --database-url postgres://… | --data-dir DIR]
// Rebuilds every read model (documents_list, clients, the report tables, reminder_targets) from the
// event log in one transaction, then prints how many streams and events it folded. Uses the API's
// configuration (DATABASE_URL, or PGlite in DATA_DIR/db — stop the server first: the directory is
// locked to one process).
import { parseArgs } from 'node:util';
import { allMigrations, loadConfig } from '@tradie/api';
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';

const { values } = parseArgs({ options: { 'database-url': { type: 'string' }, 'data-dir': { type: 'string' } } });
const config = loadConfig({
  ...process.env,
  ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}),
  ...(values['data-dir'] ? { DATA_DIR: values['data-dir'] } : {}),
});
const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : `${config.dataDir}/db` }, projections, allMigrations);
try {
  const t0 = performance.now();
  const r = await store.rebuildProjections();
  const seconds = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ rebuilt: projections.map((p) => p.name), streams: r.streams, events: r.events, seconds: Number(seconds.toFixed(2)) }));
} finally {
  await store.close();
}
