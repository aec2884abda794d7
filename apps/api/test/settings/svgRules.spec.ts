// The reference and CSS rules the SVG sanitiser applies after DOMPurify, and the raster sniffing.
import { describe, expect, it } from 'vitest';
import { isSafeCss, isSafeReference, rasterKindOf, svgTextOf } from '../../src/settings/logo.ts';

describe('references an SVG logo may keep', () => {
  it.each(['#logo', '  #a', '', 'data:image/png;base64,iVBORw0KGgo=', 'DATA:IMAGE/JPEG;base64,/9j/'])('keeps %j', (v) => {
    expect(isSafeReference(v)).toBe(true);
  });
  it.each([
    'https://evil.example/x.png', '//evil.example/x', 'javascript:alert(1)', ' java\tscript:alert(1)', 'data:image/svg+xml;base64,PHN2Zz4=',
    'data:text/html,<script>', 'sprite.svg#a', '/api/v1/anything',
  ])('drops %j', (v) => {
    expect(isSafeReference(v)).toBe(false);
  });
});

describe('CSS an SVG logo may keep', () => {
  it.each(['.a { fill: #123 }', 'fill: url(#grad)', "stroke: url( '#g' )", 'font-family: "Source Sans"'])('keeps %j', (css) => {
    expect(isSafeCss(css)).toBe(true);
  });
  it.each([
    '@import url(https://evil.example/x.css);', "@import 'x.css';", 'fill: url(https://evil.example/#p)', 'fill: url("//evil.example/p")',
    'background: \\75 rl(https://evil.example/x)', 'background: image-set("x.png" 1x)', '@font-face { src: url(https://f.example/a.woff) }',
    'fill: URL(http://x/)',
  ])('drops %j', (css) => {
    expect(isSafeCss(css)).toBe(false);
  });
});

describe('sniffing', () => {
  it('reads PNG and JPEG from their first bytes only', () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    expect(rasterKindOf(png)).toBe('png');
    expect(rasterKindOf(Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 0]))).toBe('jpeg');
    expect(rasterKindOf(Buffer.from('GIF89a'))).toBeNull();
    expect(rasterKindOf(png.subarray(0, 20))).toBeNull();
  });
  it('treats only UTF-8 text starting with < as a possible SVG', () => {
    expect(svgTextOf(Buffer.from('\ufeff  <svg/>'))).not.toBeNull();
    expect(svgTextOf(Buffer.from('hello <svg/>'))).toBeNull();
    expect(svgTextOf(Buffer.from([0x3c, 0xff, 0xfe]))).toBeNull();
  });
});
