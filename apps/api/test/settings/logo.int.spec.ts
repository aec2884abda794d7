// POST/GET/DELETE /business-settings/logo through the HTTP app: the kind is read from the bytes,
// the size is limited, SVGs are sanitised, the served logo carries strict headers, a signed
// logo_url opens it without a bearer token, and accounts never see each other's logo. What is
// kept is the image decoded and drawn again (compared here pixel by pixel), never the upload.
import { MAX_LOGO_BYTES, SETTINGS_MESSAGES } from '@tradie/contracts';
import { alphaPng, bombPng, corruptAlphaPng, pngChunk, svgWithDataImage } from '@tradie/testkit/images';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLogo } from '../../src/settings/repository.ts';
import { jpegPhoto, pixelsOf } from '../support/images.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** A real 40×30 JPEG. */
const JPEG = await jpegPhoto(40, 30);
const SVG_NS = 'xmlns="http://www.w3.org/2000/svg"';

const form = (bytes: Uint8Array | string, name: string, type: string): FormData => {
  const fd = new FormData();
  fd.append('file', new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type }));
  return fd;
};

describe('business logo', () => {
  let t: TestApp;
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  const upload = (token: string, body: FormData) => t.call('POST', '/business-settings/logo', { token, body });

  /** The raw answer (bytes and headers) of a logo GET, with or without the bearer token. */
  async function fetchLogo(path: string, token?: string) {
    const res = await t.app.request(`/api/v1${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it('takes a PNG named .svg and declared as SVG as the PNG it is, and serves it with strict headers', async () => {
    const { token } = await signUp(t);
    const r = await upload(token, form(PNG, 'logo.svg', 'image/svg+xml'));
    expect(r.status).toBe(200);
    expect(r.json.logo_url).toMatch(/^\/business-settings\/logo\?v=[0-9a-f]{16}&a=[^&]+&exp=\d+&sig=[\w-]+$/);
    expect((await t.get('/business-settings', token)).json.logo_url).toBe(r.json.logo_url);

    const served = await fetchLogo('/business-settings/logo', token);
    expect(served.status).toBe(200);
    expect(await pixelsOf(served.bytes)).toEqual(await pixelsOf(PNG));
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(served.headers.get('cache-control')).toMatch(/^private\b/);
  });

  it('takes a JPEG whatever its name says', async () => {
    const { token } = await signUp(t);
    expect((await upload(token, form(JPEG, 'photo.txt', 'text/plain'))).status).toBe(200);
    const served = await fetchLogo('/business-settings/logo', token);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect((await pixelsOf(served.bytes)).info).toMatchObject({ width: 40, height: 30 });
  });

  it.each([
    ['a text file named .png', 'just some text, not a picture', 'logo.png', 'image/png'],
    ['an HTML page named .svg', '<html><body><script>alert(1)</script></body></html>', 'logo.svg', 'image/svg+xml'],
    ['XML whose root is not <svg>', '<?xml version="1.0"?><note>hi</note>', 'logo.svg', 'image/svg+xml'],
    ['an <svg> without the SVG namespace', '<svg><rect width="1" height="1"/></svg>', 'logo.svg', 'image/svg+xml'],
    ['an SVG that is not well-formed', `<svg ${SVG_NS}><rect></svg>`, 'logo.svg', 'image/svg+xml'],
    ['a GIF', 'GIF89a\u0001\u0000\u0001\u0000', 'logo.gif', 'image/gif'],
    ['a PNG signature with no IHDR chunk', Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(40)]), 'logo.png', 'image/png'],
  ])('refuses %s', async (_what, content, name, type) => {
    const { token } = await signUp(t);
    const r = await upload(token, form(content, name, type));
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe(SETTINGS_MESSAGES.logoWrongType);
    expect((await t.get('/business-settings', token)).json.logo_url).toBe('');
  });

  it("refuses a file over 2MB with 'Logo must be less than 2MB', whether the route or the body limit catches it", async () => {
    const { token } = await signUp(t);
    const justOver = Buffer.concat([PNG, Buffer.alloc(MAX_LOGO_BYTES + 1 - PNG.length)]);
    const r = await upload(token, form(justOver, 'big.png', 'image/png'));
    expect(r.status).toBe(413);
    expect(r.json.detail).toBe('Logo must be less than 2MB');

    const wayOver = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);
    const r2 = await upload(token, form(wayOver, 'huge.png', 'image/png'));
    expect(r2.status).toBe(413);
    expect(r2.json.detail).toBe('Logo must be less than 2MB');

    const exactly = Buffer.concat([PNG, Buffer.alloc(MAX_LOGO_BYTES - PNG.length)]);
    expect((await upload(token, form(exactly, 'max.png', 'image/png'))).status).toBe(200);
  });

  it('asks for multipart with a file field', async () => {
    const { token } = await signUp(t);
    const json = await t.call('POST', '/business-settings/logo', { token, json: { file: 'x' } });
    expect(json.status).toBe(415);
    expect(json.json.detail).toBe(SETTINGS_MESSAGES.logoNotMultipart);
    const fd = new FormData();
    fd.append('logo', new File([PNG], 'logo.png'));
    const wrongField = await upload(token, fd);
    expect(wrongField.status).toBe(422);
    expect(wrongField.json.detail).toBe(SETTINGS_MESSAGES.logoMissing);
    expect((await t.call('POST', '/business-settings/logo', { body: form(PNG, 'a.png', 'image/png') })).status).toBe(401);
  });

  it('strips scripts, event handlers, external references and foreignObject from an SVG, and keeps the drawing', async () => {
    const { token } = await signUp(t);
    const svg = `<?xml version="1.0" encoding="UTF-8"?>
<svg ${SVG_NS} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 40" onload="alert('load')">
  <script type="text/javascript">alert('script')</script>
  <style>@import url(https://evil.example/x.css); .brand { fill: #0a7; }</style>
  <style>.accent { fill: url(#grad); }</style>
  <defs><linearGradient id="grad"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
  <rect class="brand" width="100" height="40" onclick="steal()" fill="url(https://evil.example/paint.svg#p)"/>
  <circle cx="20" cy="20" r="10" fill="url(#grad)" style="stroke: url('https://evil.example/s.svg#s')"/>
  <a href="javascript:alert('a')"><text x="40" y="25">Sparky</text></a>
  <a xlink:href="https://evil.example/phish"><text x="40" y="35">Ltd</text></a>
  <use href="https://evil.example/sprite.svg#icon"/>
  <use href="data:image/png;base64,${PNG.toString('base64')}"/>
  <use href="#grad"/>
  <image href="https://evil.example/track.png" width="1" height="1"/>
  <image xlink:href="data:image/png;base64,${PNG.toString('base64')}" width="1" height="1"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">html inside</div></foreignObject>
  <animate attributeName="href" to="javascript:alert(1)"/>
</svg>`;
    const r = await upload(token, form(svg, 'logo.png', 'image/png'));
    expect(r.status).toBe(200);
    const served = await fetchLogo('/business-settings/logo', token);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    const out = served.bytes.toString('utf8');

    for (const gone of ['<script', 'alert(', 'onload', 'onclick', 'steal', 'javascript:', 'evil.example', '@import', 'foreignObject', 'html inside', '<animate']) {
      expect(out, gone).not.toContain(gone);
    }
    // The drawing, its local references and an embedded raster image stay.
    expect(out).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(out).toContain('viewBox="0 0 100 40"');
    expect(out).toContain('<linearGradient id="grad">');
    expect(out).toContain('.accent { fill: url(#grad); }');
    expect(out).toMatch(/<rect class="brand" width="100" height="40"\/>/);
    expect(out).toContain('<circle cx="20" cy="20" r="10" fill="url(#grad)"/>');
    expect(out).toContain('Sparky</text>');
    expect(out).toContain('<use href="#grad"/>');
    expect(out).not.toMatch(/<use[^>]*data:/);
    // The embedded PNG is kept as a PNG this code wrote: the same pixels.
    const embedded = /data:image\/png;base64,([A-Za-z0-9+/=]+)/.exec(out);
    expect(embedded).not.toBeNull();
    expect(await pixelsOf(Buffer.from(embedded![1]!, 'base64'))).toEqual(await pixelsOf(PNG));
  });

  it('never fetches an external entity, and never expands nested entities (no billion laughs)', async () => {
    const { token } = await signUp(t);
    const external = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]><svg ${SVG_NS}><text>&secret;</text></svg>`;
    const r = await upload(token, form(external, 'logo.svg', 'image/svg+xml'));
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe(SETTINGS_MESSAGES.logoWrongType);

    const levels = ['<!ENTITY a0 "aaaaaaaaaa">', ...Array.from({ length: 8 }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i};`.repeat(10)}">`)].join('');
    const laughs = `<?xml version="1.0"?><!DOCTYPE svg [${levels}]><svg ${SVG_NS}><text>&a8;</text></svg>`;
    expect((await upload(token, form(laughs, 'logo.svg', 'image/svg+xml'))).status).toBe(200);
    const out = (await fetchLogo('/business-settings/logo', token)).bytes.toString('utf8');
    expect(out.length).toBeLessThan(2000);
    expect(out).not.toContain('DOCTYPE');
  });

  it('serves the logo through the signed logo_url without a bearer token, only to that account, and only until it expires', async () => {
    clock.set('2026-05-04T21:30:00.000Z');
    const a = await signUp(t);
    const b = await signUp(t);
    const { logo_url } = (await upload(a.token, form(PNG, 'a.png', 'image/png'))).json as { logo_url: string };

    const viaLink = await fetchLogo(logo_url);
    expect(viaLink.status).toBe(200);
    expect(viaLink.bytes.equals((await fetchLogo('/business-settings/logo', a.token)).bytes)).toBe(true);
    expect(viaLink.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(viaLink.headers.get('x-content-type-options')).toBe('nosniff');

    // No token and no signature; someone else's account in a link signed for A; an altered signature.
    expect((await fetchLogo('/business-settings/logo')).status).toBe(401);
    const url = new URL(logo_url, 'http://x');
    url.searchParams.set('a', b.userId);
    expect((await fetchLogo(`${url.pathname}${url.search}`)).status).toBe(403);
    expect((await fetchLogo(logo_url.replace(/sig=([\w-])/, (_m, ch: string) => `sig=${ch === 'A' ? 'B' : 'A'}`))).status).toBe(403);

    // Links last one to two hours and stay the same within the hour.
    clock.advance(10 * 60_000);
    expect((await t.get('/business-settings', a.token)).json.logo_url).toBe(logo_url);
    clock.advance(3 * 3_600_000);
    const expired = await fetchLogo(logo_url);
    expect(expired.status).toBe(403);
    expect(JSON.parse(expired.bytes.toString('utf8')).detail).toBe(SETTINGS_MESSAGES.logoLinkInvalid);
    const login = await t.post('/auth/login', { email: a.email, password: a.password });
    const fresh = (await t.get('/business-settings', login.json.access_token)).json.logo_url as string;
    expect(fresh).not.toBe(logo_url);
    expect((await fetchLogo(fresh)).status).toBe(200);
  });

  it('deletes the logo; the URL and the file are gone and deleting again is fine', async () => {
    const { token } = await signUp(t);
    await upload(token, form(PNG, 'a.png', 'image/png'));
    const del = await t.del('/business-settings/logo', token);
    expect(del.status).toBe(200);
    expect((await t.get('/business-settings', token)).json.logo_url).toBe('');
    const gone = await fetchLogo('/business-settings/logo', token);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.bytes.toString('utf8')).detail).toBe(SETTINGS_MESSAGES.noLogo);
    expect((await t.del('/business-settings/logo', token)).status).toBe(200);
  });

  it("keeps each account's logo to itself", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await upload(a.token, form(PNG, 'a.png', 'image/png'));
    expect((await fetchLogo('/business-settings/logo', b.token)).status).toBe(404);
    expect((await t.get('/business-settings', b.token)).json.logo_url).toBe('');
    await t.del('/business-settings/logo', b.token);
    expect((await fetchLogo('/business-settings/logo', a.token)).status).toBe(200);
  });

  it('replaces the logo on a new upload (new version in the URL) and hands the PDF the stored bytes', async () => {
    const { token, userId } = await signUp(t);
    const first = (await upload(token, form(PNG, 'a.png', 'image/png'))).json.logo_url as string;
    const second = (await upload(token, form(JPEG, 'b.jpg', 'image/jpeg'))).json.logo_url as string;
    expect(new URL(second, 'http://x').searchParams.get('v')).not.toBe(new URL(first, 'http://x').searchParams.get('v'));
    const logo = await loadLogo(t.deps.store.db, userId);
    expect(logo).toMatchObject({ kind: 'jpeg', contentType: 'image/jpeg' });
    expect((await pixelsOf(logo!.bytes)).info).toMatchObject({ width: 40, height: 30 });
  });
});

describe('hostile and oversized images', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const upload = (token: string, body: FormData) => t.call('POST', '/business-settings/logo', { token, body });
  const stored = (accountId: string) => t.deps.store.db.query('SELECT 1 FROM business_logos WHERE account_id = $1', [accountId]);

  it.each([
    ['a PNG with an alpha channel and a corrupt zlib stream', () => corruptAlphaPng(), SETTINGS_MESSAGES.logoUnreadableImage],
    ['a 243 KB PNG that declares 8000×8000 (refused from its header)', () => bombPng(), SETTINGS_MESSAGES.logoTooManyPixels],
    ['a PNG cut off half way', () => alphaPng().subarray(0, 80), SETTINGS_MESSAGES.logoUnreadableImage],
    ['an SVG with such a PNG as a data: image', () => svgWithDataImage(corruptAlphaPng()), SETTINGS_MESSAGES.logoSvgImageUnreadable],
    ['an SVG with the 8000×8000 PNG as a data: image', async () => svgWithDataImage(await bombPng()), SETTINGS_MESSAGES.logoSvgImageUnreadable],
    ['an SVG with a JPEG data: image that is not a JPEG', () => svgWithDataImage(Buffer.from('not a jpeg'), 'image/jpeg'), SETTINGS_MESSAGES.logoSvgImageUnreadable],
  ])('refuses %s with a 422 the screen can show, and keeps nothing', async (_what, make, detail) => {
    const { token, userId } = await signUp(t);
    const r = await upload(token, form(await make(), 'logo.png', 'image/png'));
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe(detail);
    expect(await stored(userId)).toEqual([]);
    expect((await t.get('/business-settings', token)).json.logo_url).toBe('');
  });

  it('refuses an SVG with more than 8 embedded pictures', async () => {
    const { token } = await signUp(t);
    const img = `<image width="4" height="4" href="data:image/png;base64,${alphaPng().toString('base64')}"/>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">${img.repeat(9)}</svg>`;
    const r = await upload(token, form(svg, 'logo.svg', 'image/svg+xml'));
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe(SETTINGS_MESSAGES.logoSvgTooManyImages);
    const eight = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">${img.repeat(8)}</svg>`;
    expect((await upload(token, form(eight, 'logo.svg', 'image/svg+xml'))).status).toBe(200);
  });

  it('keeps a large photo scaled down to the PDF logo box, upright, with no metadata', async () => {
    const { token, userId } = await signUp(t);
    const photo = await jpegPhoto(3000, 2000);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    expect(photo.includes(Buffer.from('private-exif-note'))).toBe(true);
    expect((await upload(token, form(photo, 'photo.jpg', 'image/jpeg'))).status).toBe(200);
    const logo = (await loadLogo(t.deps.store.db, userId))!;
    const meta = await sharp(logo.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 384, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(logo.bytes.includes(Buffer.from('private-exif-note'))).toBe(false);
    expect(logo.bytes.length).toBeLessThan(photo.length);
  });

  it('keeps a PNG with transparency as a PNG with the same pixels, and drops its text chunks', async () => {
    const { token, userId } = await signUp(t);
    const source = alphaPng();
    const withText = Buffer.concat([source.subarray(0, 33), pngChunk('tEXt', Buffer.from('Comment\0private-png-note', 'latin1')), source.subarray(33)]);
    expect((await upload(token, form(withText, 'logo.png', 'image/png'))).status).toBe(200);
    const logo = (await loadLogo(t.deps.store.db, userId))!;
    expect(logo.kind).toBe('png');
    expect(await pixelsOf(logo.bytes)).toEqual(await pixelsOf(source));
    expect(logo.bytes.includes(Buffer.from('private-png-note'))).toBe(false);
  });

  it('takes an image of 16 megapixels at most; one pixel row more is refused', async () => {
    const { token } = await signUp(t);
    // 4000 × 4000 = 16,000,000 pixels exactly; 4000 × 4001 is over.
    const flat = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#0b5563' } }).png({ compressionLevel: 9 }).toBuffer();
    expect((await upload(token, form(await flat(4000, 4000), 'a.png', 'image/png'))).status).toBe(200);
    const over = await upload(token, form(await flat(4000, 4001), 'b.png', 'image/png'));
    expect(over.status).toBe(422);
    expect(over.json.detail).toBe(SETTINGS_MESSAGES.logoTooManyPixels);
  });
});
