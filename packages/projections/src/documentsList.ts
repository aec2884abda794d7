// documents_list: what the Invoices & Quotes tabs show, one row per quote or invoice. A pure
// function of the whole stream, so projecting it twice gives the same row. Status is stored as
// the lifecycle; overdue and expired depend on today and are derived when read (deriveStatus).
import { accountingExtraData, clientDisplayName, paidDate, paymentStatus, siteOnOneLine } from '@tradie/domain';
import { type Projection, column as c, nullableColumn as n } from '@tradie/store';
import { documentKey, figuresOf, foldDocumentStream, streamAccount } from './fold.ts';

export const documentsListProjection: Projection = {
  name: 'documents_list',
  // 2: an invoice paid against while a draft is issued (lifecycle 'issued').
  // 3: extra_data says when an invoice was paid, or voided, in the accounting system (paid_in, voided_in).
  // 4: the job title and the site address (on one line), both searched.
  version: 4,
  categories: ['document'],
  tables: [
    {
      name: 'documents_list',
      streamKey: 'id',
      primaryKey: ['id'],
      indexes: {
        documents_list_account_type_seq: '(account_id, type, seq DESC)',
        documents_list_account_seq: '(account_id, seq DESC)',
        documents_list_account_client: '(account_id, client_id)',
      },
      columns: [
        c('id'), c('account_id'), c('seq', 'bigint'), c('type'), c('number', 'integer'), c('reference'), c('lifecycle'), n('client_id'),
        c('client_name'), c('client_email'), c('issue_date', 'date'), c('due_date', 'date'), n('valid_until', 'date'),
        c('subtotal_cents', 'bigint'), c('gst_cents', 'bigint'), c('total_cents', 'bigint'), c('paid_cents', 'bigint'),
        c('balance_cents', 'bigint'), c('payment_status'), n('paid_date', 'date'), n('converted_to'), n('converted_from'),
        c('sent', 'boolean'), c('extra_data', 'jsonb'), c('job_title'), c('site'), c('search'), c('stream_version', 'integer'), c('created_at', 'timestamptz'),
        c('updated_at', 'timestamptz'),
      ],
    },
  ],
  key: documentKey,
  rows(stream) {
    const state = foldDocumentStream(stream.events);
    if (state.status === 'none' || state.status === 'deleted') return {};
    const f = figuresOf(state);
    const extra = accountingExtraData(state, f);
    const clientName = state.client ? clientDisplayName(state.client) : '';
    const site = siteOnOneLine(state.siteAddress);
    const first = stream.events[0]!;
    const last = stream.events.at(-1)!;
    return {
      documents_list: [
        {
          id: state.id, account_id: streamAccount(stream.events), seq: first.position, type: state.type, number: state.number,
          reference: state.reference, lifecycle: state.status, client_id: state.client?.id ?? null, client_name: clientName,
          client_email: state.client?.email ?? '', issue_date: state.issueDate, due_date: state.dueDate, valid_until: state.validUntil,
          subtotal_cents: f.subtotalCents.toString(), gst_cents: f.gstCents.toString(), total_cents: f.totalCents.toString(),
          paid_cents: f.paidCents.toString(), balance_cents: f.balanceCents.toString(), payment_status: paymentStatus(state, f),
          paid_date: paidDate(state, f), converted_to: state.convertedTo, converted_from: state.convertedFrom,
          sent: state.sends.length > 0, extra_data: extra, job_title: state.jobTitle, site,
          search: `${state.reference} ${clientName} ${state.client?.email ?? ''} ${state.jobTitle} ${site}`.toLowerCase(), stream_version: last.streamVersion,
          created_at: first.meta.at, updated_at: last.meta.at,
        },
      ],
    };
  },
};
