// The driver's own books: for every account, what it created and what it was told back — each
// document's total and lines as the create (or revise) answer gave them, and every payment it
// recorded. After a run, the account's reports and lists must add up to exactly this.
import { centsToString, taxYearOf, toCents } from '@tradie/domain';
import type { HttpClient } from './http.ts';

export interface LedgerDocument {
  id: string;
  type: 'invoice' | 'quote';
  reference: string;
  issueDate: string;
  totalCents: bigint;
  lines: number;
  version: number;
  /** Payment id → amount in cents, as the API answered. */
  payments: Map<string, bigint>;
  /** A quote that became an invoice (it can take no more commands). */
  converted: boolean;
  /** An invoice sent, marked issued or paid against: it counts in the reports; a draft does not. */
  issued: boolean;
}

export interface AccountLedger {
  email: string;
  password: string;
  userId: string;
  token: string;
  clients: Map<string, { name: string; version: number }>;
  documents: Map<string, LedgerDocument>;
  /** Drafts the driver deleted: they must not be listed, nor counted. */
  deleted: Set<string>;
}

export const paidCents = (d: LedgerDocument): bigint => [...d.payments.values()].reduce((a, b) => a + b, 0n);
export const balanceCents = (d: LedgerDocument): bigint => d.totalCents - paidCents(d);

/** A money number from an answer (already rounded to cents by the API) to cents. */
export const cents = (n: unknown): bigint => toCents(typeof n === 'number' || typeof n === 'string' ? n : NaN);

/** The ledger entry for a document detail answer (POST/PUT/GET /invoices/{id}, convert, mark-paid). */
export function documentFromDetail(detail: Record<string, unknown>): LedgerDocument {
  const payments = new Map<string, bigint>();
  for (const p of (detail.payments as { id: string; amount: number }[] | undefined) ?? []) payments.set(p.id, cents(p.amount));
  return {
    id: String(detail.id),
    type: detail.type === 'quote' ? 'quote' : 'invoice',
    reference: String(detail.reference),
    issueDate: String(detail.issue_date),
    totalCents: cents(detail.total),
    lines: Array.isArray(detail.line_items) ? detail.line_items.length : -1,
    version: Number(detail.version),
    payments,
    converted: detail.status === 'converted',
    issued: detail.type === 'invoice' && typeof detail.issued_on === 'string',
  };
}

export interface LedgerTotals {
  /** Issued invoices: what the reports count. */
  invoices: number;
  /** Draft invoices: what the reports leave out and say so. */
  drafts: number;
  invoiceTotalCents: bigint;
  paidInvoices: number;
  paymentsCents: bigint;
  payments: number;
  documents: number;
  clients: number;
  /** Tax year → GST-inclusive total of the invoices issued in it. */
  byTaxYear: Map<number, bigint>;
}

export function totalsOf(ledger: AccountLedger): LedgerTotals {
  const t: LedgerTotals = {
    invoices: 0, drafts: 0, invoiceTotalCents: 0n, paidInvoices: 0, paymentsCents: 0n, payments: 0, documents: ledger.documents.size,
    clients: ledger.clients.size, byTaxYear: new Map(),
  };
  for (const d of ledger.documents.values()) {
    if (d.type !== 'invoice') continue;
    t.paymentsCents += paidCents(d);
    t.payments += d.payments.size;
    if (!d.issued) {
      t.drafts++;
      continue;
    }
    t.invoices++;
    t.invoiceTotalCents += d.totalCents;
    if (d.totalCents > 0n && balanceCents(d) === 0n) t.paidInvoices++;
    const year = taxYearOf(d.issueDate);
    t.byTaxYear.set(year, (t.byTaxYear.get(year) ?? 0n) + d.totalCents);
  }
  return t;
}

/** A range of whole years around every date the ledger holds (reports allow up to 20 years). */
export function coveringRange(ledgers: readonly AccountLedger[]): { start: string; end: string } {
  const years = ledgers.flatMap((l) => [...l.documents.values()].map((d) => Number(d.issueDate.slice(0, 4))));
  const now = new Date().getUTCFullYear();
  return { start: `${Math.min(now, ...years) - 1}-01-01`, end: `${Math.max(now, ...years) + 1}-12-31` };
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

const money = (c: bigint): string => `$${centsToString(c)}`;

/**
 * Asks the API for every account's reports, list and documents and compares them with the ledger.
 * Returns the mismatches (empty when every account adds up).
 */
export async function verifyLedgers(http: HttpClient, ledgers: readonly AccountLedger[], options: { concurrency?: number } = {}): Promise<string[]> {
  const problems: string[] = [];
  const { start, end } = coveringRange(ledgers);
  await mapLimit(ledgers, options.concurrency ?? 8, async (l) => {
    const who = l.email;
    const t = totalsOf(l);
    const get = async (route: string, path: string) => {
      const a = await http.call(`verify ${route}`, 'GET', path, { token: l.token });
      if (!a || a.status !== 200) throw new Error(`${who}: GET ${path} answered ${a ? `${a.status} ${JSON.stringify(a.json)}` : 'nothing'}`);
      return a;
    };
    try {
      const gst = (await get('GET /reports/gst', `/reports/gst?start_date=${start}&end_date=${end}&basis=invoice`)).json;
      if (cents(gst.total_sales) !== t.invoiceTotalCents) problems.push(`${who}: GST total_sales ${gst.total_sales}, the ledger says ${money(t.invoiceTotalCents)}`);
      if (gst.invoice_count !== t.invoices) problems.push(`${who}: GST invoice_count ${gst.invoice_count}, the ledger says ${t.invoices}`);
      if (gst.paid_invoices_count !== t.paidInvoices) problems.push(`${who}: GST paid_invoices_count ${gst.paid_invoices_count}, the ledger says ${t.paidInvoices}`);
      if (gst.drafts_left_out !== t.drafts) problems.push(`${who}: GST drafts_left_out ${gst.drafts_left_out}, the ledger holds ${t.drafts} draft invoices`);
      const received = (await get('GET /reports/gst', `/reports/gst?start_date=${start}&end_date=${end}&basis=payments`)).json;
      if (cents(received.total_sales) !== t.paymentsCents) problems.push(`${who}: payments-basis total_sales ${received.total_sales}, the ledger recorded ${money(t.paymentsCents)}`);
      for (const [year, total] of t.byTaxYear) {
        const annual = (await get('GET /reports/annual', `/reports/annual?year=${year}`)).json;
        const reported = cents(annual.total_revenue) + cents(annual.total_gst);
        if (reported !== total) problems.push(`${who}: annual ${year} revenue + GST ${money(reported)}, the ledger says ${money(total)}`);
      }
      // The list: every document the ledger holds, no other, each with its total and balance.
      const listed = new Map<string, { total: number; balance: number; reference: string }>();
      let cursor: string | null = null;
      do {
        const page = await get('GET /invoices', `/invoices?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        for (const r of page.json as { id: string; total: number; balance: number; reference: string }[]) listed.set(r.id, r);
        cursor = page.headers.get('X-Next-Cursor');
      } while (cursor);
      if (listed.size !== t.documents) problems.push(`${who}: ${listed.size} documents listed, the ledger holds ${t.documents}`);
      const references = new Set<string>();
      for (const [id, r] of listed) {
        const d = l.documents.get(id);
        if (references.has(r.reference)) problems.push(`${who}: reference ${r.reference} listed twice`);
        references.add(r.reference);
        if (!d) {
          problems.push(`${who}: ${r.reference} (${id}) is listed but the driver never created it${l.deleted.has(id) ? ' (it deleted it)' : ''}`);
          continue;
        }
        if (cents(r.total) !== d.totalCents) problems.push(`${who}: ${r.reference} total ${r.total} listed, ${money(d.totalCents)} answered`);
        if (cents(r.balance) !== balanceCents(d)) problems.push(`${who}: ${r.reference} balance ${r.balance} listed, the ledger says ${money(balanceCents(d))}`);
      }
      for (const id of l.documents.keys()) if (!listed.has(id)) problems.push(`${who}: document ${id} (${l.documents.get(id)?.reference}) was created but is not listed`);
      // Every document in full: all its lines, its payments, its version.
      await mapLimit([...l.documents.values()], 4, async (d) => {
        const detail = (await get('GET /invoices/{id}', `/invoices/${d.id}`)).json;
        const lines = Array.isArray(detail.line_items) ? detail.line_items.length : -1;
        if (lines !== d.lines) problems.push(`${who}: ${d.reference} has ${lines} lines, ${d.lines} were sent`);
        if (cents(detail.total) !== d.totalCents) problems.push(`${who}: ${d.reference} total ${detail.total}, answered ${money(d.totalCents)} when made`);
        const ids = ((detail.payments ?? []) as { id: string }[]).map((p) => p.id).sort();
        const mine = [...d.payments.keys()].sort();
        if (JSON.stringify(ids) !== JSON.stringify(mine)) problems.push(`${who}: ${d.reference} payments ${JSON.stringify(ids)}, recorded ${JSON.stringify(mine)}`);
      });
      const clients = (await get('GET /clients', '/clients?limit=500')).json as { id: string }[];
      if (clients.length !== t.clients || clients.some((c) => !l.clients.has(c.id))) problems.push(`${who}: ${clients.length} clients listed, the ledger holds ${t.clients}`);
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
    }
  });
  return problems;
}
