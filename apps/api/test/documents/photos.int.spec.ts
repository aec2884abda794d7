// Photos on a quote or invoice through the HTTP app: a phone photo is kept upright, fitted inside
// 2,000 px and re-encoded without its location, with a thumbnail; the tradie ticks it for the PDF's
// appendix (the PDF changes, the cached one is not served); the client's page shows it (and hashes
// it) and serves it through the link; only a draft's photos change; what is not a photo, a 13th
// photo and another account's document are refused; deleting the draft deletes the files.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { memoryFileStore } from '../../src/files/store.ts';
import { MAX_PHOTOS_PER_DOCUMENT, PHOTO_MESSAGES } from '../../src/documents/photos.ts';
import { publicClient as clientOf, sendAndReadLink } from '../clientLinks/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { addClient, line, pdfText } from './support.ts';

const files = memoryFileStore();
const t = useTestApp({ overrides: { files } });

/** A 3,000 × 2,000 JPEG taken with the phone on its side (EXIF orientation 6), with where it was taken. */
async function phonePhoto(colour = '#3a6b8c'): Promise<Uint8Array> {
  const bytes = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: colour } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Model: 'Serial 12345' }, IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '37/1 47/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '175/1 17/1 0/1' } })
    .toBuffer();
  expect((await sharp(bytes).metadata()).exif).toBeDefined();
  return new Uint8Array(bytes);
}

async function upload(id: string, bytes: Uint8Array, token: string) {
  const fd = new FormData();
  fd.append('file', new File([new Uint8Array(bytes)], 'job.jpg'));
  return t.call('POST', `/invoices/${id}/photos`, { token, body: fd });
}

async function fetchBytes(path: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(`/api/v1${path}`, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function quoteFor(token: string, userId: string) {
  const client_id = await addClient(t, userId, { name: 'Aroha Ngata', email: 'aroha@example.nz' });
  const r = await t.post('/invoices', { type: 'quote', client_id, line_items: [line('Replace hot water cylinder', 1, 2000)] }, token);
  expect(r.status).toBe(201);
  return r.json as { id: string; reference: string };
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('photos on a quote', () => {
  it('a phone photo is kept upright, fitted in 2,000 px, without its location; ticked, it is in the PDF; the client sees it', async () => {
    const u = await signUp(t);
    const q = await quoteFor(u.token, u.userId);
    const put = await upload(q.id, await phonePhoto(), u.token);
    expect(put.status, put.text).toBe(201);
    expect(put.json).toMatchObject({ width: 1333, height: 2000, in_pdf: false });

    const full = await fetchBytes(`/invoices/${q.id}/photos/${put.json.id}`, auth(u.token));
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('image/jpeg');
    expect(full.headers.get('x-content-type-options')).toBe('nosniff');
    expect(full.bytes.length).toBe(put.json.bytes);
    const meta = await sharp(full.bytes).metadata();
    expect([meta.width, meta.height, meta.exif, meta.orientation]).toEqual([1333, 2000, undefined, undefined]);
    expect(Buffer.from(full.bytes).includes('Serial 12345')).toBe(false);
    const thumb = await fetchBytes(`/invoices/${q.id}/photos/${put.json.id}?size=thumb`, auth(u.token));
    const thumbMeta = await sharp(thumb.bytes).metadata();
    expect(Math.max(thumbMeta.width!, thumbMeta.height!)).toBe(480);
    expect((await t.get(`/invoices/${q.id}/photos`, u.token)).json).toEqual({ photos: [put.json], max: MAX_PHOTOS_PER_DOCUMENT });

    // Not ticked: no appendix. Ticked: the appendix, and not the PDF cached before.
    const pdfOf = async () => pdfText(Buffer.from((await fetchBytes(`/invoices/${q.id}/pdf`, auth(u.token))).bytes)).replace(/\s+/g, ' ');
    expect(await pdfOf()).not.toContain('Photo 1 of 1');
    const ticked = await t.call('PATCH', `/invoices/${q.id}/photos/${put.json.id}`, { json: { in_pdf: true }, token: u.token });
    expect(ticked.json).toMatchObject({ id: put.json.id, in_pdf: true });
    const withPhoto = await pdfOf();
    expect(withPhoto).toContain(`Photos — ${q.reference}`);
    expect(withPhoto).toContain('Photo 1 of 1');
    expect((await t.call('PATCH', `/invoices/${q.id}/photos/${put.json.id}`, { json: { in_pdf: 'yes' }, token: u.token })).status).toBe(422);

    // Sent: the client's page lists it (in what it hashes) and serves it through the link.
    const { token } = await sendAndReadLink(t, u, q.id);
    const c = clientOf(t);
    const page = (await c.get(`/quotes/${token}`)).json;
    expect(page.document.photos).toEqual([{ id: put.json.id, sha256: put.json.sha256, width: 1333, height: 2000 }]);
    const shown = await fetchBytes(`/public/quotes/${token}/photos/${put.json.id}?size=thumb`);
    expect(shown.status).toBe(200);
    expect(shown.bytes).toEqual(thumb.bytes);
    expect((await fetchBytes(`/public/quotes/${token}/photos/01a227da-3644-71d0-9c9a-3f4eab33d8c6`)).status).toBe(404);

    // Sent, its photos stay as they are.
    const late = await upload(q.id, await phonePhoto('#aa0000'), u.token);
    expect([late.status, late.json.detail]).toEqual([409, PHOTO_MESSAGES.notDraft('quote')]);
    expect((await t.del(`/invoices/${q.id}/photos/${put.json.id}`, u.token)).status).toBe(409);
    expect((await t.call('PATCH', `/invoices/${q.id}/photos/${put.json.id}`, { json: { in_pdf: false }, token: u.token })).status).toBe(409);

    // A duplicate is a new draft with the same photos of its own (ticked as they were), and a
    // replay of it (the same Idempotency-Key) copies nothing twice.
    const key = { 'Idempotency-Key': 'dup-photos-1' };
    const copy = await t.post(`/invoices/${q.id}/duplicate`, undefined, u.token, key);
    expect(copy.status).toBe(201);
    expect((await t.post(`/invoices/${q.id}/duplicate`, undefined, u.token, key)).json.id).toBe(copy.json.id);
    const copied = (await t.get(`/invoices/${copy.json.id}/photos`, u.token)).json.photos;
    expect(copied.map((p: { sha256: string; in_pdf: boolean }) => [p.sha256, p.in_pdf])).toEqual([[put.json.sha256, true]]);
    expect(copied[0].id).not.toBe(put.json.id);
    expect((await fetchBytes(`/invoices/${copy.json.id}/photos/${copied[0].id}`, auth(u.token))).bytes).toEqual(full.bytes);
    // The copy's photos are its own: removed there, the sent quote keeps its.
    expect((await t.del(`/invoices/${copy.json.id}/photos/${copied[0].id}`, u.token)).status).toBe(204);
    expect((await fetchBytes(`/invoices/${q.id}/photos/${put.json.id}`, auth(u.token))).status).toBe(200);
  });

  it('refuses what is not a photo, a 13th photo and another account’s document; removing a photo and deleting the draft delete the files', async () => {
    const u = await signUp(t);
    const q = await quoteFor(u.token, u.userId);
    const notPhoto = await upload(q.id, new TextEncoder().encode('%PDF-1.4\n%%EOF\n'), u.token);
    expect([notPhoto.status, notPhoto.json.detail]).toEqual([415, PHOTO_MESSAGES.notPhoto]);
    const small = new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#888888' } }).png().toBuffer());
    const ids: string[] = [];
    for (let i = 0; i < MAX_PHOTOS_PER_DOCUMENT; i++) {
      const r = await upload(q.id, small, u.token);
      expect(r.status, r.text).toBe(201);
      ids.push(r.json.id);
    }
    const extra = await upload(q.id, small, u.token);
    expect([extra.status, extra.json.detail]).toEqual([409, PHOTO_MESSAGES.tooMany]);

    const other = await signUp(t);
    expect((await upload(q.id, small, other.token)).status).toBe(404);
    expect((await t.get(`/invoices/${q.id}/photos`, other.token)).status).toBe(404);
    expect((await fetchBytes(`/invoices/${q.id}/photos/${ids[0]}`, auth(other.token))).status).toBe(404);

    expect((await t.del(`/invoices/${q.id}/photos/${ids[0]}`, u.token)).status).toBe(204);
    expect((await fetchBytes(`/invoices/${q.id}/photos/${ids[0]}`, auth(u.token))).status).toBe(404);
    expect((await t.get(`/invoices/${q.id}/photos`, u.token)).json.photos).toHaveLength(MAX_PHOTOS_PER_DOCUMENT - 1);

    const folder = `accounts/${u.userId}/documents/${q.id}/photos/`;
    expect(files.keys().filter((k) => k.startsWith(folder))).toHaveLength(2 * (MAX_PHOTOS_PER_DOCUMENT - 1));
    expect((await t.del(`/invoices/${q.id}`, u.token)).json).toMatchObject({ outcome: 'deleted' });
    expect(files.keys().filter((k) => k.startsWith(folder))).toEqual([]);
    const [rows] = await t.deps.store.db.query<{ n: number | string }>('SELECT count(*) AS n FROM document_photos WHERE document_id = $1', [q.id]);
    expect(Number(rows!.n)).toBe(0);
  });
});

