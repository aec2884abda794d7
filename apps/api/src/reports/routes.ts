// /api/v1/reports: the GST report, the annual summary, their CSV exports, the accountant's ZIP
// (accountantExport.ts) and download links for the exports (links.ts) (docs/api/reports.md). Every read is one account's rows of the report
// projections, by an indexed date range; the figures are assembled by the domain.
import { accountantExportQuery, annualReportQuery, annualReportResponse, expensesReportResponse, exportLinkInput, exportLinkResponse, gstReportQuery, gstReportResponse, monthProfitResponse, profitReportQuery, profitReportResponse } from '@tradie/contracts';
import { centsToString, nzDateOf, taxYearRange } from '@tradie/domain';
import { Hono, type MiddlewareHandler } from 'hono';
import { attachment } from '../http/attachment.ts';
import type { AppEnv } from '../http/env.ts';
import { refuseClosedAccount } from '../account/liveness.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody, parseQuery, parseWith } from '../http/body.ts';
import { describe } from '../openapi/describe.ts';
import { annualCsv, annualCsvFileName, gstCsvFileName, gstInvoiceCsv, gstPaymentsCsv } from './csv.ts';
import { issueExportLink, openExportLink, type LinkKind } from './links.ts';
import { accountantExport } from './accountantExport.ts';
import { recordGstExport } from './gstExports.ts';
import { createReportMemo, versionWithSettings } from './memo.ts';
import { monthProfitFor, profitCsv, profitCsvFileName, profitNamed, profitReportOf, profitResponseOf } from './profit.ts';
import { expensesReportFor, purchasesFor } from './purchases.ts';
import { annualSummaryFor, gstReportFor, invoicesIssuedIn, invoicesSuppliedIn, paymentsReceivedIn, refundedIn } from './queries.ts';

/** The exports take a download link (?…&token=) or, for scripts and accountants' tools, the bearer header. */
function linkOrBearer(deps: AppDeps, kind: LinkKind): MiddlewareHandler<AppEnv> {
  const bearer = requireAuth(deps);
  return async (c, next) => {
    if (c.req.query('token') === undefined) return bearer(c, next);
    const accountId = await openExportLink(deps.store.db, kind, (name) => c.req.query(name), deps.clock.now());
    // The deletion revoked every link; one opened for an account closed since opens nothing of it (account/liveness.ts).
    await refuseClosedAccount(deps.store.db, accountId);
    c.set('accountId', accountId);
    c.set('userId', accountId);
    await next();
  };
}

const csvResponse = (body: string, fileName: string): Response => attachment(body, 'text/csv; charset=utf-8; header=present', fileName);

export function reportRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const auth = requireAuth(deps);
  const sql = deps.store.db;
  const memo = createReportMemo(versionWithSettings(deps.store), 256);

  r.get('/gst', describe({ tag: 'Reports', summary: 'GST report for a date range (invoice or payments basis) with the GST return boxes', query: gstReportQuery, response: { status: 200, schema: gstReportResponse } }), auth, async (c) => {
    const q = parseQuery(c, gstReportQuery);
    const accountId = c.get('accountId');
    const key = `gst ${q.basis} ${q.start_date} ${q.end_date} ${q.debitCents} ${q.creditCents}`;
    return c.json(await memo.get(accountId, key, () => gstReportFor(sql, accountId, { start: q.start_date, end: q.end_date }, q.basis, q)));
  });

  r.get('/annual', describe({ tag: 'Reports', summary: 'Annual summary for an NZ tax year (2026 = 1 Apr 2025 – 31 Mar 2026)', query: annualReportQuery, response: { status: 200, schema: annualReportResponse } }), auth, async (c) => {
    const q = parseQuery(c, annualReportQuery);
    const accountId = c.get('accountId');
    return c.json(await memo.get(accountId, `annual ${q.year}`, () => annualSummaryFor(sql, accountId, q.year)));
  });

  r.get('/expenses', describe({ tag: 'Reports', summary: "A tax year's expenses (costs recorded, without the GST claimed back) beside its revenue, and the net profit before tax", query: annualReportQuery, response: { status: 200, schema: expensesReportResponse } }), auth, async (c) => {
    const q = parseQuery(c, annualReportQuery);
    const accountId = c.get('accountId');
    // The revenue is the Annual Summary's own (the same memo entry), so the two screens agree.
    return c.json(await memo.get(accountId, `expenses ${q.year}`, async () => expensesReportFor(sql, accountId, q.year, await memo.get(accountId, `annual ${q.year}`, () => annualSummaryFor(sql, accountId, q.year)))));
  });

  r.get('/profit', describe({ tag: 'Reports', summary: "Profit report: quoted profit of accepted quotes and invoiced profit of issued invoices (net of credit notes and voids), by month, quarter or tax year, per client and per category", query: profitReportQuery, response: { status: 200, schema: profitReportResponse } }), auth, async (c) => {
    const q = parseQuery(c, profitReportQuery);
    const accountId = c.get('accountId');
    const key = `profit ${q.group} ${q.start_date} ${q.end_date}`;
    const report = await memo.get(accountId, key, () => profitReportOf(deps.store, accountId, { start: q.start_date, end: q.end_date }, q.group));
    return c.json(profitResponseOf(await profitNamed(sql, accountId, report)));
  });

  r.get('/profit/this-month', describe({ tag: 'Reports', summary: "This month's invoiced sales and gross profit (the home screen)", response: { status: 200, schema: monthProfitResponse } }), auth, async (c) => {
    const accountId = c.get('accountId');
    const today = nzDateOf(deps.clock.now());
    return c.json(await memo.get(accountId, `month-profit ${today}`, () => monthProfitFor(deps.store, accountId, today)));
  });

  r.post('/export-links', describe({ tag: 'Reports', summary: 'A five-minute download link to a CSV export (the page downloads through it, as a plain navigation cannot send the bearer header; ends when the account signs out everywhere)', body: exportLinkInput, response: { status: 200, schema: exportLinkResponse } }), auth, async (c) => {
    const body = await parseBody(c, exportLinkInput);
    let query: Record<string, string>;
    if (body.kind === 'gst-csv') {
      const q = parseWith(gstReportQuery, { start_date: body.start_date, end_date: body.end_date, basis: body.basis, debit_adjustments: body.debit_adjustments, credit_adjustments: body.credit_adjustments });
      query = {
        start_date: q.start_date, end_date: q.end_date, basis: q.basis,
        ...(q.debitCents === 0n ? {} : { debit_adjustments: centsToString(q.debitCents) }),
        ...(q.creditCents === 0n ? {} : { credit_adjustments: centsToString(q.creditCents) }),
      };
    } else if (body.kind === 'profit-csv') {
      const q = parseWith(profitReportQuery, { start_date: body.start_date, end_date: body.end_date, group: body.group });
      query = { start_date: q.start_date, end_date: q.end_date, group: q.group };
    } else {
      query = { year: String(parseWith(annualReportQuery, { year: body.year }).year) };
    }
    const link = await issueExportLink(deps.store.db, body.kind, c.get('accountId'), query, deps.clock.now());
    return c.json({ url: link.url, expires_at: link.expiresAt.toISOString() });
  });

  r.get('/export/gst-csv', describe({ tag: 'Reports', summary: 'GST report as CSV (bearer token or download link)', query: gstReportQuery, response: { status: 200, contentType: 'text/csv', description: 'RFC 4180 CSV, one row per invoice and the totals' }, errors: [403, 410] }), linkOrBearer(deps, 'gst-csv'), async (c) => {
    const q = parseQuery(c, gstReportQuery);
    const range = { start: q.start_date, end: q.end_date };
    const purchases = await purchasesFor(sql, c.get('accountId'), range, q.basis, q.creditCents);
    const csv = q.basis === 'invoice'
      ? gstInvoiceCsv(await invoicesSuppliedIn(sql, c.get('accountId'), range), purchases, q.debitCents)
      : gstPaymentsCsv(await paymentsReceivedIn(sql, c.get('accountId'), range), purchases, q.debitCents);
    // Exported for the accountant: an invoice issued from now on that counts in this range is carried (gstExports.ts).
    if (q.basis === 'invoice') await recordGstExport(sql, c.get('accountId'), 'gst-csv', range, deps.clock.now());
    return csvResponse(csv, gstCsvFileName(range, q.basis));
  });

  r.get('/export/annual-csv', describe({ tag: 'Reports', summary: 'Annual summary as CSV (bearer token or download link)', query: annualReportQuery, response: { status: 200, contentType: 'text/csv', description: 'RFC 4180 CSV' }, errors: [403, 410] }), linkOrBearer(deps, 'annual-csv'), async (c) => {
    const q = parseQuery(c, annualReportQuery);
    const range = taxYearRange(q.year);
    const [lines, refunded] = await Promise.all([invoicesIssuedIn(sql, c.get('accountId'), range), refundedIn(sql, c.get('accountId'), range)]);
    return csvResponse(annualCsv(lines, refunded), annualCsvFileName(q.year));
  });

  r.get('/export/profit-csv', describe({ tag: 'Reports', summary: 'Profit report as CSV (bearer token or download link)', query: profitReportQuery, response: { status: 200, contentType: 'text/csv', description: 'RFC 4180 CSV: a row per period, client and category, then the total' }, errors: [403, 410] }), linkOrBearer(deps, 'profit-csv'), async (c) => {
    const q = parseQuery(c, profitReportQuery);
    const range = { start: q.start_date, end: q.end_date };
    const accountId = c.get('accountId');
    return csvResponse(profitCsv(await profitNamed(sql, accountId, await profitReportOf(deps.store, accountId, range, q.group))), profitCsvFileName(range));
  });

  r.post(
    '/accountant-export-links',
    describe({ tag: 'Reports', summary: "A five-minute download link to the accountant's ZIP (for starting the download in the browser)", body: accountantExportQuery, response: { status: 200, schema: exportLinkResponse } }),
    auth,
    async (c) => {
      const q = await parseBody(c, accountantExportQuery);
      const link = await issueExportLink(deps.store.db, 'accountant-zip', c.get('accountId'), { start_date: q.start_date, end_date: q.end_date, basis: q.basis }, deps.clock.now());
      return c.json({ url: link.url, expires_at: link.expiresAt.toISOString() });
    },
  );

  r.get(
    '/export/accountant-zip',
    describe({
      tag: 'Reports',
      summary: "Export for my accountant: one ZIP of the period's invoices, payments, clients, GST report, annual summary, profit report and invoice PDFs (bearer token or download link)",
      query: accountantExportQuery,
      response: { status: 200, contentType: 'application/zip', description: 'A ZIP: README.txt, invoices.csv, payments.csv, clients.csv, gst-report.csv, annual-summary.csv, profit-report.csv, pdfs/<reference>.pdf' },
      errors: [403, 410, 503],
    }),
    linkOrBearer(deps, 'accountant-zip'),
    async (c) => {
      const q = parseQuery(c, accountantExportQuery);
      const range = { start: q.start_date, end: q.end_date };
      const zip = await accountantExport(deps, { accountId: c.get('accountId'), range, basis: q.basis });
      if (q.basis === 'invoice') await recordGstExport(sql, c.get('accountId'), 'accountant-zip', range, deps.clock.now());
      return attachment(zip.body, 'application/zip', zip.fileName);
    },
  );

  return r;
}
