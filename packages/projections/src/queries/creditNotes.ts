// Reads of credit_notes, scoped by account.
import type { Sql } from '@tradie/store';

/** The invoice a credit note of this account is on; null when the account has no such credit note. Index: credit_notes (account_id, credit_note_id). */
export async function invoiceIdOfCreditNote(sql: Sql, accountId: string, creditNoteId: string): Promise<string | null> {
  const [row] = await sql.query<{ document_id: string }>('SELECT document_id FROM credit_notes WHERE account_id = $1 AND credit_note_id = $2', [accountId, creditNoteId]);
  return row?.document_id ?? null;
}
