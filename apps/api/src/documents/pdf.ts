// The PDF of a document with the business settings and logo as they are now, dated today in NZ.
// Rendered outside any store transaction (PGlite has one session), on the PDF worker pool
// (packages/pdf pool.ts) unless the app was given its own renderer, and kept in a bounded cache
// by everything it was made from (pdfCache.ts). A render that fails is this request's problem
// answer (503 for a time-out or a full queue, 500 otherwise), never the process's.
import { pdfPhotosOf } from './photos.ts';
import { certificatesFor } from '../clientLinks/pdf.ts';
import { createHash } from 'node:crypto';
import { type DocumentView, nzDateOf } from '@tradie/domain';
import { PDF_BUSINESS_FIELDS, type PdfAcceptance, type PdfBusiness, PdfRenderError, sharedPdfPool } from '@tradie/pdf';
import type { AppDeps } from '../deps.ts';
import { plausibleId } from '../http/ids.ts';
import { prepareLogo } from '../settings/logoPrepare.ts';
import { type BusinessSettings, loadBusinessSettings, logoForPdf } from '../settings/repository.ts';
import { PdfCache, pdfCacheKey } from './pdfCache.ts';
import { claimFiguresOf, pdfClaimOf, stageQuoteOf } from '../paymentClaims/view.ts';
import { loadDocument } from './repository.ts';
import { Internal, RetryLater } from '../errors.ts';

export const PDF_MESSAGES = {
  timeout: 'This PDF is taking too long to make. Please try again in a moment.',
  busy: "We're making a lot of PDFs right now. Please try again in a moment.",
  failed: "We couldn't make this PDF. Please try again; if it keeps happening, contact support.",
} as const;

/** The settings the PDF prints (PdfBusiness), in the order of PDF_BUSINESS_FIELDS: that order is part of the PDF cache key. */
export const pdfBusinessOf = (s: BusinessSettings): PdfBusiness =>
  Object.fromEntries(PDF_BUSINESS_FIELDS.map((field) => [field, s[field]])) as PdfBusiness;

/** `INV-0001.pdf`: the reference is made of letters, digits and a dash, but keep the name safe whatever it holds. */
export const pdfFileName = (d: Pick<DocumentView, 'reference'>): string => `${d.reference.replace(/[^\w.-]+/g, '_') || 'document'}.pdf`;

export interface RenderedPdf {
  bytes: Buffer;
  sha256: string;
  settings: BusinessSettings;
  /** The cache key of these bytes (pdfCache.ts). */
  key: string;
}

/**
 * A fingerprint of everything a document's PDF is made from, read in one query from the read
 * models: the document's stream version (documents_list, written in the same transaction as its
 * events), the business settings row's content, the logo's hash and state, and today in NZ. Null
 * when the account has no such document (the full path then answers 404).
 */
export async function pdfFingerprint(deps: Pick<AppDeps, 'store' | 'clock'>, accountId: string, documentId: string): Promise<string | null> {
  const [row] = await deps.store.db.query<{ v: number | null; s: string | null; l: string | null; p: string | null }>(
    `SELECT (SELECT stream_version FROM documents_list WHERE id = $1 AND account_id = $2) AS v,
            (SELECT md5(b::text) FROM business_settings b WHERE account_id = $2) AS s,
            (SELECT sha256 || ':' || state FROM business_logos WHERE account_id = $2) AS l,
            (SELECT string_agg(sha256, ',' ORDER BY position) FROM document_photos WHERE account_id = $2 AND document_id = $1 AND in_pdf) AS p`,
    [documentId, accountId],
  );
  if (!row || row.v === null) return null;
  return JSON.stringify([accountId, documentId, row.v, row.s, row.l, row.p, nzDateOf(deps.clock.now())]);
}

const caches = new WeakMap<object, PdfCache>();
/** One cache per app (keyed by its deps), PDF_CACHE_MB big. */
export function pdfCacheOf(deps: Pick<AppDeps, 'config'>): PdfCache {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, (cache = new PdfCache(deps.config.pdf.cacheBytes)));
  return cache;
}

/**
 * The document's PDF; with `acceptance` (a quote accepted through the client's link), the
 * acceptance certificate after it, and one for each variation the client approved there.
 */
export async function renderPdfFor(
  deps: Pick<AppDeps, 'store' | 'clock' | 'renderPdf' | 'config' | 'log' | 'files'>,
  accountId: string,
  d: DocumentView,
  acceptance: PdfAcceptance | null = null,
  variationAcceptances: PdfAcceptance[] = [],
): Promise<RenderedPdf> {
  const settings = await loadBusinessSettings(deps.store.db, accountId);
  // A logo stored before uploads were re-encoded is checked here, once (repository.ts).
  const logo = await logoForPdf(deps.store.db, accountId, prepareLogo);
  const today = nzDateOf(deps.clock.now());
  // A payment claim carries its claim pages and the Form 1 notice (paymentClaims/view.ts).
  const figures = d.paymentClaim ? claimFiguresOf(d, await stageQuoteOf(deps.store, accountId, d), today) : null;
  const claim = figures ? pdfClaimOf(figures) : null;
  // An unserved claim is printed as it will be served today: its due date for payment is from today.
  const document = figures && !figures.dates.served ? { ...d, dueDate: figures.dates.paymentDue } : d;
  // A quote prints the business's terms, or, once its client accepted them through the link, the wording they accepted.
  const quoteTerms = d.type === 'quote' ? (acceptance?.terms ?? settings.quote_terms).trim() : '';
  const input = {
    document, business: pdfBusinessOf(settings), today, ...(quoteTerms ? { quoteTerms } : {}), ...(acceptance ? { acceptance } : {}), ...(variationAcceptances.length > 0 ? { variationAcceptances } : {}), ...(claim ? { claim } : {}),
  };
  // The photos the tradie ticked for the PDF's appendix.
  const photos = await pdfPhotosOf(deps, accountId, d.id);
  const render = deps.renderPdf ?? ((i) => sharedPdfPool().render(i));
  let bytes: Buffer;
  const key = pdfCacheKey(input, logo?.sha256 ?? null, photos.map((p) => p.sha256));
  try {
    bytes = await pdfCacheOf(deps).getOrRender(key, () =>
      render({ ...input, logo: logo ? { bytes: logo.bytes, kind: logo.kind } : null, ...(photos.length > 0 ? { photos: photos.map(({ bytes: b, width, height }) => ({ bytes: b, width, height })) } : {}) }),
    );
  } catch (e) {
    if (!(e instanceof PdfRenderError)) throw e;
    deps.log('error', 'a PDF could not be rendered', { documentId: d.id, code: e.code, error: e.message });
    if (e.code === 'failed') throw new Internal(PDF_MESSAGES.failed);
    throw new RetryLater(PDF_MESSAGES[e.code], undefined, Number(e.code === 'timeout' ? '10' : '5'));
  }
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), settings, key };
}

/** A PDF as it is downloaded: its bytes, the file name (its reference) and the ETag's hash. */
export interface PdfFile {
  bytes: Buffer;
  filename: string;
  sha256: string;
}

/** The document's PDF to download. A repeat download of an unchanged document is answered from the cache after one small query. */
export async function pdfFileOf(deps: Pick<AppDeps, 'store' | 'clock' | 'renderPdf' | 'config' | 'log'>, accountId: string, id: string): Promise<PdfFile> {
  const fingerprint = plausibleId(id) ? await pdfFingerprint(deps, accountId, id) : null;
  const cached = fingerprint ? pdfCacheOf(deps).viaShortcut(fingerprint) : null;
  if (cached) return cached;
  const loaded = await loadDocument(deps.store, accountId, id);
  // A quote the client accepted through its link carries the acceptance certificates (its own, its variations') last.
  const pdf = await renderPdfFor(deps, accountId, loaded.state, ...(await certificatesFor(deps.store.db, accountId, loaded.state)));
  const filename = pdfFileName(loaded.state);
  if (fingerprint) pdfCacheOf(deps).remember(fingerprint, { key: pdf.key, filename, sha256: pdf.sha256 });
  return { bytes: pdf.bytes, filename, sha256: pdf.sha256 };
}
