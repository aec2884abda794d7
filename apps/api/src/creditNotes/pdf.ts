// A credit note's PDF, rendered on request (small: it is rendered in this process rather than on
// the PDF worker pool). Named by its reference. It carries the business's logo, address and
// contact details as they are now, like its invoices; what it credits never changes.
import { createHash } from 'node:crypto';
import type { CreditNote, DocumentView } from '@tradie/domain';
import { renderCreditNotePdf } from '@tradie/pdf';
import type { AppDeps } from '../deps.ts';
import { pdfBusinessOf } from '../documents/pdf.ts';
import { prepareLogo } from '../settings/logoPrepare.ts';
import { loadBusinessSettings, logoForPdf } from '../settings/repository.ts';
import { loadCreditNote } from './commands.ts';

export interface CreditNotePdf {
  bytes: Buffer;
  sha256: string;
  filename: string;
}

/**
 * A credit note's PDF bytes, the same wherever it is asked for (its download, the client's link, the
 * accountant's ZIP, its email): dated the day it was issued, with the business's settings and logo.
 */
export async function renderCreditNoteFor(deps: Pick<AppDeps, 'store'>, accountId: string, invoice: DocumentView, note: CreditNote): Promise<Buffer> {
  const business = pdfBusinessOf(await loadBusinessSettings(deps.store.db, accountId));
  const logo = await logoForPdf(deps.store.db, accountId, prepareLogo);
  return renderCreditNotePdf({ creditNote: note, invoice, today: note.date, business, logo });
}

export async function creditNotePdfOf(deps: Pick<AppDeps, 'store'>, accountId: string, creditNoteId: string): Promise<CreditNotePdf> {
  const { invoice, note } = await loadCreditNote(deps.store, accountId, creditNoteId);
  const bytes = await renderCreditNoteFor(deps, accountId, invoice.state, note);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), filename: `${note.reference.replace(/[^\w.-]+/g, '_') || 'credit-note'}.pdf` };
}
