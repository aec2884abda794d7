// clients: the client book, one row per live client. A removed client's row goes; its quotes and
// invoices keep the snapshot of the client they were made for.
import { type Projection, type RecordedEvent, column as col } from '@tradie/store';
import { foldClientStream, streamAccount } from './fold.ts';

export const clientsProjection: Projection = {
  name: 'clients',
  categories: ['client'],
  tables: [
    {
      name: 'clients',
      streamKey: 'id',
      primaryKey: ['id'],
      indexes: { clients_account_name: '(account_id, lower(name), id)' },
      columns: [
        col('id'), col('account_id'), col('seq', 'bigint'), col('name'), col('email'), col('phone'), col('address'), col('is_business'), col('business_name'),
        col('company_number'), col('gst_number'), col('notes'), col('default_payment_terms'), col('search'), col('stream_version', 'integer'),
        col('created_at', 'timestamptz'), col('updated_at', 'timestamptz'),
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
