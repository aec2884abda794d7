// What the client's quote and invoice pages share: the frame, the business's header, the
// document's lines and figures (the API's formatted strings), and the full-page message for a link
// that does not work.
import { useEffect, type ReactNode } from 'react';
import type { PublicBankDetails, PublicBusiness, PublicDocument, PublicInvoicePage } from '@tradie/contracts';
import { formatNzDateLong, nzDateOf } from '@tradie/domain';
import { type ApiError, errorDetail, isApiError } from '../../api/client.ts';
import { LineItemsList } from '../shared/LineItemsList.tsx';
import { AddressLines } from '../../ui/AddressLines.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { Card } from '../../ui/Card.tsx';
import { FigureRow } from '../../ui/FigureRow.tsx';
import { LoadingBlock, RetryAlert } from '../../ui/Status.tsx';
import { apiHref } from './queries.ts';

/** '6 December 2025' for an instant, on the New Zealand calendar. */
export const nzLongDate = (instant: string): string => formatNzDateLong(nzDateOf(instant));

/** '6 December 2025' for a 'YYYY-MM-DD' day. */
export const longDay = (day: string): string => formatNzDateLong(day);

/** The page: one column, the width of a phone, centred on a wider screen. */
export function ClientFrame({ children, label }: { children: ReactNode; label: string }) {
  return (
    <main id="main" className="client-page" aria-label={label}>
      {children}
    </main>
  );
}

/** The business in a sentence: its name, or 'the business' when it has not set one. */
export const businessName = (business: PublicBusiness, start = false): string => business.name.trim() || (start ? 'The business' : 'the business');

/** The business as the client knows it: logo, name and how to reach them (nothing when it has set none of them). */
export function BusinessHeader({ business }: { business: PublicBusiness }) {
  if (![business.name, business.logo_url, business.address, business.phone, business.email, business.gst_number].some((v) => v.trim() !== '')) return null;
  return (
    <header className="client-business">
      {business.logo_url && <img className="client-business__logo" src={apiHref(business.logo_url)} alt={business.name ? `${business.name} logo` : 'Business logo'} />}
      <div className="client-business__text">
        {business.name && <p className="client-business__name">{business.name}</p>}
        {business.address && <p className="client-business__line">{business.address}</p>}
        <p className="client-business__contact">
          {business.phone && (
            <a className="client-business__link" href={`tel:${business.phone.replace(/\s+/g, '')}`}>
              {business.phone}
            </a>
          )}
          {business.email && (
            <a className="client-business__link" href={`mailto:${business.email}`}>
              {business.email}
            </a>
          )}
        </p>
        {business.gst_number && <p className="client-business__line">GST number {business.gst_number}</p>}
      </div>
    </header>
  );
}

/** The document's title block: 'Quote Q-0001', for whom, its dates. */
export function DocumentHeading({ doc, children }: { doc: PublicDocument; children?: ReactNode }) {
  const isQuote = doc.type === 'quote';
  return (
    <div className="client-heading">
      <h1 className="client-heading__title">
        {doc.title} {doc.reference}
      </h1>
      {children}
      <dl className="facts">
        {doc.job_title && (
          <div>
            <dt>Job</dt>
            <dd>{doc.job_title}</dd>
          </div>
        )}
        {doc.client_name && (
          <div>
            <dt>For</dt>
            <dd>{doc.client_name}</dd>
          </div>
        )}
        {doc.site_address && (
          <div>
            <dt>Site</dt>
            <dd data-testid="client-site-address">
              <AddressLines address={doc.site_address} />
            </dd>
          </div>
        )}
        <div>
          <dt>Issued</dt>
          <dd>{longDay(doc.issue_date)}</dd>
        </div>
        {isQuote && doc.valid_until && (
          <div>
            <dt>Valid until</dt>
            <dd>{longDay(doc.valid_until)}</dd>
          </div>
        )}
        {!isQuote && (
          <div>
            <dt>Due</dt>
            <dd>{longDay(doc.due_date)}</dd>
          </div>
        )}
        {!isQuote && (
          <div>
            <dt>Payment terms</dt>
            <dd data-testid="client-payment-terms">{doc.payment_terms_text}</dd>
          </div>
        )}
      </dl>
    </div>
  );
}

/**
 * The lines, subtotal, GST and total (an invoice also what credit notes took off, what was paid,
 * what was paid back and the balance — each as the API formats it), the notes and the PDF.
 */
export function DocumentCard({ doc, money }: { doc: PublicDocument; money?: PublicInvoicePage['money'] }) {
  const isQuote = doc.type === 'quote';
  return (
    <Card titleId="client-lines-title" title="What it covers" className="client-card">
      <LineItemsList lines={doc.line_items} gstRegistered={doc.gst_registered} />
      <dl className="figures client-figures">
        {doc.gst_registered !== false && (
          <>
            <FigureRow label={doc.gst === 0 ? 'Subtotal' : 'Subtotal (excl. GST)'} value={doc.formatted.subtotal} testId="client-subtotal" />
            <FigureRow label="GST" value={doc.formatted.gst} testId="client-gst" />
          </>
        )}
        <FigureRow label={doc.gst === 0 ? 'Total' : 'Total incl. GST'} value={doc.formatted.total} total testId="client-total" />
        {!isQuote && (
          <>
            {money?.credited && <FigureRow label="Credit notes" value={`−${money.credited}`} testId="client-credited" />}
            <FigureRow label="Paid" value={money && money.refunded ? money.received : doc.formatted.paid} testId="client-paid" />
            {money?.refunded && <FigureRow label="Paid back to you" value={`+${money.refunded}`} testId="client-refunded" />}
            <FigureRow label="Balance to pay" value={doc.formatted.balance} total testId="client-balance" />
          </>
        )}
      </dl>
      {doc.deposit && (
        <p className="callout client-deposit" data-testid="client-deposit">
          {doc.deposit}
        </p>
      )}
      {doc.notes && <p className="client-notes">{doc.notes}</p>}
      {doc.photos && doc.photos.length > 0 && <ClientPhotos doc={doc} photos={doc.photos} />}
      <a className="button button--secondary button--block client-pdf" href={apiHref(doc.pdf_url)} download>
        Download the PDF<span className="visually-hidden"> of {isQuote ? 'quote' : 'invoice'} {doc.reference}</span>
      </a>
    </Card>
  );
}

/** The API's answer that the link does not work any more (404 unknown; 410 withdrawn, expired, replaced, the business closed). */
export const linkGone = (error: unknown): error is ApiError => isApiError(error) && (error.status === 404 || error.status === 410);

/**
 * A link that does not work (unknown, withdrawn, expired, replaced, the business closed its
 * account): the server's words, full page.
 */
export function LinkProblem({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <ClientFrame label="This link">
      {linkGone(error) ? (
        <div className="card client-problem" role="alert">
          <h1 className="client-problem__title">{error.status === 404 ? 'Link not found' : 'This link no longer works'}</h1>
          <p className="client-problem__text">{errorDetail(error)}</p>
        </div>
      ) : (
        <RetryAlert onRetry={onRetry}>{errorDetail(error) ?? 'Could not load this page'}</RetryAlert>
      )}
    </ClientFrame>
  );
}

export function ClientLoading({ label }: { label: string }) {
  return (
    <ClientFrame label={label}>
      <LoadingBlock largeSpinner />
    </ClientFrame>
  );
}

/** The tab's title names the document and the business once the page has them. */
export function useDocumentTitle(doc: PublicDocument | undefined, business: PublicBusiness | undefined): void {
  const title = doc && business ? `${doc.title} ${doc.reference}${business.name ? ` from ${business.name}` : ''}` : undefined;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}

/** 'Your full name' on an acceptance (a quote's or a variation's): refused, it is marked invalid and described by `errorId`. */
export function SignerNameField({ id, value, onChange, refused, errorId }: { id: string; value: string; onChange: (name: string) => void; refused: boolean; errorId: string }) {
  return (
    <FormField id={id} label="Your full name">
      {() => (
        <input
          id={id}
          className="input"
          type="text"
          autoComplete="name"
          autoCapitalize="words"
          enterKeyHint="done"
          maxLength={120}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={refused || undefined}
          aria-describedby={refused ? errorId : undefined}
        />
      )}
    </FormField>
  );
}

/** How to pay by bank transfer: the business's account and the reference to use; or, with none given, to contact the business. */
export function BankTransfer({ bank, business, amount, reference, titleId, title }: { bank: PublicBankDetails; business: PublicBusiness; amount: string; reference: string; titleId: string; title: string }) {
  return (
    <Card titleId={titleId} title={title} className="client-card">
      {bank ? (
        <>
          <p className="card__intro">Please pay {amount} by bank transfer:</p>
          <dl className="client-bank">
            {bank.bank_name && (
              <div>
                <dt>Bank</dt>
                <dd>{bank.bank_name}</dd>
              </div>
            )}
            <div>
              <dt>Account name</dt>
              <dd>{bank.account_name}</dd>
            </div>
            <div>
              <dt>Account number</dt>
              <dd className="client-bank__number">{bank.account_number}</dd>
            </div>
            <div>
              <dt>Reference</dt>
              <dd>{reference}</dd>
            </div>
          </dl>
        </>
      ) : (
        <p className="card__intro">Please contact {businessName(business)} to pay this invoice.</p>
      )}
    </Card>
  );
}

/** The photos on the document: thumbnails, each opening the full photo through the link. */
function ClientPhotos({ doc, photos }: { doc: PublicDocument; photos: NonNullable<PublicDocument['photos']> }) {
  // The link's own address for them: beside its PDF (…/{token}/pdf → …/{token}/photos/{id}).
  const base = doc.pdf_url.replace(/\/pdf$/, '/photos/');
  return (
    <section className="client-photos" aria-labelledby="client-photos-title">
      <h3 id="client-photos-title" className="client-photos__title">
        Photos
      </h3>
      <ul className="client-photos__grid">
        {photos.map((p, i) => {
          const alt = `Photo ${i + 1} of ${photos.length}`;
          const landscape = p.width >= p.height;
          return (
            <li key={p.id}>
              <a href={apiHref(`${base}${encodeURIComponent(p.id)}`)} target="_blank" rel="noopener noreferrer" className="client-photos__link">
                <img
                  src={apiHref(`${base}${encodeURIComponent(p.id)}?size=thumb`)}
                  alt={alt}
                  loading="lazy"
                  width={landscape ? 240 : Math.round((240 * p.width) / p.height)}
                  height={landscape ? Math.round((240 * p.height) / p.width) : 240}
                />
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
