// Image files for tests, made here byte by byte rather than checked in: well-formed PNGs of any
// size and colour type, and the hostile ones an attacker would upload as a logo.
//
//   corruptAlphaPng    an RGBA PNG whose IDAT is not a valid zlib stream: decoders that inflate it
//                      asynchronously (pdfkit's PNG reader) used to throw where nothing could catch it
//   bombPng            a small file that declares a huge image (8000×8000 RGBA: ~250 KB of deflated
//                      zeros that inflate to 256 MB)
//   svgWithDataImage   an SVG logo that carries one of them as a data: URL
import { once } from 'node:events';
import { crc32, createDeflate, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC-32 of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** PNG colour types: 0 grey, 2 RGB, 4 grey + alpha, 6 RGBA. */
export type PngColour = 0 | 2 | 4 | 6;
const CHANNELS: Record<PngColour, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function ihdr(width: number, height: number, colour: PngColour): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(colour, 9);
  return pngChunk('IHDR', header); // compression, filter, interlace: 0
}

/** A PNG from its header and the (already compressed) IDAT data, with any extra chunks before IDAT. */
export function assemblePng(width: number, height: number, colour: PngColour, idat: Buffer, extra: Buffer[] = []): Buffer {
  return Buffer.concat([SIGNATURE, ihdr(width, height, colour), ...extra, pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A valid 8-bit PNG, each pixel from `pixel` (as many values as the colour type has channels). */
export function makePng(width: number, height: number, pixel: (x: number, y: number) => number[], colour: PngColour = 2): Buffer {
  const channels = CHANNELS[colour];
  const stride = width * channels + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pixel(x, y).slice(0, channels), y * stride + 1 + x * channels);
  }
  return assemblePng(width, height, colour, deflateSync(raw));
}

/** A 64×32 RGBA PNG: a teal block on the left, half-transparent orange on the right. */
export const alphaPng = (): Buffer => makePng(64, 32, (x) => (x < 32 ? [11, 85, 99, 255] : [242, 120, 5, 128]), 6);

/**
 * An RGBA PNG (alpha channel, so a PDF writer must inflate it to split the alpha out) whose IDAT
 * starts as a valid zlib stream and then turns to garbage: the header says 120×60, the stream
 * breaks after the first rows.
 */
export function corruptAlphaPng(): Buffer {
  const width = 120;
  const height = 60;
  const raw = Buffer.alloc((width * 4 + 1) * height, 0x7f);
  const good = deflateSync(raw, { level: 0 });
  const broken = Buffer.concat([good.subarray(0, 40), Buffer.from('this is not deflate data at all, just noise '.repeat(8), 'latin1')]);
  return assemblePng(width, height, 6, broken);
}

let bomb: Promise<Buffer> | undefined;

/** A PNG declaring 8000×8000 RGBA (64 megapixels, 256 MB decoded) in about 250 KB. Made once per process. */
export function bombPng(): Promise<Buffer> {
  bomb ??= (async () => {
    const side = 8000;
    const rows = Buffer.alloc((side * 4 + 1) * 500); // 500 rows: filter 0, every pixel transparent black
    const deflate = createDeflate({ level: 9 });
    const parts: Buffer[] = [];
    deflate.on('data', (b: Buffer) => parts.push(b));
    const done = once(deflate, 'end');
    for (let i = 0; i < side / 500; i++) {
      if (!deflate.write(rows)) await once(deflate, 'drain');
    }
    deflate.end();
    await done;
    return assemblePng(side, side, 6, Buffer.concat(parts));
  })();
  return bomb;
}

/** The width and height a PNG's IHDR declares. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** An SVG logo (shapes and text) with `image` embedded as a data: URL in an <image> element. */
export function svgWithDataImage(image: Buffer, mime = 'image/png'): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="240" height="80" viewBox="0 0 240 80">
  <rect x="0" y="0" width="80" height="80" rx="12" fill="#0b5563"/>
  <image x="8" y="8" width="64" height="64" xlink:href="data:${mime};base64,${image.toString('base64')}"/>
  <text x="92" y="50" font-family="Roboto" font-size="22" fill="#0b5563">Kōwhai &amp; Co</text>
</svg>`,
    'utf8',
  );
}
