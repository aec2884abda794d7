// Emails a mail server refused for good — a document's send or a reminder, per recipient — kept
// for the home screen's banner until the tradie dismisses them. Written by a reaction to the
// events that record the refusal (DocumentSendNotDelivered and ReminderNotDelivered with outcome
// 'failed'), so each refusal has its row once.
import type { DeliveryFailures } from '@tradie/contracts';
import type { Sql } from '@tradie/store';

type Failure = DeliveryFailures['items'][number];

export async function recordFailure(sql: Sql, f: { id: string; accountId: string; documentId: string; reference: string; kind: Failure['kind']; recipients: string[]; detail: string; at: string }): Promise<void> {
  const recipients = f.recipients.length > 0 ? f.recipients : [''];
  for (const [i, recipient] of recipients.entries()) {
    await sql.query(
      `INSERT INTO delivery_failures (id, account_id, document_id, reference, kind, recipient, detail, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz)
       ON CONFLICT (id) DO NOTHING`,
      [`${f.id}-${i}`, f.accountId, f.documentId, f.reference, f.kind, recipient, f.detail, f.at],
    );
  }
}

/** The mail server's answer, shortened for a one-line banner ('550 5.1.1 … mailbox unavailable' → as given, at most 160 characters). */
const short = (detail: string): string => (detail.length > 160 ? `${detail.slice(0, 157)}…` : detail);

export async function failuresOf(sql: Sql, accountId: string): Promise<Failure[]> {
  const rows = await sql.query<{ id: string; document_id: string; reference: string; kind: Failure['kind']; recipient: string; detail: string; at: string | Date }>(
    'SELECT id, document_id, reference, kind, recipient, detail, at FROM delivery_failures WHERE account_id = $1 AND dismissed_at IS NULL ORDER BY at DESC, id LIMIT 20',
    [accountId],
  );
  return rows.map((r) => {
    const what = r.kind === 'reminder' ? 'Reminder' : r.reference;
    const to = r.recipient ? ` to ${r.recipient}` : '';
    return { ...r, at: new Date(r.at).toISOString(), text: `${what}${to} failed: ${short(r.detail)}` };
  });
}

export async function dismissFailure(sql: Sql, accountId: string, id: string, now: Date): Promise<boolean> {
  const rows = await sql.query('UPDATE delivery_failures SET dismissed_at = $3::timestamptz WHERE account_id = $1 AND id = $2 AND dismissed_at IS NULL RETURNING id', [accountId, id, now.toISOString()]);
  return rows.length > 0;
}
