// npm run bench [-- suite…]: every benchmark, one JSON line per figure {"name","value","unit"}.
// Suites: domain, store, store-ratio, pdf, pdfload, auth, documents, reports, price-book, job-profit, receipt, reminders, web, load. Budgets and the
// recorded figures: docs/performance.md. Progress goes to stderr, figures to stdout.
import { startPostgres, createDatabase } from '@tradie/testkit/postgres-server';
import { authFigures } from './bench/authBench.ts';
import { benchDocumentList } from './bench/documentListBench.ts';
import { domainFigures } from './bench/domainBench.ts';
import type { Figure } from './bench/figures.ts';
import { loadFigures } from './bench/loadBench.ts';
import { pdfFigures } from './bench/pdfBench.ts';
import { pdfLoadFigures } from './bench/pdfLoadBench.ts';
import { benchPriceBook } from './bench/priceBookBench.ts';
import { benchJobProfit } from './bench/jobProfitBench.ts';
import { benchReports } from './bench/reportsBench.ts';
import { receiptFigures } from './bench/receiptBench.ts';
import { remindersFigures } from './bench/remindersBench.ts';
import { storeFigures } from './bench/storeBench.ts';
import { storeRatioFigures } from './bench/storeRatio/storeRatioBench.ts';
import { webFigures } from './bench/webBench.ts';

/** Runs `fn` against a throw-away PostgreSQL server. */
async function withPostgres<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const server = await startPostgres();
  try {
    return await fn(await createDatabase(server.url, 'bench'));
  } finally {
    await server.stop();
  }
}

const suites: [string, () => Promise<Figure[]>][] = [
  ['domain', domainFigures],
  ['store', storeFigures],
  // The payment command against a replay of its own SQL (and of the SQL before the one-statement
  // write), alternating in one run: ratios. A few minutes.
  ['store-ratio', storeRatioFigures],
  ['pdf', pdfFigures],
  // 4 clients downloading 500-line PDFs while /health is timed: 2 × 15 s (PDFLOAD_SECONDS).
  ['pdfload', () => pdfLoadFigures()],
  // What a password guess costs: a made-up reset token against one scrypt hash, and a 40-guess burst.
  ['auth', () => authFigures()],
  ['documents', async () => [...(await benchDocumentList()), ...(await withPostgres((databaseUrl) => benchDocumentList({ databaseUrl })))]],
  ['reports', async () => [...(await benchReports()), ...(await withPostgres((databaseUrl) => benchReports({ databaseUrl })))]],
  // A 20,000-row supplier price list imported and imported again, and search as you type over it (PGlite).
  ['price-book', () => benchPriceBook()],
  // A job with 2,000 costs and 200 hours entries: its real profit (GET /jobs/{quoteId}/profit) on PGlite.
  ['job-profit', () => benchJobProfit()],
  // A 12-megapixel phone photo of a receipt re-encoded as it is kept (the API's prepareReceipt).
  ['receipt', () => receiptFigures()],
  // The payment reminders' scheduling pass over 10,000 open invoices.
  ['reminders', () => remindersFigures()],
  ['web', () => webFigures()],
  // 50 users × 60 s against a real API process on each database: a few minutes (LOAD_USERS, LOAD_SECONDS).
  ['load', () => loadFigures()],
];

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const [name, run] of suites) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}\n`);
  try {
    for (const f of await run()) console.log(JSON.stringify(f));
  } catch (e) {
    console.error(`bench ${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  }
}
