// Tax reports (docs/api/reports.md): the queries, the answers and
// the signed download links. The figures themselves come from @tradie/domain's reports.
import { z } from 'zod';
import { checkRange, checkTaxYear, DomainError, invalid, PROFIT_GROUPINGS, requireAdjustmentCents, taxYearRange, type GstBasis, type ProfitGrouping } from '@tradie/domain';
import { profitFiguresRecord } from './invoices.ts';
import { money } from './common.ts';

export const gstBasis = z.enum(['invoice', 'payments'], { error: "basis must be 'invoice' or 'payments'" });

/** A domain check (checkRange, checkTaxYear) as a zod transform: its detail becomes the issue's message. */
function domainChecked<I, O>(check: (input: I) => O) {
  return (input: I, ctx: z.core.$RefinementCtx<I>): O => {
    try {
      return check(input);
    } catch (e) {
      ctx.addIssue(e instanceof DomainError ? e.detail : 'The request is not valid');
      return z.NEVER;
    }
  };
}

/**
 * GET /reports/gst and /reports/export/gst-csv. Missing dates → 'Please select both start and
 * end dates'; dates must be real YYYY-MM-DD calendar days (Pacific/Auckland), start ≤ end.
 */
export const gstReportQuery = z
  .object({
    start_date: z.string().optional(),
    end_date: z.string().optional(),
    basis: gstBasis.optional(),
    /** Box 9, typed by hand: debit adjustments from the return's calculation sheet (e.g. private use of something whose GST was claimed), GST amount, "0.00" or more. */
    debit_adjustments: z.union([z.string(), z.number()]).optional(),
    /** Box 13, typed by hand: credit adjustments from the calculation sheet, GST amount, "0.00" or more. */
    credit_adjustments: z.union([z.string(), z.number()]).optional(),
  })
  .transform(
    domainChecked((q): { start_date: string; end_date: string; basis: GstBasis; debitCents: bigint; creditCents: bigint } => {
      const r = checkRange(q.start_date, q.end_date);
      return {
        start_date: r.start, end_date: r.end, basis: q.basis ?? 'invoice',
        debitCents: requireAdjustmentCents(q.debit_adjustments, 'Debit adjustments (Box 9)'),
        creditCents: requireAdjustmentCents(q.credit_adjustments, 'Credit adjustments (Box 13)'),
      };
    }),
  );
export type GstReportQuery = z.input<typeof gstReportQuery>;

/** GET /reports/annual and /reports/export/annual-csv: `year` is the year the tax year ends in (2026 = 1 April 2025 – 31 March 2026). */
export const annualReportQuery = z
  .object({ year: z.union([z.string(), z.number()]).optional() })
  .transform(domainChecked((q): { year: number } => ({ year: checkTaxYear(typeof q.year === 'number' ? q.year : q.year?.trim()) })));
export type AnnualReportQuery = z.input<typeof annualReportQuery>;

/** The GST return boxes 5–15, worded as on the GST101A return. */
export const GST_RETURN_LABELS = {
  box5: 'Total sales and income for the period (including GST and any zero-rated supplies)',
  box6: 'Zero-rated supplies included in Box 5',
  box7: 'Subtract Box 6 from Box 5',
  box8: 'Multiply the amount in Box 7 by three (3) and then divide by twenty-three (23)',
  box9: 'Adjustments from your calculation sheet',
  box10: 'Total GST collected on sales and income (add Box 8 and Box 9)',
  box11: 'Total purchases and expenses (including GST) for which you hold taxable supply information',
  box12: 'Multiply the amount in Box 11 by three (3) and then divide by twenty-three (23)',
  box13: 'Credit adjustments from your calculation sheet',
  box14: 'Total GST credit for purchases and expenses (add Box 12 and Box 13)',
  box15: 'Difference between Box 10 and Box 14 (GST to pay, or a refund if negative)',
} as const;

export const gstReturnBoxes = z.object({
  box5: z.number(),
  box6: z.number(),
  box7: z.number(),
  box8: z.number(),
  box9: z.number(),
  box10: z.number(),
  box11: z.number(),
  box12: z.number(),
  box13: z.number(),
  box14: z.number(),
  box15: z.number(),
});

/** GET /reports/gst: the totals and counts plus the basis, the range and the return boxes. */
export const gstReportResponse = z.object({
  basis: gstBasis,
  start_date: z.string(),
  end_date: z.string(),
  total_sales: z.number(),
  total_gst_collected: z.number(),
  invoice_count: z.number().int(),
  paid_invoices_count: z.number().int(),
  unpaid_invoices_count: z.number().int(),
  /** Invoices counted in invoice_count that were voided since (neither paid nor unpaid). */
  voided_invoices_count: z.number().int(),
  breakdown_by_month: z.array(z.object({ month: z.string(), sales: z.number(), gst: z.number(), count: z.number().int() })),
  gst_return: gstReturnBoxes,
  /**
   * Corrections made in the range, as negative amounts already in the totals: invoices voided and
   * credit notes issued (invoice basis), payments removed and money refunded (payments basis),
   * `count` in all and each kind counted apart.
   */
  corrections: z.object({
    count: z.number().int(),
    sales: z.number(),
    gst: z.number(),
    invoices_voided: z.number().int(),
    credit_notes: z.number().int(),
    payments_removed: z.number().int(),
    refunds: z.number().int(),
  }),
  /** Draft invoices dated in the range: never issued, so left out. */
  drafts_left_out: z.number().int(),
  /**
   * Invoice basis: invoices that count in a GST period exported for the accountant before they were
   * issued (backdated), reported here instead and already in the totals above; the exported period
   * keeps its figures. Each says the period it belongs to (`exported_period`, 'Jan–Feb 2027') and the
   * day it is counted on (`carried_to`). Empty on the payments basis.
   */
  adjustments_to_carry: z.object({
    count: z.number().int(),
    sales: z.number(),
    gst: z.number(),
    invoices: z.array(z.object({
      reference: z.string(),
      client_name: z.string(),
      issue_date: z.string(),
      supply_date: z.string(),
      carried_to: z.string(),
      exported_period: z.string(),
      sales: z.number(),
      gst: z.number(),
    })),
  }),
  /**
   * Invoice basis: costs recorded, changed or deleted after a GST period holding their date was
   * exported, counted here instead (already in Boxes 11 and 12 above); the exported period keeps its
   * figures. Each line adds a version of a cost ('added') or takes back the one that was exported
   * ('taken back', negative). `amount` is GST-inclusive; `claimed` is what it adds to Box 11.
   * Empty on the payments basis.
   */
  purchase_adjustments: z.object({
    count: z.number().int(),
    amount: z.number(),
    claimed: z.number(),
    lines: z.array(z.object({
      supplier: z.string(),
      date: z.string(),
      carried_to: z.string(),
      exported_period: z.string(),
      change: z.enum(['added', 'taken back']),
      amount: z.number(),
      claimed: z.number(),
    })),
  }),
});
export type GstReportResponse = z.infer<typeof gstReportResponse>;

/** GET /reports/annual: the totals and breakdowns plus the year, its label ('2025–26') and its dates. */
export const annualReportResponse = z.object({
  year: z.number().int(),
  label: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  total_revenue: z.number(),
  total_gst: z.number(),
  /** Revenue of the year on invoices paid in full: their revenue less their credit notes of the year. paid + unpaid = total. */
  paid_revenue: z.number(),
  /** Revenue of the year on invoices still owing (and voided ones, whose void takes them back out). */
  unpaid_revenue: z.number(),
  top_clients: z.array(z.object({ name: z.string(), revenue: z.number() })),
  monthly_breakdown: z.array(z.object({ month: z.string(), revenue: z.number(), gst: z.number(), count: z.number().int(), paid_count: z.number().int() })),
  /** Invoices voided and credit notes issued in the year, as negative amounts already in the totals. */
  corrections: z.object({ count: z.number().int(), revenue: z.number(), gst: z.number() }),
  /** Of the corrections, the invoices voided in the year (negative). */
  voided: z.object({ count: z.number().int(), revenue: z.number(), gst: z.number() }),
  /** Of the corrections, the credit notes issued in the year (negative). */
  credited: z.object({ count: z.number().int(), revenue: z.number(), gst: z.number() }),
  /** Money paid back to clients in the year (GST included; refunds on payments and on credit notes). Not revenue: what was credited is. */
  refunded: z.object({ count: z.number().int(), amount: z.number() }),
  /** Draft invoices dated in the year: never issued, so left out. */
  drafts_left_out: z.number().int(),
});
export type AnnualReportResponse = z.infer<typeof annualReportResponse>;

export const EXPORT_KINDS = ['gst-csv', 'annual-csv', 'profit-csv'] as const;
export const exportKind = z.enum(EXPORT_KINDS, { error: "kind must be 'gst-csv', 'annual-csv' or 'profit-csv'" });
export type ExportKind = z.infer<typeof exportKind>;

/**
 * POST /reports/export-links: the export and its query. gst-csv takes start_date, end_date and
 * basis; annual-csv takes year; profit-csv takes start_date, end_date and group. The query is
 * checked here exactly as the export checks it.
 */
export const exportLinkInput = z.object({
  kind: exportKind,
  start_date: z.string().optional(),
  end_date: z.string().optional(),
  basis: z.string().optional(),
  year: z.union([z.string(), z.number()]).optional(),
  /** profit-csv: month, quarter or tax_year. */
  group: z.string().optional(),
  /** gst-csv: Boxes 9 and 13 typed by hand, as on GET /reports/gst. */
  debit_adjustments: z.union([z.string(), z.number()]).optional(),
  credit_adjustments: z.union([z.string(), z.number()]).optional(),
});
export type ExportLinkInput = z.input<typeof exportLinkInput>;

/** A same-origin URL (starting /api/v1/) to open in a new tab, usable until expires_at (ISO 8601). */
export const exportLinkResponse = z.object({ url: z.string(), expires_at: z.string() });
export type ExportLinkResponse = z.infer<typeof exportLinkResponse>;

export const ACCOUNTANT_EXPORT_PERIOD = 'Choose either a tax year or start and end dates, not both';

/**
 * GET /reports/export/accountant-zip and POST /reports/accountant-export-links: the period as a
 * tax year (`year`, as GET /annual) or as start_date and end_date (as GET /gst), not both; `basis`
 * is the GST basis of the ZIP's gst-report.csv (default invoice). Answers the checked range.
 */
export const accountantExportQuery = z
  .object({
    start_date: z.string().optional(),
    end_date: z.string().optional(),
    year: z.union([z.string(), z.number()]).optional(),
    basis: gstBasis.optional(),
  })
  .transform(
    domainChecked((q): { start_date: string; end_date: string; basis: GstBasis; year: number | null } => {
      const hasYear = q.year !== undefined && q.year !== '';
      const hasDates = (q.start_date ?? '') !== '' || (q.end_date ?? '') !== '';
      if (hasYear && hasDates) throw invalid(ACCOUNTANT_EXPORT_PERIOD);
      const basis = q.basis ?? 'invoice';
      if (hasYear) {
        const year = checkTaxYear(typeof q.year === 'number' ? q.year : q.year?.trim());
        const r = taxYearRange(year);
        return { start_date: r.start, end_date: r.end, basis, year };
      }
      const r = checkRange(q.start_date, q.end_date);
      return { start_date: r.start, end_date: r.end, basis, year: null };
    }),
  );
export type AccountantExportQuery = z.input<typeof accountantExportQuery>;

// ---- the profit report ---------------------------------------------------------------------------

/**
 * GET /reports/profit and /reports/export/profit-csv: start_date and end_date as the GST report
 * takes them, and `group` — month (default), quarter or tax_year — for the period rows.
 */
export const profitReportQuery = z
  .object({
    start_date: z.string().optional(),
    end_date: z.string().optional(),
    group: z.enum(PROFIT_GROUPINGS, { error: "group must be 'month', 'quarter' or 'tax_year'" }).optional(),
  })
  .transform(
    domainChecked((q): { start_date: string; end_date: string; group: ProfitGrouping } => {
      const r = checkRange(q.start_date, q.end_date);
      return { start_date: r.start, end_date: r.end, group: q.group ?? 'month' };
    }),
  );
export type ProfitReportQuery = z.input<typeof profitReportQuery>;

/**
 * Actual-cost profit: what invoices made from jobs (accepted quotes) sold, excl. GST and net of
 * credit notes and voids, less the costs and hours recorded against jobs (a cost without the GST
 * claimed back), each on its own day. Invoices not made from a quote are not in it.
 */
export const actualProfitRecord = z.object({
  sell: money,
  cost: money,
  /** sell − cost. */
  profit: money,
  formatted: z.object({ sell: z.string(), cost: z.string(), profit: z.string() }),
});
export type ActualProfitRecord = z.infer<typeof actualProfitRecord>;

/** One row: quoted profit of the quotes accepted, invoiced profit of the invoices issued (net of credit notes and voids dated in the range), and actual-cost profit. */
export const profitReportRow = z.object({
  key: z.string(),
  label: z.string(),
  /** Quotes accepted in it (periods, clients; 0 on category rows). */
  quotes: z.number().int(),
  /** Invoices issued in it (periods, clients; 0 on category rows). */
  invoices: z.number().int(),
  quoted: profitFiguresRecord,
  invoiced: profitFiguresRecord,
  actual: actualProfitRecord,
});
export type ProfitReportRow = z.infer<typeof profitReportRow>;

export const profitReportResponse = z.object({
  start_date: z.string(),
  end_date: z.string(),
  group: z.enum(PROFIT_GROUPINGS),
  total: profitReportRow,
  /** Every month, quarter or tax year the range touches, in order. */
  periods: z.array(profitReportRow),
  /** Each client with a quote accepted or an invoice (or its correction) in the range, by name. */
  clients: z.array(profitReportRow),
  /** Each category, built-in first; names as the business calls them. */
  categories: z.array(profitReportRow),
});
export type ProfitReportResponse = z.infer<typeof profitReportResponse>;

/** GET /reports/profit/this-month: the home screen's invoiced sales and gross profit of the month so far. */
export const monthProfitResponse = z.object({
  month: z.string(),
  label: z.string(),
  invoices: z.number().int(),
  invoiced: profitFiguresRecord,
});
export type MonthProfitResponse = z.infer<typeof monthProfitResponse>;

/**
 * GET /reports/expenses?year=: the tax year's expenses (receipts, bills and expenses recorded, by
 * the supplier's invoice date, each without the GST claimed back) beside the annual summary's
 * revenue, and the net profit before tax. Money in dollars, as the annual summary has it.
 */
export const expensesReportResponse = z.object({
  year: z.number().int(),
  label: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  /** The annual summary's total_revenue (GST-exclusive). */
  revenue: z.number(),
  expenses: z.number(),
  /** Costs counted. */
  count: z.number().int(),
  by_category: z.array(z.object({ category: z.string(), amount: z.number() })),
  /** revenue − expenses. */
  net_profit_before_tax: z.number(),
});
export type ExpensesReportResponse = z.infer<typeof expensesReportResponse>;
