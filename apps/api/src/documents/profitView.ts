// The tradie's cost and profit as the API answers them: every figure from the domain's one profit
// function (documentProfit / profitOfDocument), turned into numbers rounded to cents and NZD text
// only here. Only the tradie's own reads call these: nothing the client sees (the link pages, the
// PDF, the emails, Xero) is built from them (apps/api/test/documents/costNeverToClient.int.spec.ts).
import type { CostedLineRecord, DocumentProfitRecord, LineRecord, ProfitFiguresRecord } from '@tradie/contracts';
import { type DocumentProfit, type Line, type ProfitFigures, centsToNumber, formatNzd, lineCostCents, marginTenths, markupTenths } from '@tradie/domain';

const tenthsToNumber = (t: bigint | null): number | null => (t === null ? null : Number(t) / 10);

export function profitFiguresRecordOf(f: ProfitFigures): ProfitFiguresRecord {
  return {
    sell: centsToNumber(f.sellCents),
    costed_sell: centsToNumber(f.costedSellCents),
    cost: centsToNumber(f.costCents),
    gross_profit: centsToNumber(f.grossProfitCents),
    margin_percent: tenthsToNumber(marginTenths(f)),
    markup_percent: tenthsToNumber(markupTenths(f)),
    costed_lines: f.costedLines,
    uncosted_lines: f.uncostedLines,
    uncosted_sell: centsToNumber(f.uncostedSellCents),
    formatted: { sell: formatNzd(f.sellCents), cost: formatNzd(f.costCents), gross_profit: formatNzd(f.grossProfitCents), uncosted_sell: formatNzd(f.uncostedSellCents) },
  };
}

export function documentProfitRecordOf(p: DocumentProfit): DocumentProfitRecord {
  return { ...profitFiguresRecordOf(p), categories: p.categories.map((c) => ({ ...profitFiguresRecordOf(c), category: c.category })) };
}

/** The client-safe line records with each line's cost, category and own markup added. */
export function costedLineRecordsOf(lines: readonly Line[], records: readonly LineRecord[]): CostedLineRecord[] {
  return records.map((r, i) => {
    const l = lines[i]!;
    const cost = lineCostCents(l);
    return {
      ...r,
      cost: l.cost === undefined || l.cost === null ? null : Number(l.cost),
      category: l.category ?? 'other',
      markup: l.markup === undefined || l.markup === null ? null : Number(l.markup),
      cost_amount: cost === null ? null : centsToNumber(cost),
      price_book_item_id: l.price_book_item_id ?? null,
    };
  });
}

/**
 * The line records the client may see: exactly lineRecord's fields, whatever else the record
 * carried (the tradie's detail carries cost, category and markup). Every client-facing answer
 * built from a tradie's detail goes through this.
 */
export function clientLineRecords(records: readonly LineRecord[]): LineRecord[] {
  return records.map((r) => ({
    description: r.description,
    qty: r.qty,
    unit_price: r.unit_price,
    tax_included: r.tax_included,
    tax_rate: r.tax_rate,
    amount: r.amount,
    gst: r.gst,
    amount_excl_gst: r.amount_excl_gst,
    formatted: { unit_price: r.formatted.unit_price, amount: r.formatted.amount },
  }));
}
