// The price book as CSV (GET /price-book/items/export.csv), through the same stringifier as every
// export (reports/csv.ts: RFC 4180, a byte-order mark, formula cells neutralised): a supplier's
// description of =HYPERLINK(…) is text in the spreadsheet, never a formula.
import type { Sql } from '@tradie/store';
import type { Cell } from '../reports/csv.ts';
import { COLUMNS, recordOf, type ItemRow } from './repository.ts';

export const EXPORT_HEADER = ['Name', 'Description', 'Unit', 'Category', 'Cost excl. GST', 'Sell excl. GST', 'Supplier', "Supplier's code", 'GST rate'];

/** The header and one row per item, by name. */
export async function exportRows(sql: Sql, accountId: string): Promise<Cell[][]> {
  const rows = await sql.query<ItemRow>(`SELECT ${COLUMNS} FROM price_book_items WHERE account_id = $1 ORDER BY sort_name, id`, [accountId]);
  return [
    EXPORT_HEADER,
    ...rows.map(recordOf).map((i) => [i.name, i.description, i.unit, i.category, i.cost, i.sell ?? '', i.supplier, i.supplier_code, i.gst_rate === '0' ? '0%' : '15%']),
  ];
}
