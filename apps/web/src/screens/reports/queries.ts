// Server data for Tax Reports: the GST report, the annual summary and the signed CSV links. The api
// client arrives as an argument, so tests can hand in their own.
import { queryOptions } from '@tanstack/react-query';
import type { AccountantExportQuery, AnnualReportResponse, ExpensesReportResponse, ExportLinkInput, ExportLinkResponse, GstReportResponse, MonthProfitResponse, ProfitReportResponse } from '@tradie/contracts';
import type { GstBasis, ProfitGrouping } from '@tradie/domain';
import type { ApiClient } from '../../api/client.ts';

type Api = Pick<ApiClient, 'get' | 'post'>;

export interface GstParams {
  start_date: string;
  end_date: string;
  basis: GstBasis;
  /** Boxes 9 and 13 typed from the return's calculation sheet (GST amounts); '' or absent: none. */
  debit_adjustments?: string;
  credit_adjustments?: string;
}

export const reportKeys = {
  all: ['reports'] as const,
  gst: (p: GstParams) => [...reportKeys.all, 'gst', p.start_date, p.end_date, p.basis, p.debit_adjustments ?? '', p.credit_adjustments ?? ''] as const,
  annual: (year: number) => [...reportKeys.all, 'annual', year] as const,
  expenses: (year: number) => [...reportKeys.all, 'expenses', year] as const,
  profit: (p: ProfitParams) => [...reportKeys.all, 'profit', p.start_date, p.end_date, p.group] as const,
  monthProfit: () => [...reportKeys.all, 'profit', 'this-month'] as const,
};

export interface ProfitParams {
  start_date: string;
  end_date: string;
  group: ProfitGrouping;
}

/**
 * Reports are asked for with Generate Report and must show the invoices as they are now, so they
 * are never 'fresh' from an earlier answer (the server memoises them; asking again is cheap).
 */
const REPORT_STALE_TIME = 0;

export const gstQueryString = (p: GstParams): string =>
  new URLSearchParams({
    start_date: p.start_date, end_date: p.end_date, basis: p.basis,
    ...(p.debit_adjustments ? { debit_adjustments: p.debit_adjustments } : {}),
    ...(p.credit_adjustments ? { credit_adjustments: p.credit_adjustments } : {}),
  }).toString();

/** GET /reports/gst?start_date&end_date&basis */
export const gstReportQuery = (api: Api, p: GstParams) =>
  queryOptions({
    queryKey: reportKeys.gst(p),
    queryFn: ({ signal }) => api.get<GstReportResponse>(`/reports/gst?${gstQueryString(p)}`, { signal }),
    staleTime: REPORT_STALE_TIME,
  });

/** GET /reports/annual?year (the year the tax year ends in). */
export const annualReportQuery = (api: Api, year: number) =>
  queryOptions({
    queryKey: reportKeys.annual(year),
    queryFn: ({ signal }) => api.get<AnnualReportResponse>(`/reports/annual?year=${encodeURIComponent(String(year))}`, { signal }),
    staleTime: REPORT_STALE_TIME,
  });

/** GET /reports/expenses?year: the tax year's expenses beside the annual summary's revenue, and the net profit before tax. */
export const expensesReportQuery = (api: Api, year: number) =>
  queryOptions({
    queryKey: reportKeys.expenses(year),
    queryFn: ({ signal }) => api.get<ExpensesReportResponse>(`/reports/expenses?year=${encodeURIComponent(String(year))}`, { signal }),
    staleTime: REPORT_STALE_TIME,
  });

/** GET /reports/profit?start_date&end_date&group */
export const profitReportQuery = (api: Api, p: ProfitParams) =>
  queryOptions({
    queryKey: reportKeys.profit(p),
    queryFn: ({ signal }) => api.get<ProfitReportResponse>(`/reports/profit?${new URLSearchParams({ start_date: p.start_date, end_date: p.end_date, group: p.group }).toString()}`, { signal }),
    staleTime: REPORT_STALE_TIME,
  });

/** GET /reports/profit/this-month: the home screen's invoiced sales and gross profit. */
export const monthProfitQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: reportKeys.monthProfit(),
    queryFn: ({ signal }) => api.get<MonthProfitResponse>('/reports/profit/this-month', { signal }),
  });

/** POST /reports/export-links: a five-minute download link to one CSV export (the token never travels in a URL; download.ts fetches it). */
export const createExportLink = (api: Api, input: ExportLinkInput) => api.post<ExportLinkResponse>('/reports/export-links', input);

/** POST /reports/accountant-export-links: a five-minute download link to the accountant's ZIP. */
export const createAccountantExportLink = (api: Api, input: AccountantExportQuery) => api.post<ExportLinkResponse>('/reports/accountant-export-links', input);
