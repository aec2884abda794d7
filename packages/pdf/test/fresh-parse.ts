// Run as a child process by render.spec.ts: loads pdfkit before the renderer, so fonts are
// parsed afresh for every document, and prints the sha256 of the reference invoice's PDF (its first and only document).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
createRequire(require.resolve('pdfmake'))('pdfkit');
const { fontsShared, renderDocumentPdf } = await import('../src/render.ts');
const { business, referenceInvoice } = await import('./fixtures.ts');
const pdf = await renderDocumentPdf({ document: referenceInvoice(), business, today: '2026-05-05' });
process.stdout.write(JSON.stringify({ fontsShared, sha256: createHash('sha256').update(pdf).digest('hex') }));
