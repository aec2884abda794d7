// The first-run set-up's row: the step reached, how it ended, the trade and the default payment
// terms. An account without a row has not started it and starts at the first step; accounts made
// before the set-up existed were given a 'done' row by its migration, so nobody is walked through
// what they already filled in.
import type { SetupInput, SetupRecord } from '@tradie/contracts';
import { DEFAULT_PAYMENT_TERMS, isPaymentTerms, type PaymentTerms } from '@tradie/domain';
import type { Sql } from '@tradie/store';

interface SetupRow {
  step: SetupRecord['step'];
  finished: SetupRecord['finished'];
  trade: SetupRecord['trade'];
  default_payment_terms: string | null;
}

export async function loadSetup(sql: Sql, accountId: string): Promise<SetupRecord> {
  const [row] = await sql.query<SetupRow>('SELECT step, finished, trade, default_payment_terms FROM business_setup WHERE account_id = $1', [accountId]);
  if (row) {
    return { step: row.step, finished: row.finished, trade: row.trade, default_payment_terms: isPaymentTerms(row.default_payment_terms) ? row.default_payment_terms : DEFAULT_PAYMENT_TERMS };
  }
  return { step: 'business', finished: null, trade: '', default_payment_terms: DEFAULT_PAYMENT_TERMS };
}

/** The business's default payment terms: a new client's, and a document's without a client. */
export async function defaultPaymentTerms(sql: Sql, accountId: string): Promise<PaymentTerms> {
  const [row] = await sql.query<{ default_payment_terms: string | null }>('SELECT default_payment_terms FROM business_setup WHERE account_id = $1', [accountId]);
  return isPaymentTerms(row?.default_payment_terms) ? row.default_payment_terms : DEFAULT_PAYMENT_TERMS;
}

/** Writes the fields present in `patch` (the row made from what GET answered, the first time). */
export async function saveSetup(tx: Sql, accountId: string, patch: SetupInput, now: Date): Promise<SetupRecord> {
  const current = await loadSetup(tx, accountId);
  const next: SetupRecord = {
    step: patch.step ?? current.step,
    finished: patch.finished === undefined ? current.finished : patch.finished,
    trade: patch.trade ?? current.trade,
    default_payment_terms: patch.default_payment_terms ?? current.default_payment_terms,
  };
  await tx.query(
    `INSERT INTO business_setup (account_id, step, finished, trade, default_payment_terms, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_id) DO UPDATE SET step = EXCLUDED.step, finished = EXCLUDED.finished, trade = EXCLUDED.trade,
       default_payment_terms = EXCLUDED.default_payment_terms, updated_at = EXCLUDED.updated_at`,
    [accountId, next.step, next.finished, next.trade, next.default_payment_terms, now.toISOString()],
  );
  return next;
}
