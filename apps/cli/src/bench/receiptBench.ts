// What keeping a receipt photo costs the server: a 12-megapixel phone photo (4,000 × 3,000, a noisy
// picture as a camera makes, ~4 MB JPEG) decoded, turned upright, fitted to 2,400 px and re-encoded
// without its metadata (the API's prepareReceipt), one at a time on this machine. And how much
// smaller the kept copy is than what the phone sent. Then a burst: 50 of them at once, as a phone back
// online after a week might send, and how much memory the process took above its resting size while
// they were kept (the decode places let two run at once; the rest wait).
import { prepareReceipt } from '@tradie/api';
import sharp from 'sharp';
import { type Figure, median, percentile, round } from './figures.ts';

export async function receiptFigures(runs = 15): Promise<Figure[]> {
  const photo = new Uint8Array(
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 20 } } })
      .jpeg({ quality: 88 })
      .withMetadata({ orientation: 6 })
      .toBuffer(),
  );
  for (let i = 0; i < 2; i++) await prepareReceipt(photo);
  const times: number[] = [];
  let kept = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    kept = (await prepareReceipt(photo)).bytes.length;
    times.push(performance.now() - t0);
  }
  const rest = process.memoryUsage().rss;
  let peak = rest;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 50 }, () => prepareReceipt(photo)));
  const burstMs = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return [
    { name: 'receipt burst: 50 photos at once, all kept', value: round(burstMs), unit: 'ms' },
    { name: 'receipt burst: 50 photos at once, peak memory above resting', value: round((peak - rest) / (1024 * 1024)), unit: 'MB' },
    { name: 'receipt photo kept (12 MP JPEG → 2,400 px, re-encoded) p50', value: round(median(times), 1), unit: 'ms' },
    { name: 'receipt photo kept (12 MP JPEG → 2,400 px, re-encoded) p95', value: round(percentile(times, 95), 1), unit: 'ms' },
    { name: 'receipt photo as sent', value: round(photo.length / 1024), unit: 'KB' },
    { name: 'receipt photo as kept', value: round(kept / 1024), unit: 'KB' },
  ];
}
