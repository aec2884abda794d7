// documents_list: what the Invoices & Quotes tabs show, one row per quote or invoice. Written as a
// function of the whole stream, so projecting it twice gives the same row. Status is stored as
// the lifecycle; overdue and expired depend on today and are derived when read (deriveStatus).
import { clientDisplayName, documentFigures, paidDate, paymentStatus } from '@tradie/domain';
import type { Projection, RecordedEvent, Sql } from '@tradie/store';
import { foldDocumentStream, streamAccount } from './fold.ts';

export const documentsListSchema = `
CREATE TABLE IF NOT EXISTS documents_list (
  id              text PRIMARY KEY,
  account_id      text NOT NULL,
  seq             bigint NOT NULL,
  type            text NOT NULL,
  number          integer NOT NULL,
  reference       text NOT NULL,
  lifecycle       text NOT NULL,
  client_id       text,
  client_name     text NOT NULL,
  client_email    text NOT NULL,
  issue_date      date NOT NULL,
  due_date        date NOT NULL,
  valid_until     date,
  subtotal_cents  bigint NOT NULL,
  gst_cents       bigint NOT NULL,
  total_cents     bigint NOT NULL,
  paid_cents      bigint NOT NULL,
  balance_cents   bigint NOT NULL,
  payment_status  text NOT NULL,
  paid_date       date,
  converted_to    text,
  converted_from  text,
  extra_data      jsonb NOT NULL,
  search          text NOT NULL,
  stream_version  integer NOT NULL,
  created_at      timestamptz,
  updated_at      timestamptz
);
CREATE INDEX IF NOT EXISTS documents_list_account_type_seq ON documents_list (account_id, type, seq DESC);
CREATE INDEX IF NOT EXISTS documents_list_account_seq ON documents_list (account_id, seq DESC);
CREATE INDEX IF NOT EXISTS documents_list_account_client ON documents_list (account_id, client_id);
`;

async function project(sql: Sql, stream: { streamId: string; events: RecordedEvent[] }): Promise<void> {
  const state = foldDocumentStream(stream.events);
  if (state.status === 'none') return;
  if (state.status === 'deleted') {
    await sql.query('DELETE FROM documents_list WHERE id = $1', [state.id]);
    return;
  }
  const f = documentFigures(state);
  const extra: Record<string, string> = {};
  if (state.sync) {
    extra[`${state.sync.provider}_invoice_id`] = state.sync.externalId;
    extra[`${state.sync.provider}_invoice_number`] = state.sync.externalNumber;
  }
  const clientName = state.client ? clientDisplayName(state.client) : '';
  const first = stream.events[0]!;
  const last = stream.events.at(-1)!;
  await sql.query(
    `INSERT INTO documents_list (id, account_id, seq, type, number, reference, lifecycle, client_id, client_name, client_email,
       issue_date, due_date, valid_until, subtotal_cents, gst_cents, total_cents, paid_cents, balance_cents, payment_status, paid_date,
       converted_to, converted_from, extra_data, search, stream_version, created_at, updated_at)
     VALUES ($1,$2,$3::bigint,$4,$5,$6,$7,$8,$9,$10,$11::date,$12::date,$13::date,$14::bigint,$15::bigint,$16::bigint,$17::bigint,$18::bigint,$19,$20::date,
       $21,$22,$23::jsonb,$24,$25,$26::timestamptz,$27::timestamptz)
     ON CONFLICT (id) DO UPDATE SET
       lifecycle = EXCLUDED.lifecycle, client_id = EXCLUDED.client_id, client_name = EXCLUDED.client_name, client_email = EXCLUDED.client_email,
       issue_date = EXCLUDED.issue_date, due_date = EXCLUDED.due_date, valid_until = EXCLUDED.valid_until,
       subtotal_cents = EXCLUDED.subtotal_cents, gst_cents = EXCLUDED.gst_cents, total_cents = EXCLUDED.total_cents,
       paid_cents = EXCLUDED.paid_cents, balance_cents = EXCLUDED.balance_cents, payment_status = EXCLUDED.payment_status,
       paid_date = EXCLUDED.paid_date, converted_to = EXCLUDED.converted_to, extra_data = EXCLUDED.extra_data,
       search = EXCLUDED.search, stream_version = EXCLUDED.stream_version, updated_at = EXCLUDED.updated_at`,
    [
      state.id, streamAccount(stream.events), first.position, state.type, state.number, state.reference, state.status,
      state.client?.id ?? null, clientName, state.client?.email ?? '',
      state.issueDate, state.dueDate, state.validUntil,
      f.subtotalCents.toString(), f.gstCents.toString(), f.totalCents.toString(), f.paidCents.toString(), f.balanceCents.toString(),
      paymentStatus(state, f), paidDate(state, f), state.convertedTo, state.convertedFrom, extra,
      `${state.reference} ${clientName} ${state.client?.email ?? ''}`.toLowerCase(), last.streamVersion, first.meta.at, last.meta.at,
    ],
  );
}

export const documentsListProjection: Projection = {
  name: 'documents_list',
  categories: ['document'],
  schema: documentsListSchema,
  tables: ['documents_list'],
  project,
};
