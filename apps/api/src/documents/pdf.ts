// The PDF of a document with the business settings and logo as they are now, dated today in NZ.
// Rendered outside any store transaction (it takes milliseconds, and PGlite has one session).
import { createHash } from 'node:crypto';
import { type DocumentView, nzDateOf } from '@tradie/domain';
import { type PdfBusiness, renderDocumentPdf } from '@tradie/pdf';
import type { AppDeps } from '../deps.ts';
import { type BusinessSettings, loadBusinessSettings, loadLogo } from '../settings/repository.ts';

export const pdfBusinessOf = (s: BusinessSettings): PdfBusiness => ({
  business_name: s.business_name,
  trading_as: s.trading_as,
  nzbn: s.nzbn,
  gst_number: s.gst_number,
  phone: s.phone,
  email: s.email,
  website: s.website,
  address: s.address,
  city: s.city,
  postcode: s.postcode,
  bank_name: s.bank_name,
  bank_account_name: s.bank_account_name,
  bank_account_number: s.bank_account_number,
});

/** `INV-0001.pdf`: the reference is made of letters, digits and a dash, but keep the name safe whatever it holds. */
export const pdfFileName = (d: Pick<DocumentView, 'reference'>): string => `${d.reference.replace(/[^\w.-]+/g, '_') || 'document'}.pdf`;

export interface RenderedPdf {
  bytes: Buffer;
  sha256: string;
  settings: BusinessSettings;
}

export async function renderPdfFor(deps: Pick<AppDeps, 'store' | 'clock' | 'renderPdf'>, accountId: string, d: DocumentView): Promise<RenderedPdf> {
  const settings = await loadBusinessSettings(deps.store.db, accountId);
  const logo = await loadLogo(deps.store.db, accountId);
  const render = deps.renderPdf ?? renderDocumentPdf;
  const bytes = await render({
    document: d,
    business: pdfBusinessOf(settings),
    logo: logo ? { bytes: logo.bytes, kind: logo.kind } : null,
    today: nzDateOf(deps.clock.now()),
  });
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), settings };
}
