// Server data for the Costs screen and a job's profit: query factories and the calls behind their
// buttons. The api client arrives as an argument, so tests can hand in their own.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AccountingBillResult, CostInput, CostList, CostRecord, ReceiptInfo, DocumentListRecord, HoursInput, HoursList, HoursRecord, JobList, JobProfitRecord, JobSort, RecurringInput, RecurringList, RecurringRecord } from '@tradie/contracts';
import type { ApiClient } from '../../api/client.ts';
import { reportKeys } from '../reports/queries.ts';

type Api = Pick<ApiClient, 'get' | 'post' | 'put' | 'del'>;
type FileApi = Pick<ApiClient, 'upload' | 'blob'>;

export const costKeys = {
  all: ['costs'] as const,
  costs: () => [...costKeys.all, 'list'] as const,
  hours: () => [...costKeys.all, 'hours'] as const,
  jobs: () => [...costKeys.all, 'jobs'] as const,
  job: (quoteId: string) => [...costKeys.all, 'job', quoteId] as const,
  jobList: (sort: JobSort) => [...costKeys.all, 'job-list', sort] as const,
  recurring: () => [...costKeys.all, 'recurring'] as const,
};

/** GET /recurring-costs: repeating expenses, those still going first. */
export const recurringListQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({ queryKey: costKeys.recurring(), queryFn: ({ signal }) => api.get<RecurringList>('/recurring-costs', { signal }) });

/** GET /costs: receipts, bills and expenses, newest first. */
export const costListQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({ queryKey: costKeys.costs(), queryFn: ({ signal }) => api.get<CostList>('/costs', { signal }) });

/** GET /hours: hours worked, newest first. */
export const hoursListQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({ queryKey: costKeys.hours(), queryFn: ({ signal }) => api.get<HoursList>('/hours', { signal }) });

/** The jobs a cost can be for: the accepted quotes (and those since made an invoice), newest first (the first 200). */
export const jobChoicesQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: costKeys.jobs(),
    queryFn: ({ signal }) => api.get<DocumentListRecord[]>('/invoices?type=quote&status=accepted,converted&limit=200', { signal }),
    staleTime: 60_000,
  });

/** GET /jobs/{quoteId}/profit: the job's real profit so far, with its overrun warnings. */
export const jobProfitQuery = (api: Pick<ApiClient, 'get'>, quoteId: string) =>
  queryOptions({ queryKey: costKeys.job(quoteId), queryFn: ({ signal }) => api.get<JobProfitRecord>(`/jobs/${encodeURIComponent(quoteId)}/profit`, { signal }) });

/** GET /jobs?sort=: the jobs with their profit so far and how far over their quoted cost. */
export const jobListQuery = (api: Pick<ApiClient, 'get'>, sort: JobSort) =>
  queryOptions({ queryKey: costKeys.jobList(sort), queryFn: ({ signal }) => api.get<JobList>(`/jobs?sort=${sort}`, { signal }) });

export const createCost = (api: Api, body: CostInput) => api.post<CostRecord>('/costs', body);
export const updateCost = (api: Api, id: string, body: CostInput, version: number) => api.put<CostRecord>(`/costs/${encodeURIComponent(id)}`, { ...body, version });
export const deleteCost = (api: Api, id: string) => api.del(`/costs/${encodeURIComponent(id)}`);
export const createHours = (api: Api, body: HoursInput) => api.post<HoursRecord>('/hours', body);
export const updateHours = (api: Api, id: string, body: HoursInput, version: number) => api.put<HoursRecord>(`/hours/${encodeURIComponent(id)}`, { ...body, version });
export const deleteHours = (api: Api, id: string) => api.del(`/hours/${encodeURIComponent(id)}`);
/** Set up with one Idempotency-Key per form: a retry on a weak signal sets up one, never two. */
export const createRecurring = (api: Api, body: RecurringInput, options: { idempotencyKey: string }) => api.post<RecurringRecord>('/recurring-costs', body, options);
/** POST /integrations/xero/bills/{id}: the cost as a bill in Xero, with its receipt attached (once; again brings it up to date). */
export const sendCostToXero = (api: Api, id: string) => api.post<AccountingBillResult>(`/integrations/xero/bills/${encodeURIComponent(id)}`);
export const stopRecurring = (api: Api, id: string) => api.post<RecurringRecord>(`/recurring-costs/${encodeURIComponent(id)}/stop`);

/**
 * After any change: the lists, every job's profit and the reports (Boxes 11–15 and the profit
 * report count the costs) reload.
 */
export const invalidateCosts = (queryClient: QueryClient) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: costKeys.all }), queryClient.invalidateQueries({ queryKey: reportKeys.all })]);

/** POST /costs/{id}/receipt (multipart, field `file`): the receipt's photo or PDF, replacing any. */
export function uploadReceipt(api: Pick<ApiClient, 'upload'>, costId: string, file: Blob, name: string): Promise<ReceiptInfo> {
  const form = new FormData();
  form.append('file', file, name);
  return api.upload<ReceiptInfo>(`/costs/${encodeURIComponent(costId)}/receipt`, form);
}

/** GET /costs/{id}/receipt: the receipt as kept, to show (the bearer token rules out a plain link). */
export const receiptBlob = (api: Pick<FileApi, 'blob'>, costId: string) => api.blob(`/costs/${encodeURIComponent(costId)}/receipt`);
