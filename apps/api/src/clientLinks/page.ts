// What the client's pages show, made from the same detail the tradie's screen gets
// (documents/view.ts detailOf): every number comes from the domain, none is worked out here.
// The quote page's `shown_sha256` is the SHA-256 of a canonical JSON of what it shows (the
// document's contents and the business's terms); an acceptance must name it (shownHashOf is the
// one function both the GET and the accept use).
import { createHash } from 'node:crypto';
import type { DocumentDetail, PublicBusiness, PublicDocument, PublicInvoicePage, PublicQuotePage, PublicVariation, VariationRecord } from '@tradie/contracts';
import {
  type DocumentTitle, type DocumentView, type LocalDate, PAYMENT_METHOD_LABELS, centsToNumber, centsToString, documentFigures, documentTitleOf, formatNzd, moneyMoved, nzDateOf, refundedOn, toCents,
  variationsSummary,
} from '@tradie/domain';
import type { Sql, StoreTx } from '@tradie/store';
import type { AppDeps } from '../deps.ts';
import type { LoadedDocument } from '../documents/repository.ts';
import { detailOf, variationRecordsOf } from '../documents/view.ts';
import { paymentOfferFor } from '../payments/offer.ts';
import { signedLogoUrl } from '../settings/logoLink.ts';
import { type BusinessSettings, loadBusinessSettings, logoVersion } from '../settings/repository.ts';
import { clientLineRecords } from '../documents/profitView.ts';
import { type PhotoRecord, photosOf } from '../documents/photos.ts';
import { bankDetailsOf, depositInvoiceOf, depositOwed } from './deposit.ts';

export type PageDeps = Pick<AppDeps, 'store' | 'clock' | 'secrets' | 'config' | 'connect'>;

/** JSON with every object's keys in order, so the same contents always hash the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The SHA-256 (hex) of what a quote page shows: the document's contents (not its link address) and the terms. */
export function shownHashOf(document: PublicDocument, terms: string): string {
  const { pdf_url: _address, ...contents } = document;
  return createHash('sha256').update(canonicalJson({ document: contents, terms }), 'utf8').digest('hex');
}

/**
 * The stream version of the last event that changed what the page shows (drafted or revised): a
 * link issued, a PDF recorded or a question asked does not make the client read it again.
 */
export function contentVersionOf(loaded: LoadedDocument): number {
  let v = 1;
  for (const e of loaded.events) if (e.type === 'DocumentDrafted' || e.type === 'DocumentRevised') v = e.streamVersion;
  return v;
}

/** What the page shows of a variation, as hashed: the quote it varies, its name, note, lines and figures (not where it stands). */
type ShownVariation = Pick<PublicVariation, 'name' | 'note' | 'line_items' | 'subtotal' | 'gst' | 'total' | 'formatted'>;

/** The SHA-256 (hex) of a variation as the page shows it; an approval must name it. */
export function variationShownHashOf(quoteReference: string, v: ShownVariation): string {
  const shown = { quote: quoteReference, name: v.name, note: v.note, line_items: v.line_items, subtotal: v.subtotal, gst: v.gst, total: v.total, formatted: v.formatted };
  return createHash('sha256').update(canonicalJson({ variation: shown }), 'utf8').digest('hex');
}

/** The client's view of the quote's variations (withdrawn ones left out). */
export function publicVariationsOf(d: DocumentView, records: VariationRecord[] = variationRecordsOf(d)): PublicVariation[] {
  return records
    .filter((v) => v.status !== 'withdrawn')
    .map((v) => {
      const shown: ShownVariation = { name: v.name, note: v.note, line_items: v.line_items, subtotal: v.subtotal, gst: v.gst, total: v.total, formatted: v.formatted };
      return {
        id: v.id,
        ...shown,
        status: v.status,
        status_label: v.status_label,
        shown_sha256: variationShownHashOf(d.reference, shown),
        acceptance: v.status === 'approved' && v.approved_at ? { signer_name: v.signer_name ?? '', accepted_at: v.approved_at, signed: v.signed } : null,
        declined_at: v.declined_at,
      };
    });
}

export const publicPdfPath = (kind: 'quote' | 'invoice', token: string): string => `/public/${kind === 'quote' ? 'quotes' : 'invoices'}/${token}/pdf`;

/** A credit note's PDF through the invoice's link. */
export const publicCreditNotePdfPath = (token: string, creditNoteId: string): string => `/public/invoices/${token}/credit-notes/${creditNoteId}/pdf`;

/** `title` is the PDF's (documentTitleOf with the business's GST number); `photos` those on it, in order. */
export function publicDocumentOf(detail: DocumentDetail, pdfUrl: string, title: DocumentTitle = detail.title, photos: readonly PhotoRecord[] = []): PublicDocument {
  return {
    type: detail.type,
    title,
    reference: detail.reference,
    issue_date: detail.issue_date,
    due_date: detail.due_date,
    valid_until: detail.valid_until,
    client_name: detail.client_name,
    job_title: detail.job_title,
    payment_terms_text: detail.payment_terms_text,
    site_address: detail.site_address,
    line_items: clientLineRecords(detail.line_items),
    gst_registered: detail.gst_registered,
    subtotal: detail.subtotal,
    gst: detail.gst,
    total: detail.total,
    paid: detail.paid,
    balance: detail.balance,
    formatted: { ...detail.formatted },
    notes: detail.notes,
    // Only when asked for: a quote without a deposit hashes as it did before deposits were kept.
    ...(detail.deposit ? { deposit: detail.deposit.wording } : {}),
    ...(photos.length > 0 ? { photos: photos.map((p) => ({ id: p.id, sha256: p.sha256, width: p.width, height: p.height })) } : {}),
    pdf_url: pdfUrl,
  };
}

/** The business as the page shows it; no GST number on a document made while it was not registered for GST. */
async function businessOf(deps: PageDeps, sql: Sql, accountId: string, s: BusinessSettings, d: DocumentView): Promise<PublicBusiness> {
  const sha = await logoVersion(sql, accountId);
  return {
    name: s.trading_as.trim() || s.business_name,
    gst_number: d.gstRegistered === false ? '' : s.gst_number,
    phone: s.phone,
    email: s.email,
    address: [s.address, s.city, s.postcode].map((p) => p.replace(/\s*\n\s*/g, ', ').trim()).filter((p) => p !== '').join(', '),
    logo_url: sha ? signedLogoUrl(deps.secrets.linkKey, accountId, sha, deps.clock.now()) : '',
  };
}

/** The quote page's state: answered, open (perhaps with changes asked for), or past its valid-until. */
function quoteState(d: DocumentView, status: DocumentDetail['status']): PublicQuotePage['state'] {
  if (d.status === 'accepted' || d.status === 'converted') return 'accepted';
  if (d.status === 'declined') return 'declined';
  if (status === 'expired') return 'expired';
  return d.changesRequestedAt ? 'changes_requested' : 'open';
}

/** The transaction's stream reader when `sql` is a transaction; the store's otherwise. */
const streamsOf = (deps: PageDeps, sql: Sql): Pick<StoreTx, 'readStream'> => ('readStream' in sql ? (sql as StoreTx) : deps.store);

export interface QuotePageParts {
  page: PublicQuotePage;
  settings: BusinessSettings;
}

/** The quote page; `sql` is the store, or the transaction a command reads in. */
export async function quotePageOf(deps: PageDeps, sql: Sql, accountId: string, loaded: LoadedDocument, token: string): Promise<QuotePageParts> {
  const d = loaded.state;
  const today: LocalDate = nzDateOf(deps.clock.now());
  const settings = await loadBusinessSettings(sql, accountId);
  const detail = detailOf(d, loaded.version, today);
  const document = publicDocumentOf(detail, publicPdfPath('quote', token), documentTitleOf(d, settings.gst_number), await photosOf(sql, accountId, d.id));
  const terms = settings.quote_terms.trim();
  const a = d.clientAcceptance;
  const page: PublicQuotePage = {
    business: await businessOf(deps, sql, accountId, settings, d),
    document,
    terms,
    shown_sha256: shownHashOf(document, terms),
    version: contentVersionOf(loaded),
    state: quoteState(d, detail.status),
    acceptance:
      d.status === 'accepted' || d.status === 'converted'
        ? a
          ? { signer_name: a.signerName, accepted_at: a.at ?? d.acceptedAt ?? '', signed: a.signatureSha256 !== null }
          : d.acceptedAt
            ? { signer_name: '', accepted_at: d.acceptedAt, signed: false }
            : null
        : null,
    decline: d.status === 'declined' ? { reasons: d.clientDecline?.reasons ?? [], note: d.clientDecline?.note ?? '', declined_at: d.clientDecline?.at ?? d.declinedAt ?? '' } : null,
    // Apart from `document` and its hash: the quote as the client accepted it never changes.
    variations: publicVariationsOf(d),
    summary: d.variations.length > 0 ? variationsSummary(d) : null,
    deposit_invoice: await depositInvoiceOf(deps, sql, streamsOf(deps, sql), accountId, d, settings),
    deposit_pending: depositOwed(d),
  };
  return { page, settings };
}

function invoiceState(status: DocumentDetail['status']): PublicInvoicePage['state'] {
  if (status === 'paid') return 'paid';
  if (status === 'overdue') return 'overdue';
  if (status === 'partial') return 'partial';
  return 'open';
}

export async function invoicePageOf(deps: PageDeps, accountId: string, loaded: LoadedDocument, token: string): Promise<PublicInvoicePage> {
  const d = loaded.state;
  const today: LocalDate = nzDateOf(deps.clock.now());
  const settings = await loadBusinessSettings(deps.store.db, accountId);
  const detail = detailOf(d, loaded.version, today);
  const f = documentFigures(d);
  const balanceCents = f.balanceCents;
  const moved = moneyMoved(d);
  const bank = bankDetailsOf(settings);
  return {
    business: await businessOf(deps, deps.store.db, accountId, settings, d),
    document: publicDocumentOf(detail, publicPdfPath('invoice', token), documentTitleOf(d, settings.gst_number), await photosOf(deps.store.db, accountId, d.id)),
    payments: d.payments.map((p) => ({ date: p.date, amount: centsToNumber(toCents(p.amount)), formatted: formatNzd(toCents(p.amount)), method_label: PAYMENT_METHOD_LABELS[p.method] })),
    credit_notes: d.creditNotes.map((n) => ({
      reference: n.reference,
      date: n.date,
      reason: n.reason,
      total: centsToNumber(toCents(n.total)),
      formatted: { total: formatNzd(toCents(n.total)), refunded: refundedOn(n) === 0n ? null : formatNzd(refundedOn(n)) },
      pdf_url: publicCreditNotePdfPath(token, n.creditNoteId),
    })),
    money: {
      credited: f.creditedCents === 0n ? null : formatNzd(f.creditedCents),
      received: formatNzd(moved.receivedCents),
      refunded: moved.refundedCents === 0n ? null : formatNzd(moved.refundedCents),
    },
    state: invoiceState(detail.status),
    pay: balanceCents > 0n ? await paymentOfferFor(deps, accountId, centsToString(balanceCents)) : null,
    bank,
  };
}
