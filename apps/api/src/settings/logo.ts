// Logo files: what kind a file is, decided by its bytes (never by its name or declared type), and
// an SVG made safe to serve and embed.
//
//   PNG   the 8-byte PNG signature followed by an IHDR chunk
//   JPEG  FF D8 FF
//   SVG   UTF-8 text that parses as well-formed XML whose root is <svg> in the SVG namespace
//
// An SVG is sanitised with DOMPurify (SVG profile) on a jsdom window, in place on the parsed XML
// document, then a second pass removes every external reference DOMPurify lets through: an href
// that is not a #fragment or a data: raster image, a url() in CSS that is not a #fragment, and any
// CSS with @import, image-set() or escapes (which could spell either). The served logo also carries
// a restrictive Content-Security-Policy (routes.ts), so a missed case still cannot load anything.
//
// A data: raster image inside an SVG goes through the same decode and re-encode as an uploaded
// PNG or JPEG (logoImage.ts): the SVG keeps only images this code wrote. One that cannot be read
// refuses the upload; at most MAX_SVG_IMAGES of them.
import type { Config as PurifyConfig } from 'dompurify';
import type { RasterResult } from './logoImage.ts';

export type LogoKind = 'png' | 'jpeg' | 'svg';

export const LOGO_CONTENT_TYPES: Record<LogoKind, string> = { png: 'image/png', jpeg: 'image/jpeg', svg: 'image/svg+xml' };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const SVG_NS = 'http://www.w3.org/2000/svg';

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean => prefix.every((b, i) => bytes[at + i] === b);

/** The raster kind of `bytes`, or null when it is neither a PNG nor a JPEG. */
export function rasterKindOf(bytes: Uint8Array): 'png' | 'jpeg' | null {
  // PNG: signature, then the first chunk must be IHDR (length 13).
  if (bytes.length >= 33 && startsWith(bytes, PNG_SIGNATURE) && startsWith(bytes, [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52], 8)) return 'png';
  if (bytes.length >= 4 && startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  return null;
}

/** The text of `bytes` when it could be an SVG document (UTF-8 starting with '<'), else null. */
export function svgTextOf(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  return text.trimStart().startsWith('<') ? text : null;
}

export type SvgResult = { ok: true; svg: string } | { ok: false; reason: 'not_svg' | 'unreadable' | 'image_unreadable' | 'too_many_images' };

/** Decodes and re-encodes one embedded raster image (logoImage.ts normaliseRaster). */
export type RasterNormaliser = (bytes: Uint8Array) => Promise<RasterResult>;

export interface SvgSanitiser {
  sanitise(text: string): Promise<SvgResult>;
}

/** An SVG logo may embed at most this many raster images. */
export const MAX_SVG_IMAGES = 8;

// The few DOM shapes used here (the API's types do not include the browser's DOM library).
interface XmlAttr {
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly name: string;
  value: string;
}
interface XmlElement {
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly textContent: string | null;
  readonly attributes: ArrayLike<XmlAttr>;
  setAttributeNS(namespace: string | null, name: string, value: string): void;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
  remove(): void;
  removeAttributeNode(attr: XmlAttr): unknown;
}
interface XmlDocument {
  readonly documentElement: XmlElement | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
}
interface XmlWindow {
  DOMParser: new () => { parseFromString(text: string, type: string): XmlDocument };
  XMLSerializer: new () => { serializeToString(node: XmlElement): string };
}
interface Purifier {
  sanitize(root: XmlElement, config: PurifyConfig & { IN_PLACE: true }): unknown;
}

/** A data: URL of a raster image is the one non-fragment reference an SVG logo may keep. */
const SAFE_DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$/i;

/** The bytes of a data: raster image URL (already checked by isSafeReference), or null for any other reference. */
export function dataImageBytes(value: string): Uint8Array | null {
  // eslint-disable-next-line no-control-regex
  const v = value.replace(/[\u0000-\u0020]+/g, '');
  if (!SAFE_DATA_IMAGE.test(v)) return null;
  return Buffer.from(v.slice(v.indexOf(',') + 1), 'base64');
}

export function isSafeReference(value: string): boolean {
  // Browsers ignore leading/trailing whitespace and control characters in URLs.
  // eslint-disable-next-line no-control-regex
  const v = value.replace(/[\u0000-\u0020]+/g, '');
  return v === '' || v.startsWith('#') || SAFE_DATA_IMAGE.test(v);
}

/** CSS that can load nothing from outside the document. */
export function isSafeCss(css: string): boolean {
  if (css.includes('\\')) return false; // escapes could spell url( or @import
  if (/@import|image-set\s*\(|(?:^|[^a-z0-9_-])src\s*\(/i.test(css)) return false;
  for (const m of css.matchAll(/url\s*\(\s*(['"]?)\s*([^'")]*)/gi)) {
    if (!(m[2] ?? '').trim().startsWith('#')) return false;
  }
  return true;
}

/**
 * Builds the sanitiser: one jsdom window and one DOMPurify instance, made on first use (jsdom
 * is large; most requests never need it). The DOM work of `sanitise` is synchronous, so calls
 * never interleave on DOMPurify; each works on its own parsed document.
 */
export async function createSvgSanitiser(normaliseRaster: RasterNormaliser): Promise<SvgSanitiser> {
  const [{ JSDOM: Dom }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  const window = new Dom('').window as XmlWindow;
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]) as unknown as Purifier;

  /** Removes what could load from outside; answers the data: image attributes that stay. */
  function removeExternalReferences(root: XmlElement): { el: XmlElement; attr: XmlAttr }[] {
    const images: { el: XmlElement; attr: XmlAttr }[] = [];
    for (const el of [root, ...Array.from(root.getElementsByTagName('*'))]) {
      if (el.localName === 'style') {
        if (!isSafeCss(el.textContent ?? '')) el.remove();
        continue;
      }
      for (const attr of Array.from(el.attributes)) {
        const name = attr.localName.toLowerCase();
        const unsafe =
          name === 'href' || name === 'src'
            ? !isSafeReference(attr.value) || (el.localName === 'use' && !attr.value.trim().startsWith('#'))
            : name === 'style' || /url\s*\(|image-set|\\/i.test(attr.value)
              ? !isSafeCss(attr.value)
              : false;
        if (unsafe) el.removeAttributeNode(attr);
        else if ((name === 'href' || name === 'src') && dataImageBytes(attr.value)) images.push({ el, attr });
      }
    }
    return images;
  }

  /** Every embedded raster decoded and drawn again (PNG, or JPEG for a JPEG); false when one cannot be. */
  async function reencodeImages(images: { el: XmlElement; attr: XmlAttr }[]): Promise<boolean> {
    for (const { el, attr } of images) {
      const result = await normaliseRaster(dataImageBytes(attr.value) as Uint8Array);
      if (!result.ok) return false;
      el.setAttributeNS(attr.namespaceURI, attr.name, `data:image/${result.kind};base64,${result.bytes.toString('base64')}`);
    }
    return true;
  }

  return {
    async sanitise(text) {
      const doc = new window.DOMParser().parseFromString(text, 'image/svg+xml');
      const root = doc.documentElement;
      if (!root || doc.getElementsByTagName('parsererror').length > 0) return { ok: false, reason: 'not_svg' };
      if (root.localName !== 'svg' || root.namespaceURI !== SVG_NS) return { ok: false, reason: 'not_svg' };
      try {
        // Scripts, event handlers, foreignObject, animation of attributes, javascript: URLs and
        // anything outside the SVG allow-list go here.
        // <use> is added back (logos reuse shapes with it); the pass below keeps it to #fragments.
        purify.sanitize(root, { IN_PLACE: true, USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'], FORBID_TAGS: ['foreignObject', 'script'] });
      } catch {
        return { ok: false, reason: 'unreadable' };
      }
      const images = removeExternalReferences(root);
      if (images.length > MAX_SVG_IMAGES) return { ok: false, reason: 'too_many_images' };
      // The parse and the purification above are synchronous; only the image work awaits, on a
      // document no other call holds.
      if (!(await reencodeImages(images))) return { ok: false, reason: 'image_unreadable' };
      const svg = new window.XMLSerializer().serializeToString(root);
      return { ok: true, svg: `<?xml version="1.0" encoding="UTF-8"?>\n${svg}` };
    },
  };
}

export type SniffedLogo = { kind: 'png' | 'jpeg'; bytes: Uint8Array } | { kind: 'svg'; text: string } | null;

/** What a file is by its content: a raster image, SVG candidate text, or neither. */
export function sniffLogo(bytes: Uint8Array): SniffedLogo {
  const raster = rasterKindOf(bytes);
  if (raster) return { kind: raster, bytes };
  const text = svgTextOf(bytes);
  return text === null ? null : { kind: 'svg', text };
}
