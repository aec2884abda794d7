// credit_notes: which invoice each credit note is on, by account, so a credit note's own routes
// (its PDF, its refunds) find their invoice's stream without reading the event log.
import { type Projection, column as c } from '@tradie/store';
import { documentKey, foldDocumentStream, streamAccount } from './fold.ts';

export const creditNotesProjection: Projection = {
  name: 'credit_notes',
  categories: ['document'],
  tables: [
    {
      name: 'credit_notes',
      streamKey: 'document_id',
      primaryKey: ['document_id', 'credit_note_id'],
      indexes: { credit_notes_account_note: '(account_id, credit_note_id)' },
      columns: [c('document_id'), c('credit_note_id'), c('account_id')],
    },
  ],
  key: documentKey,
  rows(stream) {
    const s = foldDocumentStream(stream.events);
    if (s.status === 'none' || s.creditNotes.length === 0) return {};
    const account = streamAccount(stream.events);
    return { credit_notes: s.creditNotes.map((n) => ({ document_id: s.id, credit_note_id: n.creditNoteId, account_id: account })) };
  },
};
