// The credit note's PDF read back with pdftotext: the title, the supply correction information
// (supplier's name and GST number, the date issued, the invoice it corrects, the recipient) and
// the correction with its GST, worked by hand: line 1 of the invoice, 1 × $180.00 + GST 15% =
// $27.00, total $207.00.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchBusiness } from '../src/bench.ts';
import { creditNoteDefinition, renderCreditNotePdf } from '../src/creditNote.ts';
import { invoice, run, draft } from './fixtures.ts';
import { pngLogo } from './images.ts';
import { pdfInfo, pdfText } from './poppler.ts';

const supplier = { name: benchBusiness.business_name, gstNumber: '49091850' };

function credited() {
  const { view } = run([
    draft(),
    { type: 'MarkIssued' },
    { type: 'IssueCreditNote', data: { creditNoteId: 'cn1', number: 1, reference: 'CN-0001', date: '2026-07-15', reason: 'Valve supplied by the client', supplier, credit: { kind: 'lines', lines: [{ lineIndex: 0 }] } } },
  ]);
  return { invoice: view, creditNote: view.creditNotes[0]! };
}

describe('the credit note PDF', () => {
  it('is pure: the same input, the same definition', () => {
    const c = credited();
    expect(creditNoteDefinition({ ...c, today: '2026-07-15' })).toEqual(creditNoteDefinition({ ...c, today: '2026-07-15' }));
    expect(() => creditNoteDefinition({ ...c, today: '15/07/2026' })).toThrow(RangeError);
    expect(invoice().creditNotes).toEqual([]);
  });

  it('prints the title, the supply correction information and the correction with its GST', async () => {
    const pdf = await renderCreditNotePdf({ ...credited(), today: '2026-07-15' });
    const text = pdfText(pdf).replace(/[ \t]+/g, ' ');
    expect(text).toContain('Credit note');
    expect(text).toContain('CN-0001');
    expect(text).toContain(supplier.name);
    expect(text).toContain('GST number: 49-091-850');
    expect(text).toContain('Date issued: 15/07/2026');
    expect(text).toContain('Credits invoice: INV-0001');
    expect(text).toContain('Ōtāhuhu Builders');
    expect(text).toContain('Reason: Valve supplied by the client');
    expect(text).toMatch(/Replace hot water cylinder valve.*\(invoice line 1\)/);
    expect(text).toMatch(/Credit excl\. GST \$180\.00/);
    expect(text).toMatch(/GST credited \$27\.00/);
    expect(text).toMatch(/Total credit incl\. GST \$207\.00/);
    expect(pdfInfo(pdf).Title).toBe('Credit note CN-0001');
  });

  it("carries the business's logo, address and contact details as its invoices do, under the name it was issued with", async () => {
    const pdf = await renderCreditNotePdf({ ...credited(), today: '2026-07-15', business: benchBusiness, logo: { bytes: pngLogo(), kind: 'png' } });
    const text = pdfText(pdf).replace(/[ \t]+/g, ' ');
    expect(text).toContain(supplier.name);
    expect(text).toContain('12 Kahikatea Drive');
    expect(text).toContain('Whangārei 0110');
    expect(text).toContain('accounts@kowhaiplumbing.co.nz');
    const dir = mkdtempSync(join(tmpdir(), 'tradie-cn-'));
    try {
      writeFileSync(join(dir, 'cn.pdf'), pdf);
      expect(execFileSync('pdfimages', ['-list', join(dir, 'cn.pdf')], { encoding: 'utf8' })).toMatch(/^\s*1\s+0\s+image\s+300\s+100\s+rgb/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the credited lines without GST, adding up to the credit excl. GST printed under them', async () => {
    const text = pdfText(await renderCreditNotePdf({ ...credited(), today: '2026-07-15' })).replace(/[ \t]+/g, ' ');
    expect(text).toContain('Amount excl. GST');
    expect(text).toMatch(/\(invoice line 1\) 1 \$180\.00 \$180\.00/);
  });
});

