// Rendered PDFs, kept by what they were made from: a repeated download of an unchanged document
// is answered from memory. The key is a hash of the whole render input (the document as it is
// now — so its version —, the business settings, the logo's sha256 and today's date), so a change
// to any of them is a new key and nothing is ever stale. Bounded by bytes, least recently used
// first out; renders of one key that overlap share one render.
import { createHash } from 'node:crypto';
import type { PdfAcceptance, PdfInput } from '@tradie/pdf';

/** The cache key of a render input: sha256 of its JSON, the logo by its own sha256. */
export function pdfCacheKey(input: Omit<PdfInput, 'logo' | 'photos'>, logoSha256: string | null, photoSha256s: readonly string[] = []): string {
  // Acceptance certificates (the client's link) are part of the key only when there are some.
  const certificate = (a: PdfAcceptance) => ({ ...a, signaturePng: a.signaturePng ? createHash('sha256').update(a.signaturePng).digest('hex') : null });
  const acceptance = input.acceptance ? [certificate(input.acceptance)] : [];
  const variations = input.variationAcceptances?.length ? [input.variationAcceptances.map(certificate)] : [];
  // So is a payment claim's part (it draws on the quote's stages as well as the invoice).
  const claim = input.claim ? [input.claim] : [];
  // And the photos in the appendix, by their sha256, when there are some.
  const photos = photoSha256s.length > 0 ? [photoSha256s] : [];
  return createHash('sha256').update(JSON.stringify([input.document, input.business, input.today, logoSha256, ...acceptance, ...claim, ...variations, ...photos])).digest('hex');
}

/** What a repeat download needs to be answered without loading anything: the bytes' key, and the response's name and ETag. */
export interface PdfShortcut {
  key: string;
  filename: string;
  sha256: string;
}

/** How many shortcuts are kept at most (each a few hundred bytes). */
const MAX_SHORTCUTS = 10_000;

export class PdfCache {
  private readonly entries = new Map<string, Buffer>();
  /**
   * From a fingerprint of what a PDF is made of (account, document and its stream version, the
   * settings row's content, the logo, today) to the cached render: a repeat download costs one
   * small query and no document load, no hashing of its 500 lines, no logo read.
   */
  private readonly shortcuts = new Map<string, PdfShortcut>();
  private readonly pending = new Map<string, Promise<Buffer>>();
  private size = 0;
  readonly maxBytes: number;

  /** `maxBytes` 0 keeps nothing (every download renders). */
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.size;
  }

  get count(): number {
    return this.entries.size;
  }

  /** The cached bytes behind a fingerprint, or null when either has gone. */
  viaShortcut(fingerprint: string): { bytes: Buffer; filename: string; sha256: string } | null {
    const cut = this.shortcuts.get(fingerprint);
    if (!cut) return null;
    const bytes = this.entries.get(cut.key);
    if (!bytes) {
      this.shortcuts.delete(fingerprint);
      return null;
    }
    this.entries.delete(cut.key);
    this.entries.set(cut.key, bytes);
    return { bytes, filename: cut.filename, sha256: cut.sha256 };
  }

  /** Remembers that `fingerprint` is answered by the render under `shortcut.key`. */
  remember(fingerprint: string, shortcut: PdfShortcut): void {
    if (this.maxBytes === 0 || !this.entries.has(shortcut.key)) return;
    this.shortcuts.delete(fingerprint);
    this.shortcuts.set(fingerprint, shortcut);
    if (this.shortcuts.size > MAX_SHORTCUTS) this.shortcuts.delete(this.shortcuts.keys().next().value!);
  }

  /** The cached PDF of `key`, or the one `render` makes (shared with any render of `key` already running). */
  async getOrRender(key: string, render: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used goes to the end.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const running = this.pending.get(key);
    if (running) return running;
    const made = render().then(
      (bytes) => {
        this.pending.delete(key);
        this.put(key, bytes);
        return bytes;
      },
      (e: unknown) => {
        this.pending.delete(key);
        throw e;
      },
    );
    this.pending.set(key, made);
    return made;
  }

  private put(key: string, bytes: Buffer): void {
    if (bytes.length > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, bytes);
    this.size += bytes.length;
    for (const [oldest, b] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= b.length;
    }
  }
}
