import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ClientRecord } from '@tradie/contracts';
import { PAYMENT_TERMS } from '@tradie/domain';
import {
  clientBody,
  emptyClientForm,
  filterClients,
  formFromClient,
  formWarnings,
  matchesSearch,
  nameLabel,
  nzd,
} from './clientForm.ts';

const record = (over: Partial<ClientRecord> = {}): ClientRecord => ({
  id: 'c1',
  name: 'Mihi Rewi',
  email: 'mihi@example.co.nz',
  phone: '021 555 0101',
  address: '1 Queen Street\nAuckland',
  is_business: 'false',
  business_name: '',
  company_number: '',
  gst_number: '',
  notes: '',
  default_payment_terms: '7 days',
  version: 1,
  warnings: [],
  ...over,
});

describe('the form', () => {
  it('starts blank as an individual on the default payment terms, 7 days', () => {
    expect(emptyClientForm.is_business).toBe('false');
    expect(emptyClientForm.default_payment_terms).toBe('7 days');
    expect(PAYMENT_TERMS).toEqual(['Due on receipt', '7 days', '14 days', '20th of the month following', '30 days', '60 days']);
  });

  it("labels the name 'Full Name *' for an individual and 'Contact Name *' for a business", () => {
    expect(nameLabel('false')).toBe('Full Name *');
    expect(nameLabel('true')).toBe('Contact Name *');
  });

  it('opens an existing client with its saved values, and sends them back unchanged', () => {
    const business = record({
      is_business: 'true',
      business_name: 'Rewi Plumbing Ltd',
      company_number: '9429041234563',
      gst_number: '49-091-850',
      notes: 'Gate code 1234',
      default_payment_terms: '30 days',
    });
    const values = formFromClient(business);
    const { id: _id, version: _v, warnings: _w, ...fields } = business;
    expect(clientBody(values)).toEqual(fields);
  });

  it('sends every field, blank ones as empty strings', () => {
    const body = clientBody({ ...emptyClientForm, name: 'Sam' });
    expect(Object.keys(body).sort()).toEqual(
      ['address', 'business_name', 'company_number', 'default_payment_terms', 'email', 'gst_number', 'is_business', 'name', 'notes', 'phone'].sort(),
    );
    expect(body).toMatchObject({ name: 'Sam', email: '', business_name: '', gst_number: '' });
  });

  it('does not save business details for an individual (the block is hidden, so nothing hidden is kept)', () => {
    const toggledBack = { ...emptyClientForm, name: 'Sam', business_name: 'Left over', gst_number: '49091850', company_number: '123', is_business: 'false' as const };
    expect(clientBody(toggledBack)).toMatchObject({ business_name: '', gst_number: '', company_number: '', is_business: 'false' });
    expect(clientBody({ ...toggledBack, is_business: 'true' })).toMatchObject({ business_name: 'Left over', gst_number: '49091850', company_number: '123' });
  });

  it("warns about a GST number or NZBN that fails its check digit, for a business only", () => {
    const bad = { ...emptyClientForm, is_business: 'true' as const, gst_number: '49091851', company_number: '9429041234560' };
    expect(formWarnings(bad).map((w) => w.message)).toEqual([
      "This GST number doesn't look valid — please check it",
      "This NZBN doesn't look valid — please check it",
    ]);
    expect(formWarnings({ ...bad, gst_number: '49-091-850', company_number: '1234567' })).toEqual([]);
    expect(formWarnings({ ...bad, is_business: 'false' })).toEqual([]);
  });
});

describe('the search', () => {
  const clients = [
    record({ id: 'a', name: 'Aroha Ngata', email: 'aroha@kiwi.nz' }),
    record({ id: 'b', name: 'Ben Smith', email: 'ben@builders.co.nz', is_business: 'true', business_name: 'Smith Builders' }),
    record({ id: 'c', name: 'Chloé Dubois', email: '' }),
  ];
  const ids = (term: string) => filterClients(clients, term).map((c) => c.id);

  it('matches name, email or business name, ignoring case', () => {
    expect(ids('aroha')).toEqual(['a']);
    expect(ids('BUILDERS')).toEqual(['b']);
    expect(ids('smith b')).toEqual(['b']);
    expect(ids('kiwi.NZ')).toEqual(['a']);
    expect(ids('CHLOÉ')).toEqual(['c']);
  });

  it('does not match other fields', () => {
    expect(ids('021 555')).toEqual([]);
    expect(ids('Auckland')).toEqual([]);
  });

  it('a blank term (or spaces) shows everyone', () => {
    expect(ids('')).toEqual(['a', 'b', 'c']);
    expect(ids('   ')).toEqual(['a', 'b', 'c']);
  });

  it('property: any piece of a name, in any case, finds that client', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 30 }), fc.nat(), fc.nat(), fc.boolean(), (name, i, j, upper) => {
        const from = i % name.length;
        const to = from + 1 + (j % (name.length - from));
        const piece = name.slice(from, to);
        fc.pre(piece.trim() !== '' && piece.trim() === piece);
        const term = upper ? piece.toUpperCase() : piece.toLowerCase();
        fc.pre(term.toLowerCase() === piece.toLowerCase());
        expect(matchesSearch({ name, email: '', business_name: '' }, term)).toBe(true);
      }),
    );
  });
});

describe('the history', () => {
  it('shows dollar amounts as NZD through exact cents', () => {
    expect(nzd(257.5)).toBe('$257.50');
    expect(nzd(1234567.89)).toBe('$1,234,567.89');
    expect(nzd(0)).toBe('$0.00');
    expect(nzd(402.49)).toBe('$402.49');
  });
});
