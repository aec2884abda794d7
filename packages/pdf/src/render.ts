// pdfmake 0.3 on the server. `require('pdfmake')` is a process-wide singleton: fonts and access
// policies are global, so they are set once, on first use, behind one promise.
//
// Fonts: the Roboto that ships with pdfmake (it has the macrons: Tāmaki Makaurau, Whangārei),
// read once into Buffers. pdfmake 0.3.11 cannot take a Buffer in `addFonts` (its URL resolver
// calls toLowerCase on every font source, so a Buffer throws), so the Buffers go into pdfmake's
// in-memory virtual file system under the font files' own paths, and `addFonts` names those
// paths. Text is set from memory; nothing is read from disk or fetched at render time, and both
// access policies deny everything. (Text inside an SVG logo goes through svg-to-pdfkit, which
// opens the font by path itself: naming the real path keeps that working too.)
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { documentDefinition } from './definition.ts';
import type { PdfInput } from './types.ts';

type FontFiles = { normal: string; bold: string; italics: string; bolditalics: string };

interface PdfmakeServer {
  addFonts(fonts: Record<string, FontFiles>): void;
  setUrlAccessPolicy(fn: (url: string) => boolean): void;
  setLocalAccessPolicy(fn: (path: string) => boolean): void;
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Buffer> };
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
}

const require = createRequire(import.meta.url);

let ready: Promise<PdfmakeServer> | undefined;

type Fontkit = { create(buffer: Uint8Array, postscriptName?: string): unknown };

/**
 * pdfkit parses every TrueType font afresh for each document (`fontkit.create(buffer)`), and the
 * decoding of its tables (cmap, hmtx, GSUB, GPOS, …) is over half the time of a one-page invoice.
 * The only thing pdfkit takes from fontkit is `create`, so before pdfkit is first loaded we leave
 * a fontkit in the module cache whose `create` parses each Buffer once (the Roboto Buffers live
 * for the process) and hands every document a fresh object on top of it: the decoded tables are
 * shared (fontkit binds their getters to the parsed font), while glyph objects, the layout engine
 * and the other per-use caches are made anew per document, as with a fresh parse. Sharing the
 * parsed font itself is not safe: a glyph object remembers the characters it was first made for,
 * so after 'Ē' a later document's 'E' lost its text. test/render.spec.ts checks that documents
 * rendered after others are byte-identical to a fresh parse in a new process. If pdfkit was
 * already loaded by someone else, nothing changes and fonts are parsed per document.
 */
function shareParsedFonts(): boolean {
  const fromPdfmake = createRequire(require.resolve('pdfmake'));
  const pdfkitPath = fromPdfmake.resolve('pdfkit');
  if (require.cache[pdfkitPath]) return false;
  const fromPdfkit = createRequire(pdfkitPath);
  const fontkitPath = fromPdfkit.resolve('fontkit');
  const fontkit = fromPdfkit('fontkit') as Fontkit & Record<string, unknown>;
  const entry = require.cache[fontkitPath];
  if (!entry || typeof fontkit.create !== 'function') return false;
  const parsed = new WeakMap<Uint8Array, unknown>();
  const create = (buffer: Uint8Array, postscriptName?: string): unknown => {
    if (postscriptName !== undefined) return fontkit.create(buffer, postscriptName);
    if (!parsed.has(buffer)) parsed.set(buffer, fontkit.create(buffer));
    return Object.assign(Object.create(parsed.get(buffer) as object) as object, { _glyphs: {} });
  };
  entry.exports = { ...fontkit, create };
  return true;
}

/** Whether parsed fonts are shared between documents in this process (see shareParsedFonts). */
export let fontsShared = false;

async function setUp(): Promise<PdfmakeServer> {
  fontsShared = shareParsedFonts();
  const pdfmake = require('pdfmake') as PdfmakeServer;
  const { Roboto } = require('pdfmake/fonts/Roboto') as { Roboto: FontFiles };
  const styles = ['normal', 'bold', 'italics', 'bolditalics'] as const;
  const bytes = await Promise.all(styles.map((s) => readFile(Roboto[s])));
  styles.forEach((s, i) => pdfmake.virtualfs.writeFileSync(Roboto[s], bytes[i] as Buffer));
  pdfmake.addFonts({ Roboto: { normal: Roboto.normal, bold: Roboto.bold, italics: Roboto.italics, bolditalics: Roboto.bolditalics } });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  return pdfmake;
}

/** The configured pdfmake singleton (fonts registered, no URL or disk access). */
export function pdfmakeInstance(): Promise<PdfmakeServer> {
  ready ??= setUp().catch((e: unknown) => {
    ready = undefined;
    throw e;
  });
  return ready;
}

/** Renders any document definition to PDF bytes. */
export async function renderDefinition(definition: TDocumentDefinitions): Promise<Buffer> {
  const pdfmake = await pdfmakeInstance();
  return pdfmake.createPdf(definition).getBuffer();
}

/** The PDF of a quote or invoice. The same input (including `today`) gives the same bytes. */
export async function renderDocumentPdf(input: PdfInput): Promise<Buffer> {
  return renderDefinition(documentDefinition(input));
}
