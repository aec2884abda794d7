// `npm run bench` figure: the PDF of a 20-line invoice, median of N renders (budget ≤ 60 ms).
// The invoice is made the way the app makes one: a DraftDocument command decided by the domain.
import { type DocumentView, decideDocument, evolveDocument, initialDocumentState, linesSchema } from '@tradie/domain';
import { renderDocumentPdf } from './render.ts';
import type { PdfBusiness } from './types.ts';

/** The business on the bench invoice (and the tests' usual business). */
export const benchBusiness: PdfBusiness = {
  business_name: 'Kōwhai Plumbing Limited',
  trading_as: 'Kōwhai Plumbing & Gas',
  nzbn: '9429041234563',
  gst_number: '49-091-850',
  phone: '021 555 0199',
  email: 'accounts@kowhaiplumbing.co.nz',
  website: 'kowhaiplumbing.co.nz',
  address: '12 Kahikatea Drive',
  city: 'Whangārei',
  postcode: '0110',
  bank_name: 'ANZ',
  bank_account_name: 'Kōwhai Plumbing Ltd',
  bank_account_number: '01-0123-0123457-00',
};

/** A 20-line invoice to a business client in Tāmaki Makaurau. */
export function benchInvoice(lineCount = 20): DocumentView {
  const lines = linesSchema.parse(
    Array.from({ length: lineCount }, (_, i) => ({ description: `Item ${i + 1}: 15 mm copper pipe and fittings, Whangārei job`, qty: (i % 4) + 1, unit_price: `${20 + i}.50` })),
  );
  const events = decideDocument(
    {
      type: 'DraftDocument',
      data: {
        documentId: 'bench',
        type: 'invoice',
        number: 42,
        reference: 'INV-0042',
        client: { id: 'c', name: 'Aroha Ngata', email: 'aroha@example.co.nz', phone: '', address: '5 Māngere Road\nTāmaki Makaurau 2022', is_business: 'true', business_name: 'Ōtāhuhu Builders', company_number: '', gst_number: '' },
        lines,
        gstRounding: 'total',
        issueDate: '2026-05-04',
        paymentTerms: '7 days',
      },
    },
    initialDocumentState,
  );
  const state = events.reduce(evolveDocument, initialDocumentState);
  if (state.status === 'none') throw new Error('bench invoice was not drafted');
  return state;
}

export interface BenchOptions {
  /** Timed renders (after warm-up). */
  runs?: number;
  warmup?: number;
  /** A monotonic clock in ms; a port so the harness can pass its own. */
  now?: () => number;
}

/** Median milliseconds to render the 20-line invoice to PDF bytes. */
export async function benchPdf(options: BenchOptions = {}): Promise<number> {
  const { runs = 30, warmup = 5, now = () => performance.now() } = options;
  const input = { document: benchInvoice(20), business: benchBusiness, logo: null, today: '2026-05-04' };
  for (let i = 0; i < warmup; i++) await renderDocumentPdf(input);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = now();
    await renderDocumentPdf(input);
    times.push(now() - t0);
  }
  times.sort((a, b) => a - b);
  const mid = Math.floor(times.length / 2);
  return times.length % 2 === 1 ? (times[mid] ?? 0) : ((times[mid - 1] ?? 0) + (times[mid] ?? 0)) / 2;
}
