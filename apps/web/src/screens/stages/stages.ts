// What the Stages card works out on its own: the bar's widths, the words for each kind of stage,
// and the request body each form sends (POST /invoices/{quoteId}/stages, docs/api/stages.md). The
// server decides the money; nothing here is sent as a figure it has to trust.
import type { DocumentDetail, StageInput, VariationInput } from '@tradie/contracts';
import { money } from '../invoice-detail/view.ts';
import type { Built } from '../shared/command.ts';

export type Stages = NonNullable<DocumentDetail['stages']>;
export type StageKind = Stages['invoices'][number]['kind'];

export const STAGE_KIND_LABELS: Record<StageKind, string> = { deposit: 'Deposit', progress: 'Progress', final: 'Final' };

/** Whether the card shows: a quote that is accepted, or one already invoiced in stages. */
export const hasStages = (doc: Pick<DocumentDetail, 'type' | 'status' | 'stages'>): boolean =>
  doc.type === 'quote' && doc.stages !== null && (doc.status === 'accepted' || doc.stages.invoices.length > 0);

/** Whether new stages can be invoiced (and the quote varied): it is accepted. */
export const canInvoiceStages = (doc: Pick<DocumentDetail, 'type' | 'status'>): boolean => doc.type === 'quote' && doc.status === 'accepted';

/** The bar: what share of the quote is invoiced, as a percent of the bar's width (0–100, one decimal). */
export function invoicedShare(stages: Pick<Stages, 'quoted' | 'invoiced'>): number {
  if (stages.quoted <= 0) return 0;
  const share = (stages.invoiced / stages.quoted) * 100;
  return Math.min(100, Math.max(0, Math.round(share * 10) / 10));
}

/** '55 %' or '33.3 %' (NZ style: a space before the sign, as the API's own sentences write it). */
export const percentText = (n: number): string => `${Number.isInteger(n) ? n : n.toFixed(1)} %`;

/** How a deposit or progress invoice is worked out. */
export type StageMode = 'percent' | 'amount' | 'percent_complete' | 'lines';

export interface StageDraft {
  kind: StageKind;
  mode: StageMode;
  /** The percent or amount typed, as text. */
  value: string;
  /** Per line (mode 'lines'): the percent of each quote line to invoice now, by line index; empty is none. */
  linePercents: Record<number, string>;
}

const NUMBER = /^\d+(\.\d+)?$/;

/** A typed number without spaces, '$', '%' or thousands commas; null when it is not one. */
function numberText(raw: string): string | null {
  const t = raw.trim().replace(/^\$/, '').replace(/%$/, '').replace(/,/g, '').trim();
  return NUMBER.test(t) ? t : null;
}

function percentField(raw: string, what: string): Built<string> {
  const t = numberText(raw);
  if (t === null) return { ok: false, error: `Enter ${what} as a number, e.g. 30` };
  const n = Number(t);
  if (n <= 0) return { ok: false, error: `${what[0]!.toUpperCase()}${what.slice(1)} must be more than 0 %` };
  if (n > 100) return { ok: false, error: `${what[0]!.toUpperCase()}${what.slice(1)} can be at most 100 %` };
  return { ok: true, body: t };
}

/**
 * The body for POST /stages from the form, or what is wrong with what was typed. Only the obvious
 * is checked here (a number, 0–100 %, more than $0); past 100 % of a line or more than is left is
 * the server's to say.
 */
export function stageBody(d: StageDraft): Built<StageInput> {
  if (d.kind === 'final') return { ok: true, body: { kind: 'final' } };
  switch (d.mode) {
    case 'percent': {
      const p = percentField(d.value, 'the percent');
      return p.ok ? { ok: true, body: { kind: d.kind, percent: p.body } } : p;
    }
    case 'percent_complete': {
      if (d.kind !== 'progress') return { ok: false, error: 'A deposit is a percent of the quote or an amount' };
      const p = percentField(d.value, 'the percent complete');
      return p.ok ? { ok: true, body: { kind: 'progress', percent_complete: p.body } } : p;
    }
    case 'amount': {
      const t = numberText(d.value);
      if (t === null) return { ok: false, error: 'Enter the amount in dollars, e.g. 500 or 499.95' };
      if (Number(t) <= 0) return { ok: false, error: 'The amount must be more than $0.00' };
      if (!/^\d+(\.\d{1,2})?$/.test(t)) return { ok: false, error: 'The amount must be in whole cents' };
      return { ok: true, body: { kind: d.kind, amount: t } };
    }
    case 'lines': {
      if (d.kind !== 'progress') return { ok: false, error: 'A deposit is a percent of the quote or an amount' };
      const lines: { line_index: number; percent: string }[] = [];
      for (const [index, raw] of Object.entries(d.linePercents).sort(([a], [b]) => Number(a) - Number(b))) {
        if (raw.trim() === '') continue;
        const p = percentField(raw, `the percent of line ${Number(index) + 1}`);
        if (!p.ok) return p;
        lines.push({ line_index: Number(index), percent: p.body });
      }
      if (lines.length === 0) return { ok: false, error: 'Enter a percent for at least one line' };
      return { ok: true, body: { kind: 'progress', lines } };
    }
  }
}

/** What a percent of the quote comes to, roughly (the server rounds line by line): the hint under the field. */
export function percentPreview(raw: string, quoted: number): string | null {
  const t = numberText(raw);
  if (t === null || Number(t) <= 0 || Number(t) > 100) return null;
  return `About ${money(Math.round(quoted * Number(t)) / 100)} of ${money(quoted)}`;
}

export interface VariationDraft {
  description: string;
  qty: string;
  unitPrice: string;
  /** GST at 15 % on top; off for a zero-rated line. */
  gst: boolean;
  /** Why, for the client ('' for none). */
  note?: string;
}

/** The body for POST /variations, or what is wrong. */
export function variationBody(d: VariationDraft): Built<VariationInput> {
  const description = d.description.trim();
  if (!description) return { ok: false, error: 'Describe the extra work' };
  const qty = numberText(d.qty);
  if (qty === null || Number(qty) <= 0) return { ok: false, error: 'Enter a quantity more than 0' };
  const price = numberText(d.unitPrice);
  if (price === null) return { ok: false, error: 'Enter the unit price in dollars' };
  return { ok: true, body: { lines: [{ description, qty, unit_price: price, tax_included: false, tax_rate: d.gst ? '0.15' : '0' }], note: (d.note ?? '').trim() } };
}
