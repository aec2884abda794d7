// Reading PDFs back with poppler-utils (pdftotext, pdfinfo, pdftoppm), through a temp file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function withTempPdf<T>(pdf: Buffer, fn: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'tradie-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of a PDF as `pdftotext -layout` lays it out; pages are separated by form feeds. */
export const pdfText = (pdf: Buffer): string => withTempPdf(pdf, (file) => execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));

/** The text of each page. */
export const pdfPages = (pdf: Buffer): string[] => pdfText(pdf).split('\f').filter((p, i, all) => i < all.length - 1 || p.trim() !== '');

/** `pdfinfo` fields (Title, Pages, CreationDate, …). */
export function pdfInfo(pdf: Buffer): Record<string, string> {
  const out = withTempPdf(pdf, (file) => execFileSync('pdfinfo', ['-enc', 'UTF-8', file], { encoding: 'utf8' }));
  return Object.fromEntries(out.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
}

/** Fonts embedded in the PDF (`pdffonts`), one row per font. */
export const pdfFonts = (pdf: Buffer): string => withTempPdf(pdf, (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }));

/** Renders one page to a PNG at `dpi` into `outDir/name.png` and returns its bytes. */
export function pdfPagePng(pdf: Buffer, page: number, outDir: string, name: string, dpi = 80): Buffer {
  mkdirSync(outDir, { recursive: true });
  return withTempPdf(pdf, (file) => {
    const prefix = join(outDir, name);
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', file, prefix]);
    return readFileSync(`${prefix}.png`);
  });
}
