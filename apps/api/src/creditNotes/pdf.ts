// A credit note's PDF, rendered on request (a credit note never changes once issued, and is
// small: it is rendered in this process rather than on the PDF worker pool). Named by its reference.
import { createHash } from 'node:crypto';
import { renderCreditNotePdf } from '@tradie/pdf';
import type { AppDeps } from '../deps.ts';
import { loadCreditNote } from './commands.ts';

export interface CreditNotePdf {
  bytes: Buffer;
  sha256: string;
  filename: string;
}

export async function creditNotePdfOf(deps: Pick<AppDeps, 'store'>, accountId: string, creditNoteId: string): Promise<CreditNotePdf> {
  const { invoice, note } = await loadCreditNote(deps.store, accountId, creditNoteId);
  // Dated the day it was issued, so the same credit note always gives the same bytes.
  const bytes = await renderCreditNotePdf({ creditNote: note, invoice: invoice.state, today: note.date });
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), filename: `${note.reference.replace(/[^\w.-]+/g, '_') || 'credit-note'}.pdf` };
}
