// A cost's receipt through the HTTP app: a phone photo with its location in EXIF is kept upright,
// scaled and re-encoded with no metadata; a PDF is kept as sent; what is not a photo or a PDF, what
// cannot be decoded and what is too big are refused with a detail and keep nothing; another
// account's cost is 404; deleting the cost deletes the file.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { memoryFileStore } from '../../src/files/store.ts';
import { hit } from '../../src/security/rateLimit.ts';
import { decodeSlot, UPLOAD_BUSY_RETRY_SECONDS, UPLOAD_LIMIT, UPLOAD_MESSAGES, uploadGateOf } from '../../src/security/uploadGate.ts';
import { signInAgain } from '../documents/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';

const files = memoryFileStore();
const t = useTestApp({ overrides: { files } });

/** A 3,000 × 2,000 JPEG photo taken with the phone on its side (EXIF orientation 6), with where it was taken. */
async function phonePhoto(): Promise<Uint8Array> {
  const bytes = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#e8e2d0' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'Phone', Model: 'Serial 12345' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '37/1 47/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '175/1 17/1 0/1' },
    })
    .toBuffer();
  // What the phone wrote is really there before the upload.
  const before = await sharp(bytes).metadata();
  expect([before.orientation, before.exif !== undefined, bytes.includes('Serial 12345')]).toEqual([6, true, true]);
  return new Uint8Array(bytes);
}

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function upload(costId: string, bytes: Uint8Array, token: string, name = 'receipt.jpg') {
  const fd = new FormData();
  fd.append('file', new File([new Uint8Array(bytes)], name));
  return t.call('POST', `/costs/${costId}/receipt`, { token, body: fd });
}

async function download(costId: string, token: string) {
  const res = await t.app.request(`/api/v1/costs/${costId}/receipt`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function aCost(token: string): Promise<string> {
  const r = await t.post('/costs', { supplier: 'Plumbing World', date: '2026-05-05', amount: '161.00' }, token);
  expect(r.status).toBe(201);
  return r.json.id as string;
}

describe("a cost's receipt", () => {
  it('a phone photo is kept upright, scaled to 2,400 px and re-encoded without its location or camera; the list says it is there', async () => {
    const u = await signUp(t);
    const id = await aCost(u.token);
    const put = await upload(id, await phonePhoto(), u.token);
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ content_type: 'image/jpeg' });
    const got = await download(id, u.token);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(got.bytes.length).toBe(put.json.bytes);
    const meta = await sharp(got.bytes).metadata();
    // Turned upright (it was on its side) and fitted inside 2,400 px.
    expect([meta.width, meta.height]).toEqual([1600, 2400]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(Buffer.from(got.bytes).includes('Serial 12345')).toBe(false);
    const listed = (await t.get('/costs', u.token)).json.costs[0];
    expect(listed.receipt).toMatchObject({ content_type: 'image/jpeg', bytes: put.json.bytes });
    expect((await t.get(`/costs/${id}`, u.token)).json.receipt).toMatchObject({ content_type: 'image/jpeg' });
  });

  it("a PDF from the supplier's email is kept as sent; a second upload replaces the first", async () => {
    const u = await signUp(t);
    const id = await aCost(u.token);
    expect((await upload(id, await phonePhoto(), u.token)).status).toBe(200);
    const put = await upload(id, PDF, u.token, 'bill.pdf');
    expect(put.json).toMatchObject({ content_type: 'application/pdf', bytes: PDF.length });
    const got = await download(id, u.token);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.bytes).toEqual(PDF);
  });

  it('refuses what is not a photo or a PDF, what cannot be decoded, what is too big, and no file; nothing is kept', async () => {
    const u = await signUp(t);
    const id = await aCost(u.token);
    const cases: [Uint8Array, number, string][] = [
      [new TextEncoder().encode('<html><script>alert(1)</script></html>'), 415, 'That file is not a photo (JPEG, PNG, WebP or HEIC) or a PDF.'],
      [(await phonePhoto()).subarray(0, 400), 422, 'That photo could not be read. Take it again or choose another file.'],
      [new TextEncoder().encode('%PDF-1.4 but never ends'), 415, 'That file is not a photo (JPEG, PNG, WebP or HEIC) or a PDF.'],
      [new Uint8Array(10 * 1024 * 1024 + 100_000), 413, 'The receipt must be 10 MB or less.'],
    ];
    for (const [bytes, status, detail] of cases) {
      const r = await upload(id, bytes, u.token);
      expect([r.status, r.json.detail]).toEqual([status, detail]);
    }
    const none = await t.call('POST', `/costs/${id}/receipt`, { token: u.token, body: new FormData() });
    expect([none.status, none.json.detail]).toEqual([422, 'Choose a photo or PDF of the receipt.']);
    const json = await t.call('POST', `/costs/${id}/receipt`, { token: u.token, json: { file: 'x' } });
    expect(json.status).toBe(415);
    expect((await download(id, u.token)).status).toBe(404);
    expect((await t.get(`/costs/${id}`, u.token)).json.receipt).toBeNull();
    expect(files.keys().filter((k) => k.includes(u.userId))).toEqual([]);
  });

  it("another account's cost is 404 every way; deleting the cost deletes its receipt", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const id = await aCost(a.token);
    expect((await upload(id, PDF, a.token)).status).toBe(200);
    expect((await upload(id, PDF, b.token)).status).toBe(404);
    expect((await download(id, b.token)).status).toBe(404);
    expect((await t.del(`/costs/${id}/receipt`, b.token)).status).toBe(404);
    expect((await download(id, a.token)).status).toBe(200);
    expect(files.keys()).toContain(`accounts/${a.userId}/receipts/${id}`);
    expect((await t.del(`/costs/${id}`, a.token)).status).toBe(204);
    expect(files.keys()).not.toContain(`accounts/${a.userId}/receipts/${id}`);
    expect((await download(id, a.token)).status).toBe(404);
    // Removing a receipt on its own leaves the cost.
    const other = await aCost(a.token);
    expect((await upload(other, PDF, a.token)).status).toBe(200);
    expect((await t.del(`/costs/${other}/receipt`, a.token)).status).toBe(204);
    expect((await t.get(`/costs/${other}`, a.token)).json.receipt).toBeNull();
  });

  it("a burst of 50 uploads at once: at most two of the account's are read at once, the rest are told to wait (429, Retry-After) and nothing fails", async () => {
    const u = await signUp(t);
    const ids = [await aCost(u.token), await aCost(u.token)];
    const photo = new Uint8Array(await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#d0d8e8' } }).jpeg().toBuffer());
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => upload(ids[i % 2]!, photo, u.token)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    for (const busy of answers.filter((a) => a.status === 429)) {
      expect([busy.json.detail, busy.headers.get('retry-after')]).toEqual([UPLOAD_MESSAGES.busy, String(UPLOAD_BUSY_RETRY_SECONDS)]);
    }
    const gate = uploadGateOf(t.deps).stats();
    expect([gate.inFlight, gate.peakOneAccount <= 2, decodeSlot.stats().peak <= 2]).toEqual([0, true, true]);
    // Both costs have their photo, and tried again after the wait each one goes in.
    for (const id of ids) expect((await t.get(`/costs/${id}`, u.token)).json.receipt.content_type).toBe('image/jpeg');
    expect((await upload(ids[0]!, photo, u.token)).status).toBe(200);
  });

  it('the hour allows 200 uploads an account (receipts and logo alike); the next is 429 before its body is read, and another account is not held back', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const id = await aCost(a.token);
    await hit(t.deps.store.db, UPLOAD_LIMIT, a.userId, t.clock.now(), UPLOAD_LIMIT.max);
    const refused = await upload(id, PDF, a.token);
    expect([refused.status, refused.json.detail, Number(refused.headers.get('retry-after')) > 0]).toEqual([429, UPLOAD_MESSAGES.tooMany, true]);
    const logo = new FormData();
    logo.append('file', new File([new Uint8Array(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } }).png().toBuffer())], 'logo.png'));
    const logoRefused = await t.call('POST', '/business-settings/logo', { token: a.token, body: logo });
    expect([logoRefused.status, logoRefused.json.detail]).toEqual([429, UPLOAD_MESSAGES.tooMany]);
    expect((await t.get(`/costs/${id}`, a.token)).json.receipt).toBeNull();
    expect(files.keys().filter((k) => k.includes(a.userId))).toEqual([]);
    expect((await upload(await aCost(b.token), PDF, b.token)).status).toBe(200);
    // The next hour counts afresh.
    t.clock.advance(3600 * 1000);
    expect((await upload(id, PDF, await signInAgain(t, a))).status).toBe(200);
  });
});
