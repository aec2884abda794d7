// Download my data on PGlite: GET /account/export/zip is a ZIP a tradie can open — every quote and
// invoice as a PDF, the accountant's CSVs, the complete JSON export (byte for byte GET /account/export)
// and a README — for the signed-in account only, counted per account, and refused to a guest.
import { unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { DATA_ZIP_LIMIT, DATA_ZIP_MESSAGES } from '../../src/account/dataZip.ts';
import { checkExportSignature } from '../../src/account/export.ts';
import { makeFixtures } from '../reliability/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';

const t = useTestApp();
const day = () => t.clock.now().toISOString().slice(0, 10);

/** The ZIP as bytes (the test client reads answers as text). */
async function download(bearer?: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await t.app.request('/api/v1/account/export/zip', { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('GET /account/export/zip', () => {
  it("holds the account's documents as PDFs, the accountant's CSVs, the full JSON and a README, and only this account's", async () => {
    const a = await makeFixtures(t, 'Mere Parata', 'Kōwhai Builders');
    const other = await makeFixtures(t, 'Hemi Walker', 'Tōtara Roofing');

    const res = await download(a.user.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="tradie-my-data-${day()}.zip"`);
    const zip = unzipSync(res.bytes);
    const names = Object.keys(zip);

    // The PDFs: one per quote and invoice the account has (drafts and the void included), each a PDF.
    const listed = await t.get('/invoices?limit=100', a.user.token);
    const refs = (listed.json as { reference: string }[]).map((d) => d.reference);
    expect(refs.length).toBe(4);
    const pdfs = names.filter((n) => n.startsWith('documents/'));
    expect(pdfs.sort()).toEqual(refs.map((r) => `documents/${r.replace(/[^\w.-]+/g, '_') || 'document'}.pdf`).sort());
    for (const p of pdfs) expect(new TextDecoder().decode(zip[p]!.slice(0, 5))).toBe('%PDF-');

    // The accountant's files, as the accountant's export writes them.
    for (const f of ['README.txt', 'invoices.csv', 'payments.csv', 'clients.csv', 'gst-report.csv', 'annual-summary.csv', 'profit-report.csv']) expect(names).toContain(`accountant/${f}`);
    const clients = parse(Buffer.from(zip['accountant/clients.csv']!), { bom: true }) as string[][];
    expect(clients.slice(1).map((r) => r[0])).toEqual(['Kōwhai Builders']);
    const payments = parse(Buffer.from(zip['accountant/payments.csv']!), { bom: true }) as string[][];
    expect(payments.slice(1).map((r) => r[3])).toEqual(['100.00']);

    // The complete export for a restore: the same bytes as GET /account/export, signed.
    const json = await t.get('/account/export', a.user.token);
    const inZip = new TextDecoder().decode(zip[`tradie-export-${day()}.json`]!);
    expect(inZip).toBe(json.text);
    expect(checkExportSignature(JSON.parse(inZip) as Record<string, unknown>, t.deps.secrets.exportKey)).toBe('signed');

    // The README says what each part is, in plain words.
    const readme = new TextDecoder().decode(zip['README.txt']!);
    expect(readme).toContain('documents/ (4 files)');
    expect(readme).toContain('accountant/');
    expect(readme).toContain(`tradie-export-${day()}.json`);
    expect(readme).not.toMatch(/npm|import/);

    // Nothing of the other account's.
    const text = Object.values(zip).map((b) => Buffer.from(b).toString('latin1')).join('\n');
    expect(text).not.toContain('Tōtara Roofing');
    expect(text).not.toContain(other.user.email);

    const [audit] = await t.deps.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE account_id = $1 AND kind = 'data_exported'", [a.user.userId]);
    expect(audit?.n).toBeGreaterThanOrEqual(1);
  });

  it('an empty account gets a ZIP too; a guest gets 401', async () => {
    const u = await signUp(t, 'Hine Walker');
    const res = await download(u.token);
    expect(res.status).toBe(200);
    const names = Object.keys(unzipSync(res.bytes));
    expect(names.filter((n) => n.startsWith('documents/'))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['README.txt', `tradie-export-${day()}.json`, 'accountant/invoices.csv']));
    expect((await t.get('/account/export/zip')).status).toBe(401);
  });

  it(`is counted per account: past ${DATA_ZIP_LIMIT.max} an hour a 429 says when to try again, and another account is not held back`, async () => {
    const u = await signUp(t, 'Rawiri Nikora');
    const v = await signUp(t, 'Anahera Smith');
    for (let i = 0; i < DATA_ZIP_LIMIT.max; i++) expect((await download(u.token)).status).toBe(200);
    const refused = await t.get('/account/export/zip', u.token);
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toBe(DATA_ZIP_MESSAGES.rateLimited);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await download(v.token)).status).toBe(200);
  });
});
