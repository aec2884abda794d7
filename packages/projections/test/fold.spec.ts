// Folding a stream once: the command's fold of the loaded stream is where the projections' fold of
// the stream with the new events starts, and the state of a stream read again is not folded again.
import { randomUUID } from 'node:crypto';
import { currentVersion, documentDecider, documentStreamId, type DocumentCommand, type DocumentState } from '@tradie/domain';
import { extendStream, type RecordedEvent } from '@tradie/store';
import { describe, expect, it } from 'vitest';
import { type Fold, foldDocumentStream, foldStream } from '../src/fold.ts';

const at = '2026-04-02T00:00:00.000Z';

/** A drafted, sent invoice with `payments` payments, as a read of the store hands it over. */
function invoiceStream(payments: number): RecordedEvent[] {
  const id = randomUUID();
  let state: DocumentState = documentDecider.initialState();
  const events: RecordedEvent[] = [];
  const run = (c: DocumentCommand): void => {
    for (const e of documentDecider.decide(c, state)) {
      state = documentDecider.evolve(state, { ...e, meta: { at } });
      events.push({
        eventId: randomUUID(), streamId: documentStreamId(id), streamVersion: events.length + 1, position: String(events.length + 1), recordedAt: at,
        type: e.type, version: currentVersion(e.type), data: JSON.parse(JSON.stringify(e.data)) as Record<string, unknown>, meta: { accountId: 'acct', at },
      });
    }
  };
  run({
    type: 'DraftDocument',
    data: {
      documentId: id, type: 'invoice', number: 1, reference: 'INV-0001', gstRounding: 'total', issueDate: '2026-04-02', paymentTerms: '7 days',
      client: { id: null, name: 'C', email: 'c@example.nz', phone: '', address: '', is_business: 'false', business_name: '', company_number: '', gst_number: '' },
      lines: [{ description: 'Labour', qty: '2', unit_price: '95.00', tax_included: false, tax_rate: '0.15' }],
    },
  });
  run({ type: 'SendDocument', data: { to: ['c@example.nz'], cc: [], bcc: [], subject: 'Invoice' } });
  for (let i = 0; i < payments; i++) run({ type: 'RecordPayment', data: { paymentId: randomUUID(), amount: '1', date: '2026-04-03', method: 'cash', reference: '' } });
  return events;
}

/** The same events as a new read: new objects, new array. */
const readAgain = (events: readonly RecordedEvent[]): RecordedEvent[] => JSON.parse(JSON.stringify(events)) as RecordedEvent[];

/** The document fold, counting the events it folds. */
function counting(): { fold: Fold<DocumentState, Parameters<typeof documentDecider.evolve>[1]>; folded: () => number } {
  let n = 0;
  return {
    fold: { initialState: documentDecider.initialState, evolve: (s, e) => (n++, documentDecider.evolve(s, e)) },
    folded: () => n,
  };
}

describe('foldStream', () => {
  it('folds a stream made of a loaded one and new events from the loaded one’s state: only the new events', () => {
    const all = invoiceStream(3);
    const loaded = readAgain(all.slice(0, 4));
    const { fold, folded } = counting();
    const before = foldStream(fold, loaded);
    expect(folded()).toBe(4);
    const after = foldStream(fold, extendStream(loaded, readAgain(all.slice(4))));
    expect(folded()).toBe(5);
    expect(after).toEqual(foldDocumentStream(readAgain(all)));
    expect(after).not.toBe(before);
  });

  it('does not fold a stream read again (the same events up to the same last event): the state kept for it is the answer', () => {
    const events = invoiceStream(2);
    const { fold, folded } = counting();
    const first = foldStream(fold, readAgain(events));
    expect(folded()).toBe(events.length);
    expect(foldStream(fold, readAgain(events))).toBe(first);
    expect(folded()).toBe(events.length);
    // Another event at the same version (another write, rolled back or not) is another stream.
    const other = readAgain(events);
    other[other.length - 1] = { ...other.at(-1)!, eventId: randomUUID() };
    foldStream(fold, other);
    expect(folded()).toBe(2 * events.length);
  });

  it('gives the state a fold from the first event gives, for streams of any length', () => {
    for (let payments = 0; payments < 6; payments++) {
      const all = invoiceStream(payments);
      for (let cut = 1; cut < all.length; cut++) {
        const { fold } = counting();
        const extended = extendStream(readAgain(all.slice(0, cut)), readAgain(all.slice(cut)));
        expect(foldStream(fold, extended), `${payments} payments, loaded ${cut}`).toEqual(foldStream(counting().fold, readAgain(all)));
      }
    }
  });
});
