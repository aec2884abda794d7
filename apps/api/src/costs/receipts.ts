// A cost's receipt: a photo from the phone's camera or the supplier's PDF, kept beside the cost
// (docs/api/costs.md, "Receipts"). Every upload is hostile until decoded:
//   - sniffed by its bytes, never by its name or declared type: JPEG, PNG, WebP or HEIC/AVIF photos,
//     or a PDF (starts '%PDF-', ends with '%%EOF');
//   - a photo is decoded in full (sharp/libvips, on libuv's pool, failing on any decoder error),
//     turned upright from its EXIF orientation, scaled to fit 2,400 px, and encoded afresh as a JPEG
//     with no metadata: the location the phone wrote, the camera's serial, any payload in a comment
//     are gone; what is kept is bytes this code wrote;
//   - bounded: 10 MB a file (the body limit, before it is read), 40 megapixels declared, 500 MB an
//     account (receipt_files counts it).
// The bytes go to the file store (files/store.ts) under accounts/{accountId}/receipts/{costId}; the
// row in receipt_files says what is there. Served only to the signed-in account, with nosniff and a
// sandboxing Content-Security-Policy. Deleting the cost deletes its receipt; deleting the account
// deletes every file (account/purge.ts).
import { createHash } from 'node:crypto';
import { COST_MESSAGES } from '@tradie/contracts';
import type { Migration, Sql } from '@tradie/store';
import sharp from 'sharp';
import type { AppDeps } from '../deps.ts';
import { Conflict, Invalid, NotFound, TooLarge, UnsupportedType } from '../errors.ts';
import { filesOf } from '../files/index.ts';
import { plausibleId } from '../http/ids.ts';
import { decodeSlot } from '../security/uploadGate.ts';

export const MAX_RECEIPT_BYTES = 10 * 1024 * 1024;
export const MAX_RECEIPT_PIXELS = 40_000_000;
export const MAX_ACCOUNT_RECEIPT_BYTES = 500 * 1024 * 1024;
/** The longest side of a kept photo: a till receipt stays readable, a phone photo a tenth of its size. */
export const RECEIPT_MAX_SIDE = 2400;

export const RECEIPT_MESSAGES = {
  notMultipart: 'Send the receipt as a file upload (multipart/form-data with a file field).',
  missing: 'Choose a photo or PDF of the receipt.',
  tooLarge: 'The receipt must be 10 MB or less.',
  unsupported: 'That file is not a photo (JPEG, PNG, WebP or HEIC) or a PDF.',
  unreadable: 'That photo could not be read. Take it again or choose another file.',
  tooManyPixels: 'That photo is too large to keep (more than 40 megapixels).',
  accountFull: 'Your receipts use the 500 MB your account can keep. Delete some old ones first.',
  none: 'This cost has no receipt.',
} as const;

export const receiptMigrations: Migration[] = [
  {
    id: 'costs-001-receipt-files',
    sql: `
CREATE TABLE IF NOT EXISTS receipt_files (
  account_id    text        NOT NULL,
  cost_id       text        NOT NULL,
  content_type  text        NOT NULL,
  bytes         integer     NOT NULL,
  sha256        text        NOT NULL,
  width         integer,
  height        integer,
  uploaded_at   timestamptz NOT NULL,
  PRIMARY KEY (account_id, cost_id)
);
`,
  },
];

export interface ReceiptInfo {
  content_type: 'image/jpeg' | 'application/pdf';
  bytes: number;
  uploaded_at: string;
}

type Prepared = { contentType: ReceiptInfo['content_type']; bytes: Uint8Array; width: number | null; height: number | null };

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean => sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number): string => String.fromCharCode(...b.subarray(Math.max(0, from), Math.min(b.length, to)));

/** What the bytes are, by their content: a photo format sharp decodes, a PDF, or neither. */
export function sniffReceipt(b: Uint8Array): 'photo' | 'pdf' | null {
  if (startsWith(b, [0xff, 0xd8, 0xff]) || startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'photo';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'photo';
  if (ascii(b, 4, 8) === 'ftyp' && /^(heic|heix|mif1|msf1|avif|hevc)$/.test(ascii(b, 8, 12))) return 'photo';
  if (ascii(b, 0, 5) === '%PDF-' && ascii(b, b.length - 1024, b.length).includes('%%EOF')) return 'pdf';
  return null;
}

sharp.cache(false);

/** The receipt as it is kept, or why it is refused (thrown as the error the route answers with). */
export async function prepareReceipt(bytes: Uint8Array): Promise<Prepared> {
  if (bytes.length > MAX_RECEIPT_BYTES) throw new TooLarge(RECEIPT_MESSAGES.tooLarge);
  const kind = sniffReceipt(bytes);
  if (kind === null) throw new UnsupportedType(RECEIPT_MESSAGES.unsupported);
  if (kind === 'pdf') return { contentType: 'application/pdf', bytes, width: null, height: null };
  // Decoded in one of the process's few decode places (security/uploadGate.ts): a burst waits its turn.
  return decodeSlot.run(() => reencodePhoto(bytes));
}

/**
 * A photo decoded in full and written afresh as a JPEG with no metadata, upright and fitted inside
 * `maxSide` pixels; refused in words when it cannot be read or is over 40 megapixels. Call it inside
 * decodeSlot.run. Receipts and the photos on quotes and invoices both keep what this wrote.
 */
export async function reencodePhoto(bytes: Uint8Array, maxSide = RECEIPT_MAX_SIDE): Promise<Prepared & { contentType: 'image/jpeg'; width: number; height: number }> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(bytes, { limitInputPixels: false, pages: 1 }).metadata();
  } catch {
    throw new Invalid(RECEIPT_MESSAGES.unreadable);
  }
  if (!meta.width || !meta.height) throw new Invalid(RECEIPT_MESSAGES.unreadable);
  if (meta.width * meta.height > MAX_RECEIPT_PIXELS) throw new Invalid(RECEIPT_MESSAGES.tooManyPixels);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_RECEIPT_PIXELS, failOn: 'error', pages: 1, sequentialRead: true })
      .autoOrient()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { contentType: 'image/jpeg', bytes: new Uint8Array(data), width: info.width, height: info.height };
  } catch {
    throw new Invalid(RECEIPT_MESSAGES.unreadable);
  }
}

const keyOf = (accountId: string, costId: string): string => `accounts/${accountId}/receipts/${costId}`;
export const accountFilesPrefix = (accountId: string): string => `accounts/${accountId}/`;

/** The account's live cost with this id, or 404: a receipt hangs only on a cost the account can see. */
export async function requireCost(sql: Sql, accountId: string, costId: string): Promise<void> {
  const found = plausibleId(costId) ? await sql.query('SELECT 1 FROM costs WHERE account_id = $1 AND id = $2', [accountId, costId]) : [];
  if (found.length === 0) throw new NotFound(COST_MESSAGES.costNotFound);
}

/** Keeps the receipt of a cost, replacing any it had. The file is written before its row, so a row always names a file. */
export async function saveReceipt(deps: Pick<AppDeps, 'store' | 'config' | 'files' | 'clock'>, accountId: string, costId: string, upload: Uint8Array): Promise<ReceiptInfo & { sha256: string }> {
  const db = deps.store.db;
  await requireCost(db, accountId, costId);
  const prepared = await prepareReceipt(upload);
  const [used] = await db.query<{ total: string }>('SELECT coalesce(sum(bytes), 0)::text AS total FROM receipt_files WHERE account_id = $1 AND cost_id <> $2', [accountId, costId]);
  if (Number(used?.total ?? 0) + prepared.bytes.length > MAX_ACCOUNT_RECEIPT_BYTES) throw new Conflict(RECEIPT_MESSAGES.accountFull);
  await filesOf(deps).put(keyOf(accountId, costId), prepared.bytes);
  const at = deps.clock.now().toISOString();
  const sha256 = createHash('sha256').update(prepared.bytes).digest('hex');
  await db.query(
    `INSERT INTO receipt_files (account_id, cost_id, content_type, bytes, sha256, width, height, uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (account_id, cost_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256,
       width = EXCLUDED.width, height = EXCLUDED.height, uploaded_at = EXCLUDED.uploaded_at`,
    [accountId, costId, prepared.contentType, prepared.bytes.length, sha256, prepared.width, prepared.height, at],
  );
  return { content_type: prepared.contentType, bytes: prepared.bytes.length, uploaded_at: at, sha256 };
}

/** The receipt's bytes and type, or 404. */
export async function loadReceipt(deps: Pick<AppDeps, 'store' | 'config' | 'files'>, accountId: string, costId: string): Promise<{ contentType: string; bytes: Uint8Array }> {
  await requireCost(deps.store.db, accountId, costId);
  const [row] = await deps.store.db.query<{ content_type: string }>('SELECT content_type FROM receipt_files WHERE account_id = $1 AND cost_id = $2', [accountId, costId]);
  const bytes = row ? await filesOf(deps).get(keyOf(accountId, costId)) : null;
  if (!row || !bytes) throw new NotFound(RECEIPT_MESSAGES.none);
  return { contentType: row.content_type, bytes };
}

/** Removes a cost's receipt (its row, then its file); nothing to remove is no error. */
export async function removeReceipt(deps: Pick<AppDeps, 'store' | 'config' | 'files'>, accountId: string, costId: string): Promise<void> {
  await forgetReceiptRow(deps.store.db, accountId, costId);
  await removeReceiptFile(deps, accountId, costId);
}

/** The receipt's row, inside the caller's transaction (deleting the cost deletes it in the same commit). */
export async function forgetReceiptRow(sql: Sql, accountId: string, costId: string): Promise<void> {
  await sql.query('DELETE FROM receipt_files WHERE account_id = $1 AND cost_id = $2', [accountId, costId]);
}

/** The receipt's file, once no row names it. */
export async function removeReceiptFile(deps: Pick<AppDeps, 'config' | 'files'>, accountId: string, costId: string): Promise<void> {
  await filesOf(deps).delete(keyOf(accountId, costId));
}

/** Each cost's receipt, for the lists: what is kept (type, size, when), by cost id. */
export async function receiptsOf(sql: Sql, accountId: string, costIds: readonly string[]): Promise<Map<string, ReceiptInfo>> {
  if (costIds.length === 0) return new Map();
  const rows = await sql.query<{ cost_id: string; content_type: ReceiptInfo['content_type']; bytes: number; uploaded_at: string }>(
    `SELECT cost_id, content_type, bytes, to_char(uploaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS uploaded_at FROM receipt_files WHERE account_id = $1 AND cost_id = ANY($2::text[])`,
    [accountId, [...costIds]],
  );
  return new Map(rows.map((r) => [r.cost_id, { content_type: r.content_type, bytes: Number(r.bytes), uploaded_at: r.uploaded_at }]));
}

/** The receipt files of costs dated in a period, for the accountant's ZIP: the cost id, its type and bytes. */
export async function receiptFilesFor(deps: Pick<AppDeps, 'store' | 'config' | 'files'>, accountId: string, costIds: readonly string[]): Promise<{ costId: string; contentType: string; bytes: Uint8Array }[]> {
  const kept = await receiptsOf(deps.store.db, accountId, costIds);
  const out: { costId: string; contentType: string; bytes: Uint8Array }[] = [];
  for (const [costId, info] of kept) {
    const bytes = await filesOf(deps).get(keyOf(accountId, costId));
    if (bytes) out.push({ costId, contentType: info.content_type, bytes });
  }
  return out;
}
