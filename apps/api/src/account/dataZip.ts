// 'Download my data' as something a tradie can open: one ZIP holding
//
//   README.txt              what each part is, in plain words
//   documents/              the PDF of every quote and invoice (as the app makes it today) and of every
//                           credit note (as issued), named by its number: Q-0001.pdf, INV-0001.pdf, CN-0001.pdf
//   accountant/             the accountant's export (reports/accountantExport.ts) over the whole history:
//                           invoices, payments, clients, GST report, annual summary and profit report as
//                           CSV, with its own README
//   tradie-export-….json    the complete signed account export (export.ts), byte for byte the file
//                           GET /account/export gives: what the account is restored from
//
// Nothing is computed here: each part is made by the code that makes it elsewhere. Bounded as the
// accountant's export is (it shares its ACCOUNTANT_EXPORTS_AT_ONCE slots: a 503 when they are
// taken), and counted per account (DATA_ZIP_LIMIT, a 429). At most DATA_ZIP_MAX_PDFS documents are
// drawn, one at a time as the download takes the bytes before them; past that the README says how
// to get the rest. The JSON is held in memory while it is added (it is the account, logo included).
import { nzDateOf, formatNzDateLong, type DateRange, type LocalDate } from '@tradie/domain';
import type { AppDeps } from '../deps.ts';
import { pdfFileName, pdfFileOf } from '../documents/pdf.ts';
import { accountantFiles, creditNotePdfBytes, takeExportSlot, zipStream, type PdfJob, type ZipEntry } from '../reports/accountantExport.ts';
import { loadBusinessSettings } from '../settings/repository.ts';
import { enforce, type Limit } from '../security/rateLimit.ts';
import { exportFileName, streamAccountExport } from './export.ts';

/** The most PDFs one download draws (each is rendered, or read from the PDF cache). */
export const DATA_ZIP_MAX_PDFS = 1000;
/** Downloads of the whole account per account in an hour: each one draws every PDF. */
export const DATA_ZIP_LIMIT: Limit = { name: 'data-zip:account', max: 6, windowSeconds: 3600 };
export const DATA_ZIP_MESSAGES = {
  rateLimited: 'You have downloaded your data several times in the last hour. Please try again in an hour.',
} as const;

export const dataZipFileName = (now: Date): string => `tradie-my-data-${now.toISOString().slice(0, 10)}.zip`;

/** Every quote and invoice (not deleted), oldest first, then every credit note. */
async function documentJobs(deps: Pick<AppDeps, 'store'>, accountId: string): Promise<{ jobs: PdfJob[]; first: LocalDate | null }> {
  const docs = await deps.store.db.query<{ id: string; reference: string; issue_date: string }>(
    `SELECT id, reference, to_char(issue_date, 'YYYY-MM-DD') AS issue_date FROM documents_list WHERE account_id = $1 ORDER BY seq`,
    [accountId],
  );
  const credits = await deps.store.db.query<{ document_id: string; credit_note_id: string; reference: string }>(
    `SELECT document_id, credit_note_id, reference FROM report_credits WHERE account_id = $1 ORDER BY date, reference COLLATE "C", credit_note_id`,
    [accountId],
  );
  const first = docs.reduce<string | null>((a, d) => (a === null || d.issue_date < a ? d.issue_date : a), null);
  return {
    first: first as LocalDate | null,
    jobs: [
      ...docs.map((d): PdfJob => ({ kind: 'document', documentId: d.id, reference: d.reference })),
      ...credits.map((c): PdfJob => ({ kind: 'credit', documentId: c.document_id, creditNoteId: c.credit_note_id, reference: c.reference })),
    ],
  };
}

export interface DataReadmeFacts {
  businessName: string;
  madeOn: LocalDate;
  jsonName: string;
  documents: number;
  /** Documents left out past DATA_ZIP_MAX_PDFS. */
  leftOut: number;
  range: DateRange;
}

/** README.txt at the top of the ZIP. CRLF, so Notepad shows it as lines. */
export function dataReadmeText(f: DataReadmeFacts): string {
  return [
    `Your data from Tradie Quotes${f.businessName ? ` - ${f.businessName}` : ''}`,
    `Made on ${formatNzDateLong(f.madeOn)}.`,
    '',
    `documents/ (${f.documents} files) - the PDF of each of your quotes and invoices as the app shows it today,`,
    '  and of each credit note as it was issued, named by its number (Q-0001.pdf, INV-0001.pdf, CN-0001.pdf).',
    ...(f.leftOut > 0
      ? [`  Only the first ${f.documents} are here (${f.leftOut} more): open the rest in the app, or use`, '  Reports > Export for my accountant a year at a time.']
      : []),
    '',
    `accountant/ - the export for your accountant over everything from ${formatNzDateLong(f.range.start)} to ${formatNzDateLong(f.range.end)}:`,
    '  your invoices, payments and clients, the GST report, the annual summary and the profit report as',
    '  spreadsheets (CSV files open in Excel, Numbers or Google Sheets). Its own README.txt explains each column.',
    '',
    `${f.jsonName} - everything your account holds, in full: every client, quote, invoice and payment as`,
    '  it happened, your business settings and logo. It is for bringing your account back, not for reading:',
    '  keep it as it is, because a changed file can no longer be used to restore your account.',
    '',
    'New Zealand asks businesses to keep their records for 7 years: keep this ZIP with them.',
    '',
  ].join('\r\n');
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/**
 * The ZIP for the signed-in account, or null when the account is gone. Counts the download against
 * DATA_ZIP_LIMIT and takes an export slot before any work; the slot is let go when the stream ends.
 */
export async function dataZip(
  deps: Pick<AppDeps, 'store' | 'clock' | 'renderPdf' | 'config' | 'log' | 'secrets'>,
  accountId: string,
): Promise<{ fileName: string; body: ReadableStream<Uint8Array> } | null> {
  const now = deps.clock.now();
  await enforce(deps.store.db, DATA_ZIP_LIMIT, accountId, now, DATA_ZIP_MESSAGES.rateLimited);
  const release = takeExportSlot(deps);
  try {
    const chunks = await streamAccountExport(deps.store, accountId, now, deps.secrets.exportKey);
    if (!chunks) {
      release();
      return null;
    }
    let json = '';
    for await (const chunk of chunks) json += chunk;
    const today = nzDateOf(now);
    const { jobs, first } = await documentJobs(deps, accountId);
    const range: DateRange = { start: first !== null && first < today ? first : today, end: today };
    const accountant = await accountantFiles(deps, { accountId, range, basis: 'invoice' }, false);
    const business = await loadBusinessSettings(deps.store.db, accountId);
    const drawn = jobs.slice(0, DATA_ZIP_MAX_PDFS);
    const jsonName = exportFileName(now);
    const readme: ZipEntry = {
      name: 'README.txt',
      deflate: true,
      bytes: utf8(dataReadmeText({ businessName: business.business_name, madeOn: today, jsonName, documents: drawn.length, leftOut: jobs.length - drawn.length, range })),
    };
    async function* files(): AsyncGenerator<ZipEntry> {
      yield readme;
      yield { name: jsonName, deflate: true, bytes: utf8(json) };
      for (const f of accountant.csvFiles) yield { ...f, name: `accountant/${f.name}` };
      const names = new Set<string>();
      for (const job of drawn) {
        let bytes: Buffer;
        try {
          bytes = job.kind === 'credit'
            ? await creditNotePdfBytes(deps, accountId, job.documentId, job.creditNoteId)
            : (await pdfFileOf(deps, accountId, job.documentId)).bytes;
        } catch (e) {
          deps.log('error', 'a download of my data stopped: a PDF could not be made', {
            documentId: job.documentId, ...(job.kind === 'credit' ? { creditNoteId: job.creditNoteId } : {}), error: e instanceof Error ? e.message : String(e),
          });
          throw e;
        }
        let name = `documents/${pdfFileName({ reference: job.reference })}`;
        for (let i = 2; names.has(name); i++) name = name.replace(/(?:-\d+)?\.pdf$/, `-${i}.pdf`);
        names.add(name);
        yield { name, deflate: false, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
      }
    }
    return { fileName: dataZipFileName(now), body: zipStream(files(), now, release) };
  } catch (e) {
    release();
    throw e;
  }
}
