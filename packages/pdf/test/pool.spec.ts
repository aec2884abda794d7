// The PDF worker pool: the same bytes as a render on this thread, a render that throws where
// nothing can catch it (a corrupt PNG's zlib callback) fails only its own promise, a render past
// its time limit is stopped, a full queue says so, and the pool serves again after each.
import { alphaPng, corruptAlphaPng } from '@tradie/testkit/images';
import { afterAll, describe, expect, it } from 'vitest';
import { createPdfPool, PdfRenderError, type PdfPool } from '../src/pool.ts';
import { renderDocumentPdf } from '../src/render.ts';
import type { PdfInput } from '../src/types.ts';
import { business, invoice, manyLines } from './fixtures.ts';
import { pngLogo, svgLogo } from './images.ts';
import { pdfText } from './poppler.ts';

const TODAY = '2026-05-05';
const input = (over: Partial<PdfInput> = {}): PdfInput => ({ document: invoice(), business, logo: null, today: TODAY, ...over });

const pools: PdfPool[] = [];
const pool = (options: Parameters<typeof createPdfPool>[0] = {}): PdfPool => {
  const p = createPdfPool({ threads: 1, ...options });
  pools.push(p);
  return p;
};
afterAll(async () => {
  for (const p of pools) await p.close();
});

async function failure(p: Promise<unknown>): Promise<PdfRenderError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PdfRenderError);
  return e as PdfRenderError;
}

describe('the PDF worker pool', () => {
  it('renders on a worker thread the same bytes as on this one, with no logo, a PNG logo and an SVG logo', async () => {
    const p = pool();
    for (const logo of [null, { bytes: pngLogo(), kind: 'png' as const }, { bytes: alphaPng(), kind: 'png' as const }, { bytes: svgLogo(), kind: 'svg' as const }]) {
      const here = await renderDocumentPdf(input({ logo }));
      const there = await p.render(input({ logo }));
      expect(Buffer.isBuffer(there)).toBe(true);
      expect(there.equals(here), logo?.kind ?? 'no logo').toBe(true);
    }
  });

  it('a logo whose zlib stream is corrupt fails that render only; the pool renders the next one', async () => {
    const p = pool();
    const e = await failure(p.render(input({ logo: { bytes: corruptAlphaPng(), kind: 'png' } })));
    expect(e.code).toBe('failed');
    const next = await p.render(input());
    expect(pdfText(next)).toContain('INV-0001');
    expect(next.equals(await renderDocumentPdf(input()))).toBe(true);
  });

  it('stops a render that passes its time limit, and renders the next one', async () => {
    const slow = pool({ timeoutMs: 100 });
    const e = await failure(slow.render(input({ document: invoice({ lineInputs: manyLines(500) }) })));
    expect(e.code).toBe('timeout');
    expect(e.message).toMatch(/100 ms/);
    const roomy = pool({ timeoutMs: 60_000 });
    expect(pdfText(await roomy.render(input()))).toContain('INV-0001');
    // The same pool too, once its stopped worker is replaced: a render needs a fresh thread within the limit,
    // so only the outcome is asked here, not the time.
    const after = await slow.render(input()).then(
      (b) => b.length > 0,
      (err: unknown) => (err as PdfRenderError).code === 'timeout',
    );
    expect(after).toBe(true);
  });

  it('refuses renders past the bounded queue as busy, and renders the rest', async () => {
    const p = pool({ maxQueue: 1 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => p.render(input())));
    const busy = results.filter((r) => r.status === 'rejected' && r.reason instanceof PdfRenderError && r.reason.code === 'busy');
    const done = results.filter((r): r is PromiseFulfilledResult<Buffer> => r.status === 'fulfilled');
    // One thread and one place in the queue: two are rendered, four refused at once.
    expect(done).toHaveLength(2);
    expect(busy).toHaveLength(4);
    expect(pdfText(await p.render(input()))).toContain('INV-0001');
    const bytes = await renderDocumentPdf(input());
    for (const r of done) expect(r.value.equals(bytes)).toBe(true);
  });
});
