// Photos on a quote or invoice (docs/api/documents.md, "Photos"): list, add (a multipart upload
// through the one upload gate), the bytes, tick for the PDF, remove. Another account's document or
// photo is 404; a document that is no longer a draft keeps its photos as they are (409).
import { photoList, photoRecord, photoSizeQuery, photoUpdateInput } from '@tradie/contracts';
import type { Hono } from 'hono';
import type { AppDeps } from '../../deps.ts';
import { parseQuery } from '../../http/body.ts';
import type { AppEnv } from '../../http/env.ts';
import { uploadedFile } from '../../http/upload.ts';
import { describe } from '../../openapi/describe.ts';
import { withUploadSlot } from '../../security/uploadGate.ts';
import { MAX_PHOTOS_PER_DOCUMENT, PHOTO_MESSAGES, addPhoto, photoBytes, photosOf, removePhoto, setPhotoInPdf } from '../photos.ts';
import { loadDocument } from '../repository.ts';
import { documentIdOf, readDocumentBody, TAG } from './http.ts';

/** A kept JPEG, as the screens and the client's page fetch it: never sniffed, never run. */
export const photoHeaders = (bytes: Uint8Array): Record<string, string> => ({
  'Content-Type': 'image/jpeg', 'Content-Length': String(bytes.length), 'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox", 'Cache-Control': 'private, max-age=3600',
});

export function documentPhotoRoutes(r: Hono<AppEnv>, deps: AppDeps): void {
  r.get('/:id/photos', describe({ tag: TAG, summary: 'The photos on a quote or invoice, in the order they were added', response: { status: 200, schema: photoList }, errors: [404] }), async (c) => {
    const accountId = c.get('accountId');
    const d = (await loadDocument(deps.store, accountId, documentIdOf(c))).state;
    return c.json({ photos: await photosOf(deps.store.db, accountId, d.id), max: MAX_PHOTOS_PER_DOCUMENT });
  });

  r.post(
    '/:id/photos',
    describe({
      tag: TAG, summary: `Add a photo to a draft (JPEG, PNG, WebP or HEIC, at most 10 MB; re-encoded, location and other metadata removed; at most ${MAX_PHOTOS_PER_DOCUMENT} a document)`,
      bodyNote: 'multipart/form-data with a `file` field', response: { status: 201, schema: photoRecord }, errors: [404, 409, 413, 415, 422, 429],
    }),
    async (c) => {
      const accountId = c.get('accountId');
      // Another account's document (or none) is 404 before anything of the upload is read.
      const d = (await loadDocument(deps.store, accountId, documentIdOf(c))).state;
      const photo = await withUploadSlot(deps, accountId, async () => {
        const file = await uploadedFile(c, PHOTO_MESSAGES);
        return addPhoto(deps, accountId, d.id, new Uint8Array(await file.arrayBuffer()));
      });
      return c.json(photo, 201);
    },
  );

  r.get(
    '/:id/photos/:photoId',
    describe({ tag: TAG, summary: 'A photo (JPEG), or its 480 px thumbnail with ?size=thumb', query: photoSizeQuery, response: { status: 200, contentType: 'image/jpeg', description: 'The JPEG, served with nosniff and a sandboxing Content-Security-Policy' }, errors: [404] }),
    async (c) => {
      const size = parseQuery(c, photoSizeQuery).size ?? 'full';
      const bytes = await photoBytes(deps, c.get('accountId'), documentIdOf(c), c.req.param('photoId') ?? '', size);
      return c.body(new Uint8Array(bytes), 200, photoHeaders(bytes));
    },
  );

  r.patch('/:id/photos/:photoId', describe({ tag: TAG, summary: "Tick or untick a draft's photo for the PDF's photos appendix", body: photoUpdateInput, response: { status: 200, schema: photoRecord }, errors: [404, 409, 422] }), async (c) => {
    const input = await readDocumentBody(c, photoUpdateInput);
    return c.json(await setPhotoInPdf(deps, c.get('accountId'), documentIdOf(c), c.req.param('photoId') ?? '', input.in_pdf));
  });

  r.delete('/:id/photos/:photoId', describe({ tag: TAG, summary: "Remove a draft's photo", response: { status: 204, description: 'Removed' }, errors: [404, 409] }), async (c) => {
    await removePhoto(deps, c.get('accountId'), documentIdOf(c), c.req.param('photoId') ?? '');
    return c.body(null, 204);
  });
}
