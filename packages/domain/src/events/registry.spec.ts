import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventShapeError, currentVersion, eventSchemas, parseDomainEvent, type DomainEvent } from './registry.ts';
import { clientFieldsSchema } from '../clients/client.ts';
import { amountString, clientSnapshotArb, linesArb, localDateArb } from '../../test/arbitraries.ts';

const id = fc.uuid();
const clientFieldsArb = fc.record({ name: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0), notes: fc.string({ maxLength: 50 }), phone: fc.string({ maxLength: 20 }) }).map((f) => clientFieldsSchema.parse(f));

const eventArb: fc.Arbitrary<DomainEvent> = fc.oneof(
  fc.record({ clientId: id, f: clientFieldsArb }).map(({ clientId, f }) => ({ type: 'ClientAdded' as const, data: { clientId, ...f } })),
  fc.record({ clientId: id, f: clientFieldsArb }).map(({ clientId, f }) => ({ type: 'ClientUpdated' as const, data: { clientId, ...f } })),
  id.map((clientId) => ({ type: 'ClientRemoved' as const, data: { clientId } })),
  fc.record({ documentId: id, type: fc.constantFrom('quote' as const, 'invoice' as const), number: fc.integer({ min: 1, max: 99999 }), client: fc.option(clientSnapshotArb, { nil: null }), lines: linesArb(5), issueDate: localDateArb, notes: fc.string({ maxLength: 40 }), jobTitle: fc.string({ maxLength: 40 }), siteAddress: fc.string({ maxLength: 60 }) })
    .map((d) => ({ type: 'DocumentDrafted' as const, data: { ...d, reference: `INV-${d.number}`, gstRounding: 'total' as const, dueDate: d.issueDate, paymentTerms: '7 days' as const, validUntil: null, convertedFrom: null, deposit: d.type === 'quote' ? { percent: '30' } : null } })),
  fc.record({ documentId: id, paymentId: id, amount: amountString(10_000_000), date: localDateArb, reference: fc.string({ maxLength: 20 }) })
    .map((d) => ({ type: 'PaymentRecorded' as const, data: { ...d, method: 'cash' as const } })),
  fc.record({ documentId: id, paymentId: id }).map((data) => ({ type: 'PaymentRemoved' as const, data })),
  fc.record({ documentId: id, to: fc.array(fc.emailAddress(), { maxLength: 2 }), subject: fc.string({ maxLength: 30 }) }).map((d) => ({ type: 'DocumentSent' as const, data: { ...d, cc: [], bcc: [] } })),
  fc.record({ documentId: id, invoiceId: id }).map((data) => ({ type: 'QuoteConverted' as const, data })),
  fc.record({ documentId: id, reason: fc.string({ maxLength: 30 }) }).map((data) => ({ type: 'DocumentVoided' as const, data })),
  fc.record({ documentId: id, provider: fc.constant('xero'), externalId: id, externalNumber: fc.string({ maxLength: 10 }) }).map((data) => ({ type: 'SyncedToAccounting' as const, data })),
  fc.record({ documentId: id, number: fc.integer({ min: 1, max: 99999 }) }).map((d) => ({ type: 'ReferenceAllocated' as const, data: { ...d, reference: `QTE-${d.number}` } })),
);

describe('event schemas', () => {
  it('property: every event round-trips through JSON and its zod schema unchanged', () => {
    fc.assert(fc.property(eventArb, (e) => {
      const stored = JSON.parse(JSON.stringify({ type: e.type, version: currentVersion(e.type), data: e.data }));
      expect(parseDomainEvent(stored)).toEqual(e);
    }));
  });

  it('refuses unknown types and wrong shapes', () => {
    expect(() => parseDomainEvent({ type: 'Nope', data: {} })).toThrow(EventShapeError);
    expect(() => parseDomainEvent({ type: 'PaymentRecorded', version: 1, data: { documentId: 'd', paymentId: 'p', amount: '1.001', date: '2026-01-01', method: 'cash', reference: '' } })).toThrow(/amount/);
    expect(() => parseDomainEvent({ type: 'ClientRemoved', version: 1, data: {} })).toThrow(EventShapeError);
  });

  it('every registered event has a positive schema version', () => {
    for (const [, entry] of Object.entries(eventSchemas)) expect(entry.version).toBeGreaterThanOrEqual(1);
  });

  it('events written before costs were kept read with every line’s cost unknown (null, never zero), filed under other', () => {
    const v1Line = { description: 'Rinnai', qty: '1', unit_price: '1812.50', tax_included: false, tax_rate: '0.15' };
    const unknown = { ...v1Line, cost: null, category: 'other', markup: null };
    const drafted = parseDomainEvent({ type: 'DocumentDrafted', version: 1, data: { documentId: 'd1', type: 'quote', number: 1, reference: 'QTE-0001', gstRounding: 'total', convertedFrom: null, client: null, lines: [v1Line], issueDate: '2026-05-01', dueDate: '2026-05-08', paymentTerms: '7 days', validUntil: null, notes: '' } });
    expect(drafted.type === 'DocumentDrafted' && drafted.data.lines).toEqual([unknown]);
    const revised = parseDomainEvent({ type: 'DocumentRevised', version: 1, data: { documentId: 'd1', client: null, lines: [v1Line], issueDate: '2026-05-01', dueDate: '2026-05-08', paymentTerms: '7 days', validUntil: null, notes: '' } });
    expect(revised.type === 'DocumentRevised' && revised.data.lines).toEqual([unknown]);
    const varied = parseDomainEvent({ type: 'QuoteVaried', version: 1, data: { documentId: 'd1', line: v1Line } });
    expect(varied.type === 'QuoteVaried' && varied.data.line).toEqual(unknown);
    const proposed = parseDomainEvent({ type: 'VariationProposed', version: 1, data: { documentId: 'd1', variationId: 'v1', number: 1, lines: [v1Line], note: '' } });
    expect(proposed.type === 'VariationProposed' && proposed.data.lines).toEqual([unknown]);
    const credited = parseDomainEvent({
      type: 'CreditNoteIssued',
      version: 1,
      data: { documentId: 'd1', creditNoteId: 'c1', number: 1, reference: 'CN-0001', invoiceReference: 'INV-0001', date: '2026-05-02', reason: 'Returned', supplier: { name: 'Kauri Plumbing', gstNumber: '' }, lines: [{ lineIndex: 0, line: v1Line }], amount: null, subtotal: '1812.50', gst: '271.88', total: '2084.38', zeroRated: '0.00' },
    });
    expect(credited.type === 'CreditNoteIssued' && credited.data.lines).toEqual([{ lineIndex: 0, line: unknown }]);
    // A v2 event must carry them: a line without a cost field is a shape error, not a silent zero.
    expect(() => parseDomainEvent({ type: 'QuoteVaried', version: 2, data: { documentId: 'd1', line: v1Line } })).toThrow(EventShapeError);
    // Upcasting keeps a cost that is there.
    expect(parseDomainEvent({ type: 'QuoteVaried', version: 1, data: { documentId: 'd1', line: { ...v1Line, cost: '1450', category: 'materials' } } })).toMatchObject({ data: { line: { cost: '1450', category: 'materials', markup: null } } });
  });

  it('a line keeps the price book item it was picked from; lines written before it was kept read without one', () => {
    const line = { description: 'Copper pipe 15 mm', qty: '6', unit_price: '4.56', tax_included: false, tax_rate: '0.15', cost: '3.8', category: 'materials', markup: null };
    const v = currentVersion('QuoteVaried');
    const before = parseDomainEvent({ type: 'QuoteVaried', version: v, data: { documentId: 'd1', line } });
    expect(before.type === 'QuoteVaried' && before.data.line).toEqual(line);
    expect(before.type === 'QuoteVaried' && 'price_book_item_id' in before.data.line).toBe(false);
    const picked = parseDomainEvent({ type: 'QuoteVaried', version: v, data: { documentId: 'd1', line: { ...line, price_book_item_id: 'item-1' } } });
    expect(picked.type === 'QuoteVaried' && picked.data.line.price_book_item_id).toBe('item-1');
    expect(() => parseDomainEvent({ type: 'QuoteVaried', version: v, data: { documentId: 'd1', line: { ...line, price_book_item_id: 7 } } })).toThrow(EventShapeError);
  });

  it('a quote or invoice saved before the job title and site address were kept reads with none of either', () => {
    const line = { description: 'Rinnai', qty: '1', unit_price: '1812.50', tax_included: false, tax_rate: '0.15', cost: null, category: 'other', markup: null };
    const body = { client: null, lines: [line], issueDate: '2026-05-01', dueDate: '2026-05-08', paymentTerms: '7 days', validUntil: null, notes: '' };
    const drafted = parseDomainEvent({ type: 'DocumentDrafted', version: 2, data: { documentId: 'd1', type: 'quote', number: 1, reference: 'QTE-0001', gstRounding: 'total', convertedFrom: null, ...body } });
    expect(drafted).toMatchObject({ data: { jobTitle: '', siteAddress: '' } });
    const revised = parseDomainEvent({ type: 'DocumentRevised', version: 2, data: { documentId: 'd1', ...body } });
    expect(revised).toMatchObject({ data: { jobTitle: '', siteAddress: '' } });
    // From v1 both steps apply: the lines' costs and the job's fields.
    const { cost: _c, category: _g, markup: _m, ...v1Line } = line;
    expect(parseDomainEvent({ type: 'DocumentRevised', version: 1, data: { documentId: 'd1', ...body, lines: [v1Line] } })).toMatchObject({ data: { jobTitle: '', siteAddress: '', lines: [line] } });
    // A v3 event must carry them.
    expect(() => parseDomainEvent({ type: 'DocumentRevised', version: 3, data: { documentId: 'd1', ...body } })).toThrow(EventShapeError);
  });

  it('a quote saved before a deposit could be asked for reads with none asked for; a v4 event must say', () => {
    const line = { description: 'Rinnai', qty: '1', unit_price: '1812.50', tax_included: false, tax_rate: '0.15', cost: null, category: 'other', markup: null };
    const body = { client: null, lines: [line], issueDate: '2026-05-01', dueDate: '2026-05-08', paymentTerms: '7 days', validUntil: null, notes: '', jobTitle: '', siteAddress: '' };
    expect(parseDomainEvent({ type: 'DocumentDrafted', version: 3, data: { documentId: 'd1', type: 'quote', number: 1, reference: 'QTE-0001', gstRounding: 'total', convertedFrom: null, ...body } })).toMatchObject({ data: { deposit: null } });
    expect(parseDomainEvent({ type: 'DocumentRevised', version: 3, data: { documentId: 'd1', ...body } })).toMatchObject({ data: { deposit: null } });
    expect(parseDomainEvent({ type: 'DocumentRevised', version: 4, data: { documentId: 'd1', ...body, deposit: { amount: '500.00' } } })).toMatchObject({ data: { deposit: { amount: '500.00' } } });
    expect(() => parseDomainEvent({ type: 'DocumentRevised', version: 4, data: { documentId: 'd1', ...body } })).toThrow(EventShapeError);
    expect(() => parseDomainEvent({ type: 'DocumentRevised', version: 4, data: { documentId: 'd1', ...body, deposit: { percent: '30', amount: '5.00' } } })).toThrow(EventShapeError);
  });
});
