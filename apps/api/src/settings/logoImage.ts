// Raster logos are decoded in full and drawn again before they are kept: the stored file is one
// this code wrote, never the uploaded bytes. That is what keeps a hostile image (a corrupt zlib
// stream, a truncated JPEG, a small file that declares a huge picture, metadata with a payload)
// away from every later reader of the logo — the PDF writer above all, which decodes PNGs with
// alpha itself.
//
//   1. the header only: the declared width × height; over MAX_LOGO_PIXELS is refused, nothing decoded
//   2. a full decode (sharp/libvips, on libuv's thread pool, never the event loop), failing on any
//      decoder error; EXIF orientation applied
//   3. scaled down (never up) to fit LOGO_MAX_PIXELS_BOX, converted to 8-bit sRGB
//   4. encoded afresh with no metadata: a JPEG stays a JPEG; everything else becomes a PNG
import { LOGO_BOX_POINTS } from '@tradie/pdf';
import sharp from 'sharp';

/** An image that declares more pixels than this (about 16 megapixels) is refused before it is decoded. */
export const MAX_LOGO_PIXELS = 16_000_000;

/**
 * What a PDF header needs: the logo box is LOGO_BOX_POINTS (170 × 64 pt); four pixels a point is
 * 288 dpi, sharper than print needs.
 */
export const LOGO_MAX_PIXELS_BOX = { width: LOGO_BOX_POINTS[0] * 4, height: LOGO_BOX_POINTS[1] * 4 } as const;

export type RasterKind = 'png' | 'jpeg';

export type RasterResult =
  | { ok: true; kind: RasterKind; bytes: Buffer; width: number; height: number }
  | { ok: false; reason: 'too_many_pixels' | 'unreadable' };

// libvips keeps a cache of recent operations (by input buffer): nothing here is ever asked twice.
sharp.cache(false);

/**
 * Decodes `bytes` (PNG, JPEG, or — inside an SVG — GIF or WebP), and answers a freshly encoded
 * copy, scaled to the logo box. Never throws for bad input: the answer says why it was refused.
 */
export async function normaliseRaster(bytes: Uint8Array): Promise<RasterResult> {
  const input = { limitInputPixels: MAX_LOGO_PIXELS, failOn: 'error' as const, pages: 1, sequentialRead: true };
  let declared: { width: number; height: number; format: string };
  try {
    // The header only: libvips reads the size without decoding a pixel.
    const meta = await sharp(bytes, { ...input, limitInputPixels: false }).metadata();
    declared = { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format ?? '' };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  if (!['png', 'jpeg', 'gif', 'webp'].includes(declared.format) || declared.width < 1 || declared.height < 1) return { ok: false, reason: 'unreadable' };
  if (declared.width * declared.height > MAX_LOGO_PIXELS) return { ok: false, reason: 'too_many_pixels' };
  const kind: RasterKind = declared.format === 'jpeg' ? 'jpeg' : 'png';
  try {
    let image = sharp(bytes, input)
      .autoOrient()
      .resize({ ...LOGO_MAX_PIXELS_BOX, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb');
    image = kind === 'jpeg' ? image.jpeg({ quality: 90, chromaSubsampling: '4:4:4' }) : image.png({ compressionLevel: 9, adaptiveFiltering: true });
    const { data, info } = await image.toBuffer({ resolveWithObject: true });
    return { ok: true, kind, bytes: data, width: info.width, height: info.height };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}
