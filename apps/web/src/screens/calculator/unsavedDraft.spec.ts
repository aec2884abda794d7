// The calculator's unsaved draft on the device: kept per account, read back only when whole, not
// kept when there is nothing to miss, and the offer's question names the document and the client.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calculatorReducer, initialCalculatorState } from './calculatorModel.ts';
import { carryOnQuestion, clearDraft, draftKey, draftOf, readDraft, worthKeeping, writeDraft, type UnsavedDraft } from './unsavedDraft.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) };
}

const draft: Omit<UnsavedDraft, 'savedAt'> = {
  type: 'quote',
  lines: [
    { key: 1, description: 'Replace hot water cylinder', qty: '1', unit_price: '1850', cost: '1200', category: 'materials' },
    { key: 4, description: 'Labour', qty: '3.5', unit_price: '95', tax_included: false },
  ],
  includeGst: true,
  marginText: '25',
  marginTouched: false,
  choice: { kind: 'existing', id: 'client-1' },
  newClient: { name: '', email: '', phone: '' },
  job: { jobTitle: 'Cylinder swap', siteAddress: '12 Kōwhai St', siteTyped: true, depositKind: 'percent', depositText: '30' },
  clientName: 'Mere Parata',
};
const now = new Date('2026-11-28T20:41:00.000Z');

describe('the unsaved calculator draft', () => {
  it('is kept under the account and read back as it was', () => {
    const storage = memoryStorage();
    writeDraft(storage, 'u1', draft, now);
    expect([...storage.data.keys()]).toEqual([draftKey('u1')]);
    expect(readDraft(storage, 'u1')).toEqual({ ...draft, savedAt: now.toISOString() });
    // Another account on the same device is offered nothing.
    expect(readDraft(storage, 'u2')).toBeNull();
  });

  it('is not kept when there is nothing a tradie would miss, and an old one then goes', () => {
    const storage = memoryStorage();
    writeDraft(storage, 'u1', draft, now);
    const blank = { ...draft, lines: [{ key: 1, description: '', qty: '1', unit_price: '0', cost: '', category: 'materials' }], choice: { kind: 'none' as const }, job: { jobTitle: '', siteAddress: '', siteTyped: false, depositKind: 'none' as const, depositText: '' } };
    expect(worthKeeping(blank)).toBe(false);
    writeDraft(storage, 'u1', blank, now);
    expect(storage.data.size).toBe(0);
    // One thing is enough: a price, a client or a job title.
    expect(worthKeeping({ ...blank, lines: [{ ...blank.lines[0]!, unit_price: '40' }] })).toBe(true);
    expect(worthKeeping({ ...blank, choice: { kind: 'existing', id: 'c' } })).toBe(true);
    expect(worthKeeping({ ...blank, choice: { kind: 'new' }, newClient: { name: 'Hone', email: '', phone: '' } })).toBe(true);
    expect(worthKeeping({ ...blank, job: { ...blank.job, jobTitle: 'Deck' } })).toBe(true);
  });

  it('clearDraft removes only that account’s draft', () => {
    const storage = memoryStorage();
    writeDraft(storage, 'u1', draft, now);
    writeDraft(storage, 'u2', draft, now);
    clearDraft(storage, 'u1');
    expect([...storage.data.keys()]).toEqual([draftKey('u2')]);
  });

  it('drops storage that is not a whole draft (another version, hand-edited, or junk) instead of half-applying it', () => {
    const stored = { v: 1, ...draft, savedAt: now.toISOString() };
    const bad: unknown[] = [
      'not json {',
      { ...stored, v: 2 },
      { ...stored, type: 'receipt' },
      { ...stored, lines: [] },
      { ...stored, lines: [{ ...draft.lines[0], qty: 3 }] },
      { ...stored, lines: [draft.lines[0], draft.lines[0]] },
      { ...stored, choice: { kind: 'existing' } },
      { ...stored, job: null },
      { ...stored, lines: Array.from({ length: 501 }, (_, i) => ({ ...draft.lines[0], key: i })) },
    ];
    for (const value of bad) {
      const storage = memoryStorage({ [draftKey('u1')]: typeof value === 'string' ? value : JSON.stringify(value) });
      expect(readDraft(storage, 'u1')).toBeNull();
      expect(storage.data.size).toBe(0);
    }
  });

  it('reads back whatever it wrote (any lines typed)', () => {
    const line = fc.record({ description: fc.string({ maxLength: 40 }), qty: fc.string({ maxLength: 8 }), unit_price: fc.string({ maxLength: 8 }), cost: fc.string({ maxLength: 8 }) });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 20 }), fc.constantFrom<'quote' | 'invoice'>('quote', 'invoice'), (typed, type) => {
        const storage = memoryStorage();
        const d = { ...draft, type, lines: typed.map((l, i) => ({ ...l, key: i + 1 })) };
        writeDraft(storage, 'u1', d, now);
        expect(readDraft(storage, 'u1')).toEqual(worthKeeping(d) ? { ...d, savedAt: now.toISOString() } : null);
      }),
    );
  });

  it('asks about the quote or invoice by its client', () => {
    expect(carryOnQuestion({ type: 'quote', clientName: 'Mere Parata' })).toBe('Carry on with the quote for Mere Parata?');
    expect(carryOnQuestion({ type: 'invoice', clientName: '' })).toBe('Carry on with your unsaved invoice?');
  });

  it("'Carry on' puts the lines back and new rows are keyed after them; the business's pricing is kept", () => {
    const start = calculatorReducer(initialCalculatorState(), { type: 'setMarginBasis', value: 'margin' });
    const resumed = calculatorReducer(start, { type: 'resume', draft: draftOf({ v: 1, ...draft, savedAt: now.toISOString() })! });
    expect(resumed.lines).toEqual(draft.lines);
    expect([resumed.type, resumed.marginText, resumed.marginBasis]).toEqual(['quote', '25', 'margin']);
    const added = calculatorReducer(resumed, { type: 'addLine' });
    expect(added.lines.at(-1)?.key).toBe(5);
  });
});
