// Logos for the tests, made here rather than checked in: a truecolour PNG (zlib and CRC-32 from
// node:zlib) and an SVG with shapes and text.
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An RGB PNG of the given size, coloured by `pixel`. */
export function makePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** A wide teal badge with a yellow kōwhai flower: 300×100. */
export const pngLogo = (): Buffer =>
  makePng(300, 100, (x, y) => {
    const dx = x - 50;
    const dy = y - 50;
    if (dx * dx + dy * dy < 30 * 30) return [242, 183, 5];
    return x < 100 ? [11, 85, 99] : y > 40 && y < 60 ? [11, 85, 99] : [255, 255, 255];
  });

export const svgLogo = (): Buffer =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80">
  <rect x="0" y="0" width="80" height="80" rx="12" fill="#0b5563"/>
  <circle cx="40" cy="40" r="22" fill="#f2b705"/>
  <image x="0" y="0" width="10" height="10" href="/etc/hostname"/>
  <text x="92" y="50" font-family="Roboto" font-size="22" fill="#0b5563">Kōwhai &amp; Co</text>
</svg>`,
    'utf8',
  );
