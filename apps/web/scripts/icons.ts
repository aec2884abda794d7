/**
 * Draws the app icons from the logo SVG in Chromium and saves them as PNGs in public/icons/
 * (committed; run again only when the logo changes): npx node apps/web/scripts/icons.ts
 * Also draws the 1200×630 Open Graph card (public/og-image.png).
 */
import { chromium } from '@playwright/test';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../e2e/browser.ts';

const webRoot = fileURLToPath(new URL('..', import.meta.url));
const logo = await readFile(join(webRoot, 'public', 'favicon.svg'), 'utf8');
const inner = logo.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');

/** The mark at `size`; maskable icons keep the drawing inside the central 80% safe zone on a full bleed. */
function iconHtml(size: number, maskable: boolean): string {
  const svg = maskable
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" width="${size}" height="${size}"><rect width="48" height="48" fill="#0d4a63"/><g transform="translate(7.2 7.2) scale(0.7)">${inner.replace('rx="11"', 'rx="0"')}</g></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" width="${size}" height="${size}">${inner}</svg>`;
  return `<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`;
}

const ogHtml = `<!doctype html><html><body style="margin:0">
<div style="width:1200px;height:630px;box-sizing:border-box;padding:80px;display:flex;flex-direction:column;justify-content:space-between;
 background:radial-gradient(ellipse 70% 70% at 100% 0%, rgba(255,138,31,.25), transparent 60%), #0d4a63;color:#fff;font-family:'DejaVu Sans',sans-serif">
  <div style="display:flex;align-items:center;gap:24px">
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" width="96" height="96">${inner.replace('fill="#0d4a63"', 'fill="#08374a"')}</svg>
    <span style="font-size:44px;font-weight:700">Tradie Quotes</span>
  </div>
  <div style="font-size:76px;font-weight:700;line-height:1.05;letter-spacing:-1.5px;max-width:980px">Know your real profit before you quote</div>
  <div style="font-size:32px;color:#d7e8ef">Quotes, invoices and GST for NZ tradies · Free 14-day trial</div>
</div></body></html>`;

const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage();
  const shots: Array<{ file: string; size: number; maskable: boolean }> = [
    { file: 'icon-192.png', size: 192, maskable: false },
    { file: 'icon-512.png', size: 512, maskable: false },
    { file: 'icon-maskable-512.png', size: 512, maskable: true },
    { file: 'apple-touch-icon.png', size: 180, maskable: true },
  ];
  for (const shot of shots) {
    await page.setViewportSize({ width: shot.size, height: shot.size });
    await page.setContent(iconHtml(shot.size, shot.maskable));
    const png = await page.screenshot({ omitBackground: !shot.maskable, clip: { x: 0, y: 0, width: shot.size, height: shot.size } });
    await writeFile(join(webRoot, 'public', 'icons', shot.file), png);
  }
  await page.setViewportSize({ width: 1200, height: 630 });
  await page.setContent(ogHtml);
  await writeFile(join(webRoot, 'public', 'og-image.png'), await page.screenshot({ clip: { x: 0, y: 0, width: 1200, height: 630 } }));
  console.log('icons written to public/icons and public/og-image.png');
} finally {
  await browser.close();
}
