// npm run bench -- pdfload: does a PDF stall everyone else? A real API process (a child process, so
// the clients' own work is not on its thread) on loopback with PGlite,
// 4 clients downloading the PDF of a 500-line invoice in a loop while one client asks
// /api/v1/health every 20 ms. Figure: the health check's p95 (budget < 50 ms), with the PDF cache
// off (PDF_CACHE_MB=0, every download rendered) and on (repeat downloads from the cache), and the
// PDF downloads' own p95 and count.
import { rmSync } from 'node:fs';
import { startApiProcess } from '../load/server.ts';
import { type Figure, percentile, round } from './figures.ts';

const CLIENTS = 4;
const LINES = 500;

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function run(cacheMb: string, seconds: number): Promise<{ healthP95: number; healthCount: number; pdfP95: number; pdfCount: number }> {
  const server = await startApiProcess({ env: { PDF_CACHE_MB: cacheMb, PASSWORD_COST: '10', IP_LIMIT_MULTIPLIER: '1000' } });
  const base = `${server.url}/api/v1`;
  try {
    const email = `pdfload-${Date.now()}@example.nz`;
    await json(await fetch(`${base}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery', full_name: 'Bench Tradie' }) }));
    const login = await json(await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery' }) }));
    const auth = { authorization: `Bearer ${String(login['access_token'])}` };
    const lines = Array.from({ length: LINES }, (_, i) => ({ description: `Item ${i + 1}: 15 mm copper elbow, press fit`, qty: (i % 7) + 1, unit_price: `${(i % 90) + 10}.${String(i % 100).padStart(2, '0')}` }));
    const invoice = await json(await fetch(`${base}/invoices`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'invoice', line_items: lines }) }));
    const pdfUrl = `${base}/invoices/${String(invoice['id'])}/pdf`;
    // One download first: the workers start and the fonts load before anything is timed.
    await (await fetch(pdfUrl, { headers: auth })).arrayBuffer();

    const until = performance.now() + seconds * 1000;
    const pdfTimes: number[] = [];
    const healthTimes: number[] = [];
    const downloader = async (): Promise<void> => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await fetch(pdfUrl, { headers: auth });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`PDF: HTTP ${res.status}`);
        pdfTimes.push(performance.now() - t0);
      }
    };
    const prober = async (): Promise<void> => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await fetch(`${base}/health`);
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`health: HTTP ${res.status}`);
        healthTimes.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await Promise.all([...Array.from({ length: CLIENTS }, downloader), prober()]);
    return { healthP95: percentile(healthTimes, 95), healthCount: healthTimes.length, pdfP95: percentile(pdfTimes, 95), pdfCount: pdfTimes.length };
  } finally {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}

export async function pdfLoadFigures(env: Readonly<Record<string, string | undefined>> = process.env): Promise<Figure[]> {
  const seconds = Number(env.PDFLOAD_SECONDS ?? 15);
  const figures: Figure[] = [];
  for (const [label, cacheMb] of [['uncached', '0'], ['cached', '32']] as const) {
    process.stderr.write(`bench: pdfload ${label}: ${CLIENTS} clients × ${LINES}-line PDFs for ${seconds} s, /health every 20 ms\n`);
    const r = await run(cacheMb, seconds);
    const p = `pdfload.${label}`;
    figures.push(
      { name: `${p}.health_p95`, value: round(r.healthP95), unit: 'ms' },
      { name: `${p}.health_requests`, value: r.healthCount, unit: 'count' },
      { name: `${p}.pdf_${LINES}_lines_p95`, value: round(r.pdfP95), unit: 'ms' },
      { name: `${p}.pdf_downloads`, value: r.pdfCount, unit: 'count' },
    );
  }
  return figures;
}
