// Realistic, deterministic documents for benchmarks: built through the domain's own decider.
import {
  type DocumentEvent, type Line, currentVersion, decideDocument, documentStreamId, evolveDocument, formatReference, initialDocumentState,
} from '@tradie/domain';
import type { NewEvent } from '@tradie/store';
import { seeded } from './figures.ts';

const WORDS = ['Labour', 'Copper pipe 15mm', 'Mixer tap', 'Call-out fee', 'Hot water cylinder', 'Fittings', 'Tāmaki site visit', 'Waste removal'];

export function benchLines(n: number, seed = 7): Line[] {
  const rnd = seeded(seed);
  return Array.from({ length: n }, (_, i) => ({
    description: `${WORDS[i % WORDS.length]} ${i + 1}`,
    qty: (Math.floor(rnd() * 400) / 100 + 0.25).toFixed(2),
    unit_price: (Math.floor(rnd() * 50_000) / 100).toFixed(2),
    tax_included: rnd() < 0.2,
    tax_rate: rnd() < 0.1 ? '0' : '0.15',
  }));
}

const day = (i: number): string => {
  const d = new Date(Date.UTC(2025, 3, 1) + (i % 365) * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/** The events of one invoice: drafted, maybe sent, maybe paid in one or two payments. */
export function invoiceEvents(i: number, lineCount = 5, accountId = 'bench-account'): { streamId: string; events: NewEvent[] } {
  const rnd = seeded(1000 + i);
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const issueDate = day(i);
  const out: DocumentEvent[] = [];
  let state = initialDocumentState;
  const apply = (events: DocumentEvent[]): void => {
    for (const e of events) {
      out.push(e);
      state = evolveDocument(state, e);
    }
  };
  apply(
    decideDocument(
      {
        type: 'DraftDocument',
        data: {
          documentId: id, type: 'invoice', number: i + 1, reference: formatReference('invoice', i + 1),
          client: { id: null, name: `Client ${i % 40}`, email: `client${i % 40}@example.nz`, phone: '', address: '', is_business: 'false', business_name: '', company_number: '', gst_number: '' },
          lines: benchLines(lineCount, i), gstRounding: 'total', issueDate, paymentTerms: '7 days',
        },
      },
      state,
    ),
  );
  if (rnd() < 0.8) apply(decideDocument({ type: 'SendDocument', data: { to: ['c@example.nz'], cc: [], bcc: [], subject: 'Invoice' } }, state));
  const r = rnd();
  if (r < 0.5) apply(decideDocument({ type: 'MarkPaid', data: { paymentId: `${id}-p1`, date: issueDate, method: 'bank_transfer', reference: '' } }, state));
  else if (r < 0.7) apply(decideDocument({ type: 'RecordPayment', data: { paymentId: `${id}-p1`, amount: '10.00', date: issueDate, method: 'cash', reference: '' } }, state));
  const at = `${issueDate}T01:00:00.000Z`;
  return {
    streamId: documentStreamId(id),
    events: out.map((e) => ({ type: e.type, version: currentVersion(e.type), data: e.data as unknown as Record<string, unknown>, meta: { accountId, at } })),
  };
}
