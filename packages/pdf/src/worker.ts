// The task a PDF worker thread runs (pool.ts): render one document and hand its bytes back
// without a copy. pdfmake, the fonts and the parsed-font cache are set up once per thread.
import { move } from 'piscina';
import { renderDocumentPdf } from './render.ts';
import type { PdfInput } from './types.ts';

/** What crosses into the thread: the input with the logo's bytes as a plain Uint8Array (a Buffer arrives as one). */
export type WorkerInput = Omit<PdfInput, 'logo'> & { logo: { kind: NonNullable<PdfInput['logo']>['kind']; bytes: Uint8Array } | null };

export default async function renderInWorker(input: WorkerInput): Promise<Uint8Array> {
  const logo = input.logo ? { kind: input.logo.kind, bytes: Buffer.from(input.logo.bytes.buffer, input.logo.bytes.byteOffset, input.logo.bytes.byteLength) } : null;
  const pdf = await renderDocumentPdf({ ...input, logo });
  // Transfer, not copy; a Buffer that shares its memory with others is copied first.
  const own = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? new Uint8Array(pdf.buffer, 0, pdf.byteLength) : new Uint8Array(pdf);
  return move(own) as unknown as Uint8Array;
}
