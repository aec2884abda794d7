import { describe, expect, it } from 'vitest';
import { clientDecider, clientDisplayName, clientFieldsSchema, clientWarnings, type ClientFields } from './client.ts';
import { specFor } from '../../test/specification.ts';

const fields = (over: Partial<ClientFields> = {}): ClientFields => clientFieldsSchema.parse({ name: 'Aroha Ngata', ...over });
const given = specFor(clientDecider);

describe('client fields', () => {
  it('defaults: optional fields are empty strings, is_business false, terms 7 days', () => {
    expect(fields()).toEqual({
      name: 'Aroha Ngata', email: '', phone: '', address: '', is_business: 'false', business_name: '',
      company_number: '', gst_number: '', notes: '', default_payment_terms: '7 days',
    });
  });

  it('refuses a blank or oversized name, a bad email, unknown terms; ignores unknown fields', () => {
    expect(clientFieldsSchema.safeParse({ name: '  ' }).error?.issues[0]?.message).toBe('Name is required');
    expect(clientFieldsSchema.safeParse({ name: 'x'.repeat(201) }).success).toBe(false);
    expect(clientFieldsSchema.safeParse({ name: 'A', notes: 'x'.repeat(5001) }).success).toBe(false);
    expect(clientFieldsSchema.safeParse({ name: 'A', email: 'not-an-email' }).error?.issues[0]?.message).toBe('Please enter a valid email address');
    expect(clientFieldsSchema.safeParse({ name: 'A', default_payment_terms: '400 days' }).success).toBe(false);
    expect(clientFieldsSchema.safeParse({ name: 'A', default_payment_terms: '20th of the month following' }).success).toBe(true);
    expect(clientFieldsSchema.safeParse({ name: 'A', is_business: 'yes' }).success).toBe(false);
    expect(clientFieldsSchema.parse({ name: 'A', role: 'admin' })).not.toHaveProperty('role');
  });

  it("shows 'business_name (name)' for a business with a business name", () => {
    expect(clientDisplayName(fields({ is_business: 'true', business_name: 'Ngata Electrical' }))).toBe('Ngata Electrical (Aroha Ngata)');
    expect(clientDisplayName(fields({ is_business: 'true' }))).toBe('Aroha Ngata');
    expect(clientDisplayName(fields({ business_name: 'Ignored' }))).toBe('Aroha Ngata');
  });

  it('warns, never blocks, on a GST number that fails its check digit', () => {
    expect(clientWarnings(fields({ gst_number: '49091851' }))).toHaveLength(1);
    expect(clientWarnings(fields({ gst_number: '49-091-850' }))).toHaveLength(0);
  });
});

describe('client decider', () => {
  const added = { type: 'ClientAdded' as const, data: { clientId: 'c1', ...fields() } };

  it('adds a client', () => {
    given().when({ type: 'AddClient', data: { clientId: 'c1', fields: fields() } }).then([added]);
  });

  it('updates and removes an active client', () => {
    given(added).when({ type: 'UpdateClient', data: { fields: fields({ phone: '021 555 0100' }) } }).then([{ type: 'ClientUpdated', data: { clientId: 'c1', ...fields({ phone: '021 555 0100' }) } }]);
    given(added).when({ type: 'RemoveClient' }).then([{ type: 'ClientRemoved', data: { clientId: 'c1' } }]);
  });

  it('a removed or unknown client is not found', () => {
    given().when({ type: 'RemoveClient' }).thenThrows('NOT_FOUND');
    given(added, { type: 'ClientRemoved', data: { clientId: 'c1' } }).when({ type: 'UpdateClient', data: { fields: fields() } }).thenThrows('NOT_FOUND');
    given(added).when({ type: 'AddClient', data: { clientId: 'c1', fields: fields() } }).thenThrows('CONFLICT');
  });
});
