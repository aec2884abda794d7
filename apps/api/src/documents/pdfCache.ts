// Rendered PDFs, kept by what they were made from: a repeated download of an unchanged document
// is answered from memory. The key is a hash of the whole render input (the document as it is
// now — so its version —, the business settings, the logo's sha256 and today's date), so a change
// to any of them is a new key and nothing is ever stale. Bounded by bytes, least recently used
// first out; renders of one key that overlap share one render.
import { createHash } from 'node:crypto';
import type { PdfInput } from '@tradie/pdf';

/** The cache key of a render input: sha256 of its JSON, the logo by its own sha256. */
export function pdfCacheKey(input: Omit<PdfInput, 'logo'>, logoSha256: string | null): string {
  return createHash('sha256').update(JSON.stringify([input.document, input.business, input.today, logoSha256])).digest('hex');
}

export class PdfCache {
  private readonly entries = new Map<string, Buffer>();
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
