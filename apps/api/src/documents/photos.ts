// Photos on a quote or invoice: the job before, a sketch, the meter board — taken with the phone's
// camera on the document's screen (docs/api/documents.md, "Photos"). Every upload is hostile until
// decoded, as a receipt's is: sniffed by its bytes, decoded in full in one of the process's few
// decode places, turned upright, scaled to fit 2,000 px and written afresh as a JPEG with no
// metadata (the location the phone wrote is gone), with a 480 px thumbnail beside it. Bounded: 10 MB
// a file (the body limit, before it is read), 12 photos a document, 500 MB an account.
//
// Photos change only while the document is a draft: what the client was shown, signed or paid
// against never changes (the quote page hashes the photos it shows). The tradie ticks which go in
// the PDF, as an appendix after the document. The bytes are in the file store under
// accounts/{accountId}/documents/{documentId}/photos/, the rows in document_photos; deleting the
// draft deletes them, deleting the account deletes every file.
import { createHash } from 'node:crypto';
import { documentNoun } from '@tradie/domain';
import type { Migration, Sql } from '@tradie/store';
import sharp from 'sharp';
import { reencodePhoto, sniffReceipt } from '../costs/receipts.ts';
import type { AppDeps } from '../deps.ts';
import { Conflict, Invalid, NotFound, TooLarge, UnsupportedType } from '../errors.ts';
import { filesOf } from '../files/index.ts';
import { plausibleId } from '../http/ids.ts';
import { decodeSlot } from '../security/uploadGate.ts';
import { loadDocument } from './repository.ts';

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_PHOTOS_PER_DOCUMENT = 12;
export const MAX_ACCOUNT_PHOTO_BYTES = 500 * 1024 * 1024;
/** The longest side of a kept photo: sharp on a phone and in the PDF, a tenth of the camera's file. */
export const PHOTO_MAX_SIDE = 2000;
export const THUMB_MAX_SIDE = 480;

export const PHOTO_MESSAGES = {
  notMultipart: 'Send the photo as a file upload (multipart/form-data with a file field).',
  missing: 'Choose a photo to add.',
  tooLarge: 'A photo must be 10 MB or less.',
  notPhoto: 'That file is not a photo (JPEG, PNG, WebP or HEIC).',
  tooMany: `A quote or invoice can have at most ${MAX_PHOTOS_PER_DOCUMENT} photos.`,
  accountFull: 'Your photos use the 500 MB your account can keep. Remove some from old drafts first.',
  notFound: 'Photo not found',
  notDraft: (noun: string) => `This ${noun} has been sent, so its photos can't change. Duplicate it to make a new ${noun} with other photos.`,
} as const;

export const photoMigrations: Migration[] = [
  {
    id: 'documents-photos-001',
    sql: `
CREATE TABLE IF NOT EXISTS document_photos (
  account_id    text        NOT NULL,
  id            text        NOT NULL,
  document_id   text        NOT NULL,
  position      integer     NOT NULL,
  bytes         integer     NOT NULL,
  thumb_bytes   integer     NOT NULL,
  sha256        text        NOT NULL,
  width         integer     NOT NULL,
  height        integer     NOT NULL,
  in_pdf        boolean     NOT NULL DEFAULT false,
  uploaded_at   timestamptz NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX IF NOT EXISTS document_photos_document ON document_photos (account_id, document_id, position);
`,
  },
];

/** A photo as the screens list it (no bytes: they are fetched by id). */
export interface PhotoRecord {
  id: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  in_pdf: boolean;
  uploaded_at: string;
}

const folderOf = (accountId: string, documentId: string): string => `accounts/${accountId}/documents/${documentId}/photos/`;
const keyOf = (accountId: string, documentId: string, photoId: string, size: 'full' | 'thumb'): string =>
  `${folderOf(accountId, documentId)}${photoId}${size === 'thumb' ? '-thumb' : ''}.jpg`;

type Deps = Pick<AppDeps, 'store' | 'config' | 'files' | 'clock'>;

/** The account's document, refused unless it is a draft (photos change only then). */
async function requireDraft(deps: Pick<AppDeps, 'store'>, accountId: string, documentId: string) {
  const d = (await loadDocument(deps.store, accountId, documentId)).state;
  if (d.status !== 'draft') throw new Conflict(PHOTO_MESSAGES.notDraft(documentNoun(d.type)));
  return d;
}

const SELECT = `SELECT id, width, height, bytes, sha256, in_pdf, to_char(uploaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS uploaded_at FROM document_photos`;
type Row = Omit<PhotoRecord, 'bytes'> & { bytes: number | string };
const recordOf = (r: Row): PhotoRecord => ({ ...r, bytes: Number(r.bytes), width: Number(r.width), height: Number(r.height) });

/** The document's photos in the order they were added. */
export async function photosOf(sql: Sql, accountId: string, documentId: string): Promise<PhotoRecord[]> {
  const rows = await sql.query<Row>(`${SELECT} WHERE account_id = $1 AND document_id = $2 ORDER BY position`, [accountId, documentId]);
  return rows.map(recordOf);
}

/** The photo as kept, and its thumbnail, or why it is refused. */
async function preparePhoto(upload: Uint8Array): Promise<{ full: Uint8Array; thumb: Uint8Array; width: number; height: number }> {
  if (upload.length > MAX_PHOTO_BYTES) throw new TooLarge(PHOTO_MESSAGES.tooLarge);
  if (sniffReceipt(upload) !== 'photo') throw new UnsupportedType(PHOTO_MESSAGES.notPhoto);
  return decodeSlot.run(async () => {
    const full = await reencodePhoto(upload, PHOTO_MAX_SIDE);
    // The thumbnail from the bytes this code wrote, never from the upload.
    const thumb = await sharp(full.bytes).resize({ width: THUMB_MAX_SIDE, height: THUMB_MAX_SIDE, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 78, mozjpeg: true }).toBuffer();
    return { full: full.bytes, thumb: new Uint8Array(thumb), width: full.width, height: full.height };
  });
}

/** Adds a photo to a draft. The files are written before the row, so a row always names files. */
export async function addPhoto(deps: Deps & Pick<AppDeps, 'ids'>, accountId: string, documentId: string, upload: Uint8Array): Promise<PhotoRecord> {
  await requireDraft(deps, accountId, documentId);
  const db = deps.store.db;
  const [count] = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM document_photos WHERE account_id = $1 AND document_id = $2', [accountId, documentId]);
  if (Number(count?.n ?? 0) >= MAX_PHOTOS_PER_DOCUMENT) throw new Conflict(PHOTO_MESSAGES.tooMany);
  if (upload.length === 0) throw new Invalid(PHOTO_MESSAGES.missing);
  const photo = await preparePhoto(upload);
  const kept = await keepPhoto(deps, accountId, documentId, { ...photo, sha256: createHash('sha256').update(photo.full).digest('hex'), inPdf: false });
  if (!kept) throw new Conflict(PHOTO_MESSAGES.accountFull);
  return kept;
}

/**
 * The one way a photo is kept on a document (added, or copied by a duplicate): within the account's
 * 500 MB (null when it would pass them, nothing written), its files written before its row, so a row
 * always names files.
 */
async function keepPhoto(
  deps: Deps & Pick<AppDeps, 'ids'>,
  accountId: string,
  documentId: string,
  photo: { full: Uint8Array; thumb: Uint8Array; sha256: string; width: number; height: number; inPdf: boolean },
): Promise<PhotoRecord | null> {
  const db = deps.store.db;
  const [used] = await db.query<{ total: string }>('SELECT coalesce(sum(bytes + thumb_bytes), 0)::text AS total FROM document_photos WHERE account_id = $1', [accountId]);
  if (Number(used?.total ?? 0) + photo.full.length + photo.thumb.length > MAX_ACCOUNT_PHOTO_BYTES) return null;
  const id = deps.ids.uuid();
  await filesOf(deps).put(keyOf(accountId, documentId, id, 'full'), photo.full);
  await filesOf(deps).put(keyOf(accountId, documentId, id, 'thumb'), photo.thumb);
  const [row] = await db.query<Row>(
    `INSERT INTO document_photos (account_id, id, document_id, position, bytes, thumb_bytes, sha256, width, height, in_pdf, uploaded_at)
     VALUES ($1, $2, $3, (SELECT coalesce(max(position), 0) + 1 FROM document_photos WHERE account_id = $1 AND document_id = $3), $4, $5, $6, $7, $8, $9, $10)
     RETURNING id, width, height, bytes, sha256, in_pdf, to_char(uploaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS uploaded_at`,
    [accountId, id, documentId, photo.full.length, photo.thumb.length, photo.sha256, photo.width, photo.height, photo.inPdf, deps.clock.now().toISOString()],
  );
  return recordOf(row!);
}

async function photoRow(sql: Sql, accountId: string, documentId: string, photoId: string): Promise<PhotoRecord> {
  const [row] = plausibleId(photoId) ? await sql.query<Row>(`${SELECT} WHERE account_id = $1 AND document_id = $2 AND id = $3`, [accountId, documentId, photoId]) : [];
  if (!row) throw new NotFound(PHOTO_MESSAGES.notFound);
  return recordOf(row);
}

/** A photo's JPEG (or its thumbnail); 404 for another document's, another account's, or none. */
export async function photoBytes(deps: Pick<AppDeps, 'store' | 'config' | 'files'>, accountId: string, documentId: string, photoId: string, size: 'full' | 'thumb'): Promise<Uint8Array> {
  await photoRow(deps.store.db, accountId, documentId, photoId);
  const bytes = await filesOf(deps).get(keyOf(accountId, documentId, photoId, size));
  if (!bytes) throw new NotFound(PHOTO_MESSAGES.notFound);
  return bytes;
}

/** Whether the photo goes in the PDF's appendix (a draft's only). */
export async function setPhotoInPdf(deps: Deps, accountId: string, documentId: string, photoId: string, inPdf: boolean): Promise<PhotoRecord> {
  await requireDraft(deps, accountId, documentId);
  await photoRow(deps.store.db, accountId, documentId, photoId);
  await deps.store.db.query('UPDATE document_photos SET in_pdf = $4 WHERE account_id = $1 AND document_id = $2 AND id = $3', [accountId, documentId, photoId, inPdf]);
  return photoRow(deps.store.db, accountId, documentId, photoId);
}

/** Removes a photo from a draft: its row, then its files. */
export async function removePhoto(deps: Deps, accountId: string, documentId: string, photoId: string): Promise<void> {
  await requireDraft(deps, accountId, documentId);
  await photoRow(deps.store.db, accountId, documentId, photoId);
  await deps.store.db.query('DELETE FROM document_photos WHERE account_id = $1 AND document_id = $2 AND id = $3', [accountId, documentId, photoId]);
  await filesOf(deps).delete(keyOf(accountId, documentId, photoId, 'full'));
  await filesOf(deps).delete(keyOf(accountId, documentId, photoId, 'thumb'));
}

/**
 * A duplicate takes the photos of the document it copies, as new photos of its own (files copied,
 * rows made). Idempotent: a photo already on the copy (by its sha256) is not copied again, so a
 * replayed duplicate or a retry after a failure leaves one of each. Within the account's 500 MB.
 */
export async function copyDocumentPhotos(deps: Deps & Pick<AppDeps, 'ids'>, accountId: string, fromId: string, toId: string): Promise<void> {
  const db = deps.store.db;
  const already = new Set((await photosOf(db, accountId, toId)).map((p) => p.sha256));
  for (const p of await photosOf(db, accountId, fromId)) {
    if (already.has(p.sha256)) continue;
    const [full, thumb] = [await filesOf(deps).get(keyOf(accountId, fromId, p.id, 'full')), await filesOf(deps).get(keyOf(accountId, fromId, p.id, 'thumb'))];
    if (!full || !thumb) continue;
    if (!(await keepPhoto(deps, accountId, toId, { full, thumb, sha256: p.sha256, width: p.width, height: p.height, inPdf: p.in_pdf }))) return;
    already.add(p.sha256);
  }
}

/** Every photo of a deleted draft: the rows, then the files. */
export async function removeDocumentPhotos(deps: Pick<AppDeps, 'store' | 'config' | 'files'>, accountId: string, documentId: string): Promise<void> {
  await deps.store.db.query('DELETE FROM document_photos WHERE account_id = $1 AND document_id = $2', [accountId, documentId]);
  await filesOf(deps).deletePrefix(folderOf(accountId, documentId));
}

/** The photos ticked for the PDF, with their bytes, in order. */
export async function pdfPhotosOf(deps: Pick<AppDeps, 'store' | 'config' | 'files'>, accountId: string, documentId: string): Promise<{ sha256: string; bytes: Buffer; width: number; height: number }[]> {
  const out: { sha256: string; bytes: Buffer; width: number; height: number }[] = [];
  for (const p of (await photosOf(deps.store.db, accountId, documentId)).filter((x) => x.in_pdf)) {
    const bytes = await filesOf(deps).get(keyOf(accountId, documentId, p.id, 'full'));
    if (bytes) out.push({ sha256: p.sha256, bytes: Buffer.from(bytes), width: p.width, height: p.height });
  }
  return out;
}
