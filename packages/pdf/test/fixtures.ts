// Documents for the PDF tests, made the way the app makes them: commands decided into events
// by the domain's decider and folded into a view.
import {
  type ClientSnapshot,
  type DocumentCommand,
  type DocumentEvent,
  type DocumentState,
  type DocumentView,
  type DraftInput,
  type LineInput,
  decideDocument,
  evolveDocument,
  initialDocumentState,
  linesSchema,
} from '@tradie/domain';
import type { PdfBusiness } from '../src/types.ts';
import { benchBusiness } from '../src/bench.ts';

export const business: PdfBusiness = benchBusiness;

export const unregistered: PdfBusiness = { ...business, gst_number: '' };

export const client: ClientSnapshot = {
  id: 'c1',
  name: 'Aroha Ngata',
  email: 'aroha@example.co.nz',
  phone: '027 123 4567',
  address: '5 Māngere Road\nTāmaki Makaurau 2022',
  is_business: 'true',
  business_name: 'Ōtāhuhu Builders',
  company_number: '',
  gst_number: '',
};

export const threeLines: LineInput[] = [
  { description: 'Replace hot water cylinder valve — Taupō site', qty: 1, unit_price: 180 },
  { description: 'Labour (per hour)', qty: 2.5, unit_price: 90 },
  { description: 'Copper fittings', qty: 6, unit_price: 12.35 },
];

export const manyLines = (n: number): LineInput[] =>
  Array.from({ length: n }, (_, i) => ({ description: `Item ${i + 1}: 15 mm copper pipe, fitted at Whangārei job ${i + 1}`, qty: (i % 4) + 1, unit_price: `${10 + i}.${String(i % 100).padStart(2, '0')}` }));

export function run(commands: DocumentCommand[], meta: { at?: string } = { at: '2026-05-04T21:00:00.000Z' }): { view: DocumentView; events: DocumentEvent[] } {
  let state: DocumentState = initialDocumentState;
  const events: DocumentEvent[] = [];
  for (const c of commands) {
    for (const e of decideDocument(c, state)) {
      events.push(e);
      state = evolveDocument(state, { ...e, meta });
    }
  }
  if (state.status === 'none') throw new Error('no document');
  return { view: state, events };
}

export const draft = (over: Partial<DraftInput> & { lineInputs?: LineInput[] } = {}): DocumentCommand => {
  const { lineInputs, ...rest } = over;
  return {
    type: 'DraftDocument',
    data: {
      documentId: 'd1',
      type: 'invoice',
      number: 1,
      reference: 'INV-0001',
      client,
      lines: linesSchema.parse(lineInputs ?? threeLines),
      gstRounding: 'total',
      issueDate: '2026-05-04',
      paymentTerms: '7 days',
      ...rest,
    },
  };
};

export const invoice = (over: Parameters<typeof draft>[0] = {}, ...then: DocumentCommand[]): DocumentView => run([draft(over), ...then]).view;
export const quote = (over: Parameters<typeof draft>[0] = {}, ...then: DocumentCommand[]): DocumentView =>
  run([draft({ type: 'quote', reference: 'QTE-0007', number: 7, ...over }), ...then]).view;

/** Plain capitals after macron capitals, in every font style the PDF uses (notes are italic). */
export const referenceInvoice = (): DocumentView =>
  invoice({
    lineInputs: [
      { description: 'Ēke panuku: ĀĒĪŌŪ āēīōū', qty: 1, unit_price: '120' },
      { description: 'Export crate, EEE — AEIOU aeiou', qty: 2, unit_price: '40', tax_rate: 0 },
    ],
    notes: 'Ōrākei and Oakland; Ēnoka and Enoch.',
  });
