// Invoices for the Xero tests, built through the domain's own decider so they are real views.
import { type DocumentCommand, type DocumentView, type DraftInput, type LineInput, decideDocument, foldDocument, linesSchema } from '@tradie/domain';

export const client = {
  id: 'c1',
  name: 'Aroha Ngata',
  email: 'aroha@example.nz',
  phone: '021 555 0101',
  address: '12 Kowhai St, Nelson',
  is_business: 'false' as const,
  business_name: '',
  company_number: '',
  gst_number: '',
};

/** The lines of an invoice when a test doesn't say. */
export const defaultLines: LineInput[] = [
  { description: 'Replace hot water cylinder valve', qty: 1, unit_price: 180 },
  { description: 'Labour', qty: 2.5, unit_price: 90 },
];

export function invoiceView(opts: { lines?: LineInput[]; over?: Partial<DraftInput>; then?: DocumentCommand[] } = {}): DocumentView {
  const lines = linesSchema.parse(opts.lines ?? defaultLines);
  const draft: DraftInput = {
    documentId: 'doc-1',
    type: 'invoice',
    number: 1,
    reference: 'INV-0001',
    client,
    lines,
    gstRounding: 'total',
    issueDate: '2026-05-04',
    paymentTerms: '7 days',
    ...opts.over,
  };
  let events = decideDocument({ type: 'DraftDocument', data: draft }, { status: 'none' });
  for (const c of opts.then ?? []) events = [...events, ...decideDocument(c, foldDocument(events))];
  return foldDocument(events) as DocumentView;
}

export const send: DocumentCommand = { type: 'SendDocument', data: { to: ['aroha@example.nz'], cc: [], bcc: [], subject: 'Invoice INV-0001' } };
