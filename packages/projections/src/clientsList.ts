// clients: the client book, one row per live client. A removed client's row goes; its quotes and
// invoices keep the snapshot of the client they were made for.
import type { Projection, RecordedEvent, Sql } from '@tradie/store';
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
  created_at             timestamptz,
  updated_at             timestamptz
);
CREATE INDEX IF NOT EXISTS clients_account_name ON clients (account_id, name);
`;

async function project(sql: Sql, stream: { streamId: string; events: RecordedEvent[] }): Promise<void> {
  const state = foldClientStream(stream.events);
  if (state.status === 'none') return;
  if (state.status === 'removed') {
    await sql.query('DELETE FROM clients WHERE id = $1', [state.client.id]);
    return;
  }
  const c = state.client;
  const first = stream.events[0]!;
  const last = stream.events.at(-1)!;
  await sql.query(
    `INSERT INTO clients (id, account_id, seq, name, email, phone, address, is_business, business_name, company_number, gst_number, notes,
       default_payment_terms, search, stream_version, created_at, updated_at)
     VALUES ($1,$2,$3::bigint,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16::timestamptz,$17::timestamptz)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, phone = EXCLUDED.phone, address = EXCLUDED.address,
       is_business = EXCLUDED.is_business, business_name = EXCLUDED.business_name, company_number = EXCLUDED.company_number,
       gst_number = EXCLUDED.gst_number, notes = EXCLUDED.notes, default_payment_terms = EXCLUDED.default_payment_terms,
       search = EXCLUDED.search, stream_version = EXCLUDED.stream_version, updated_at = EXCLUDED.updated_at`,
    [
      c.id, streamAccount(stream.events), first.position, c.name, c.email, c.phone, c.address, c.is_business, c.business_name,
      c.company_number, c.gst_number, c.notes, c.default_payment_terms, `${c.name} ${c.email} ${c.business_name}`.toLowerCase(),
      last.streamVersion, first.meta.at, last.meta.at,
    ],
  );
}

export const clientsProjection: Projection = { name: 'clients', categories: ['client'], schema: clientsSchema, tables: ['clients'], project };
