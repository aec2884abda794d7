// Logos for the tests, made here rather than checked in: a truecolour PNG (made by the testkit's
// PNG writer) and an SVG with shapes and text.
import { makePng } from '@tradie/testkit/images';

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
