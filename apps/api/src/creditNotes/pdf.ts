// A credit note's PDF, rendered on request (small: it is rendered in this process rather than on
// the PDF worker pool). Named by its reference. It carries the business's logo, address and
// contact details as they are now, like its invoices; what it credits never changes.
import { createHash } from 'node:crypto';
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

export async function creditNotePdfOf(deps: Pick<AppDeps, 'store'>, accountId: string, creditNoteId: string): Promise<CreditNotePdf> {
  const { invoice, note } = await loadCreditNote(deps.store, accountId, creditNoteId);
  const business = pdfBusinessOf(await loadBusinessSettings(deps.store.db, accountId));
  const logo = await logoForPdf(deps.store.db, accountId, prepareLogo);
  // Dated the day it was issued, so the same credit note and settings always give the same bytes.
  const bytes = await renderCreditNotePdf({ creditNote: note, invoice: invoice.state, today: note.date, business, logo });
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), filename: `${note.reference.replace(/[^\w.-]+/g, '_') || 'credit-note'}.pdf` };
}
