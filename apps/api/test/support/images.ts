// Reading images back in tests: the decoded pixels of a PNG or JPEG (so a re-encoded logo can be
// compared with what was uploaded), and real photos made with sharp.
import sharp from 'sharp';

/** Width, height, channels and the raw RGBA pixels. */
export async function pixelsOf(bytes: Uint8Array): Promise<{ info: { width: number; height: number }; data: Buffer }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { info: { width: info.width, height: info.height }, data };
}

/** A JPEG photo of `width` × `height`: a gradient, with EXIF (a camera maker and a copyright line) and an orientation tag. */
export async function jpegPhoto(width: number, height: number, exif: Record<string, string> = { Make: 'Kōwhai Cam', Copyright: 'private-exif-note' }): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set([(x * 255) / width, (y * 255) / height, 128], (y * width + x) * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).withExif({ IFD0: exif }).toBuffer();
}
