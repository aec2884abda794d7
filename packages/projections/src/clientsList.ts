// clients: the client book, one row per live client. A removed client's row goes; its quotes and
// invoices keep the snapshot of the client they were made for.
import type { Projection, RecordedEvent } from '@tradie/store';
import { foldClientStream, streamAccount } from './fold.ts';

export const clientsSchema = `
CREATE TABLE IF NOT EXISTS clients (
  id                     text PRIMARY KEY,
  account_id             text NOT NULL,
  seq                    bigint NOT NULL,
  name                   text NOT NULL,
  email                  text NOT NULL,
  phone                  text NOT NULL,
  address                text NOT NULL,
  is_business            text NOT NULL,
  business_name          text NOT NULL,
  company_number         text NOT NULL,
  gst_number             text NOT NULL,
  notes                  text NOT NULL,
  default_payment_terms  text NOT NULL,
  search                 text NOT NULL,
  stream_version         integer NOT NULL,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS clients_account_name ON clients (account_id, lower(name), id);
`;

const text = 'text' as const;

export const clientsProjection: Projection = {
  name: 'clients',
  categories: ['client'],
  schema: clientsSchema,
  tables: [
    {
      name: 'clients',
      streamKey: 'id',
      primaryKey: ['id'],
      columns: [
        { name: 'id', type: text }, { name: 'account_id', type: text }, { name: 'seq', type: 'bigint' }, { name: 'name', type: text },
        { name: 'email', type: text }, { name: 'phone', type: text }, { name: 'address', type: text }, { name: 'is_business', type: text },
        { name: 'business_name', type: text }, { name: 'company_number', type: text }, { name: 'gst_number', type: text },
        { name: 'notes', type: text }, { name: 'default_payment_terms', type: text }, { name: 'search', type: text },
        { name: 'stream_version', type: 'integer' }, { name: 'created_at', type: 'timestamptz' }, { name: 'updated_at', type: 'timestamptz' },
      ],
    },
  ],
  key: (stream) => {
    const s = foldClientStream(stream.events);
    return s.status === 'none' ? null : s.client.id;
  },
  rows(stream: { streamId: string; events: RecordedEvent[] }) {
    const state = foldClientStream(stream.events);
    if (state.status !== 'active') return {};
    const c = state.client;
    const first = stream.events[0]!;
    const last = stream.events.at(-1)!;
    return {
      clients: [
        {
          id: c.id, account_id: streamAccount(stream.events), seq: first.position, name: c.name, email: c.email, phone: c.phone,
          address: c.address, is_business: c.is_business, business_name: c.business_name, company_number: c.company_number,
          gst_number: c.gst_number, notes: c.notes, default_payment_terms: c.default_payment_terms,
          search: `${c.name} ${c.email} ${c.business_name}`.toLowerCase(), stream_version: last.streamVersion,
          created_at: first.meta.at, updated_at: last.meta.at,
        },
      ],
    };
  },
};
