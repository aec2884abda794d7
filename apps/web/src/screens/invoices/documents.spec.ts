import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type TokenStorage } from '../../api/client.ts';
import { pickerOptions } from '../calculator/clientChoice.ts';
import { centsOf, isSynced, referenceOf, syncedMessage, syncErrorMessage } from '../shared/documents.ts';
import { fetchDocumentPage } from './queries.ts';
import { paymentBadge } from '../../ui/Chip.tsx';

const noTokens: TokenStorage = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };

describe('the documents list paging', () => {
  it('given a page with X-Next-Cursor and X-Total-Count, then it asks for 50 of a type and reads both headers', async () => {
    const seen: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      seen.push(String(input));
      return new Response(JSON.stringify([{ id: 'a' }]), { status: 200, headers: { 'content-type': 'application/json', 'X-Next-Cursor': 'czEyMw', 'X-Total-Count': '10000' } });
    }) as typeof globalThis.fetch;
    const api = createApiClient({ fetch: () => fetch, storage: () => noTokens });

    const first = await fetchDocumentPage(api, 'invoice', null);
    const second = await fetchDocumentPage(api, 'invoice', first.nextCursor);

    expect(first).toEqual({ records: [{ id: 'a' }], nextCursor: 'czEyMw', total: 10000 });
    expect(seen).toEqual(['/api/v1/invoices?type=invoice&limit=50', '/api/v1/invoices?type=invoice&limit=50&cursor=czEyMw']);
    expect(second.nextCursor).toBe('czEyMw');
  });

  it('given the last page (no X-Next-Cursor), then there is no next page', async () => {
    const fetch = (async () => new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof globalThis.fetch;
    const api = createApiClient({ fetch: () => fetch, storage: () => noTokens });
    expect(await fetchDocumentPage(api, 'quote', 'x')).toEqual({ records: [], nextCursor: null, total: null });
  });
});

describe('what the cards show', () => {
  it("given no reference, then 'QTE-'/'INV-' and the first 8 characters of the id", () => {
    expect(referenceOf({ type: 'quote', reference: '', id: '0190f3e0-aaaa-7000' })).toBe('QTE-0190f3e0');
    expect(referenceOf({ type: 'invoice', reference: '', id: '0190f3e0-aaaa-7000' })).toBe('INV-0190f3e0');
    expect(referenceOf({ type: 'invoice', reference: 'INV-0007', id: 'x' })).toBe('INV-0007');
  });

  it("given a payment status, then '✓ Paid', 'Partial', or 'Unpaid' for anything else", () => {
    expect(paymentBadge('paid').label).toBe('✓ Paid');
    expect(paymentBadge('partial').label).toBe('Partial');
    expect(paymentBadge('unpaid').label).toBe('Unpaid');
    expect(paymentBadge('whatever').label).toBe('Unpaid');
  });

  it('given a total number from the API, then whole cents through the domain (no float drift)', () => {
    expect(centsOf(1450.49)).toBe(145049n);
    expect(centsOf(1813.17)).toBe(181317n);
    expect(centsOf(0.1 + 0.2)).toBe(30n);
    expect(centsOf(Number.NaN)).toBe(0n);
  });

  it('given extra_data, then synced means a xero_invoice_id is there', () => {
    expect(isSynced({})).toBe(false);
    expect(isSynced({ xero_invoice_id: 'abc' })).toBe(true);
  });
});

describe('the sync messages', () => {
  it('given the answer, then already synced or synced, with the Xero number', () => {
    expect(syncedMessage({ already_synced: true, xero_invoice_number: 'INV-0001', xero_invoice_id: 'x' })).toBe('Already synced Xero: INV-0001');
    expect(syncedMessage({ already_synced: false, xero_invoice_number: 'INV-0002', xero_invoice_id: 'y' })).toBe('✓ Synced Xero: INV-0002');
  });

  it('given a 400, then its detail (or the connect sentence); any other failure is "Failed to sync to Xero"', () => {
    expect(syncErrorMessage(new ApiError(400, 'Please connect Xero in Settings first'))).toBe('Please connect Xero in Settings first');
    expect(syncErrorMessage(new ApiError(400, ''))).toBe('Please connect Xero in Settings first');
    expect(syncErrorMessage(new ApiError(502, 'Bad gateway'))).toBe('Failed to sync to Xero');
    expect(syncErrorMessage(new ApiError(0, 'Network Error'))).toBe('Failed to sync to Xero');
  });
});

describe('the client picker options', () => {
  const clients = [
    { id: '1', name: 'Aroha Ngata', email: 'aroha@example.co.nz', is_business: 'true' as const, business_name: 'Ngata Plumbing' },
    { id: '2', name: 'Bob Builder', email: 'bob@example.co.nz', is_business: 'false' as const, business_name: 'Ignored Ltd' },
    { id: '3', name: 'Mere', email: '', is_business: 'true' as const, business_name: '' },
    { id: '4', name: 'Hemi', email: 'hemi@whangārei.nz', is_business: 'false' as const, business_name: '' },
  ];

  it("given nothing typed, then 'No client', every client by its display name, 'Add New Client'", () => {
    expect(pickerOptions(clients, '').options.map((o) => o.label)).toEqual([
      'No client',
      'Ngata Plumbing (Aroha Ngata)',
      'Bob Builder',
      'Mere',
      'Hemi',
      'Add New Client',
    ]);
  });

  it('given typing, then matches on the display name or email, ignoring case and macrons', () => {
    expect(pickerOptions(clients, 'PLUMB').options.map((o) => o.label)).toEqual(['No client', 'Ngata Plumbing (Aroha Ngata)', 'Add New Client']);
    expect(pickerOptions(clients, 'whangarei').options.map((o) => o.label)).toEqual(['No client', 'Hemi', 'Add New Client']);
    expect(pickerOptions(clients, 'ignored').options.map((o) => o.label)).toEqual(['No client', 'Add New Client']);
  });

  it('given a large book, then at most 50 are shown and the rest counted', () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ id: String(i), name: `Client ${i}`, email: '', is_business: 'false' as const, business_name: '' }));
    const { options, hidden } = pickerOptions(many, '');
    expect(options).toHaveLength(52);
    expect(hidden).toBe(70);
  });
});
