// The acceptance certificate added to an accepted quote's PDF on the client's link, read back with
// pdftotext: the signer, the time in New Zealand, the version, the hash of what was shown, the
// address and browser, on a page of its own after the quote.
import { describe, expect, it } from 'vitest';
import { acceptanceContent, nzDateTime } from '../src/acceptance.ts';
import { documentDefinition } from '../src/definition.ts';
import { renderDocumentPdf } from '../src/render.ts';
import type { PdfAcceptance } from '../src/types.ts';
import { business, quote } from './fixtures.ts';
import { pngLogo } from './images.ts';
import { pdfPages } from './poppler.ts';

const TODAY = '2026-05-05';
const acceptance = (over: Partial<PdfAcceptance> = {}): PdfAcceptance => ({
  signerName: 'Jo Bloggs',
  acceptedAt: '2026-05-04T22:15:00.000Z',
  documentVersion: 3,
  shownSha256: 'a'.repeat(64),
  termsAccepted: true,
  terms: null,
  ip: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (iPhone)',
  signaturePng: null,
  ...over,
});

describe('the acceptance certificate', () => {
  it('reads the time in New Zealand (NZST in winter, NZDT in summer)', () => {
    expect(nzDateTime('2026-05-04T22:15:00.000Z')).toBe('5 May 2026, 10:15 am NZST');
    expect(nzDateTime('2026-11-25T21:05:00.000Z')).toBe('26 November 2026, 10:05 am NZDT');
  });

  it('is pure: the same acceptance gives the same content, starting on a new page', () => {
    const a = acceptance();
    expect(acceptanceContent(a, 'QTE-0001')).toEqual(acceptanceContent(a, 'QTE-0001'));
    expect(acceptanceContent(a, 'QTE-0001')[0]).toMatchObject({ text: 'Acceptance certificate', pageBreak: 'before' });
  });

  it('is left out when the quote was not accepted online', () => {
    const d = quote();
    expect(JSON.stringify(documentDefinition({ document: d, business, today: TODAY }))).not.toContain('Acceptance certificate');
  });

  it('prints who, when, which version, the hash, the address and browser on its own last page', async () => {
    const d = quote();
    const pages = pdfPages(await renderDocumentPdf({ document: d, business, today: TODAY, acceptance: acceptance() }));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const last = pages[pages.length - 1]!.replace(/[ \t]+/g, ' ');
    expect(last).toContain('Acceptance certificate');
    expect(last).toContain('Jo Bloggs');
    expect(last).toContain('5 May 2026, 10:15 am NZST');
    expect(last).toContain(`${d.reference}, version 3`);
    expect(last).toContain('a'.repeat(64));
    expect(last).toContain('203.0.113.7');
    expect(last).toContain('Mozilla/5.0 (iPhone)');
    expect(last).toContain('Not signed');
    expect(pages[0]).not.toContain('Acceptance certificate');
  });

  it("quotes the business's terms in full, as they were accepted; older acceptances say the wording was not recorded", async () => {
    const terms = 'A 30% deposit is due before work starts.\nThe balance is due within 7 days of completion.';
    const withTerms = pdfPages(await renderDocumentPdf({ document: quote(), business, today: TODAY, acceptance: acceptance({ terms }) }));
    const last = withTerms[withTerms.length - 1]!.replace(/\s+/g, ' ');
    expect(last).toContain('Accepted, as follows:');
    expect(last).toContain('A 30% deposit is due before work starts. The balance is due within 7 days of completion.');
    expect(last).not.toMatch(/Terms Accepted IP/);
    const older = pdfPages(await renderDocumentPdf({ document: quote(), business, today: TODAY, acceptance: acceptance() }));
    expect(older[older.length - 1]!.replace(/\s+/g, ' ')).toContain('Accepted (the wording was not recorded at the time)');
    const none = pdfPages(await renderDocumentPdf({ document: quote(), business, today: TODAY, acceptance: acceptance({ terms: '', termsAccepted: false }) }));
    expect(none[none.length - 1]!.replace(/\s+/g, ' ')).toContain('None were set');
  });

  it("prints the business's terms in full on the quote, and never on an invoice", async () => {
    const terms = 'Prices hold for 30 days.\nA 30% deposit is due before work starts.';
    const text = pdfPages(await renderDocumentPdf({ document: quote(), business, today: TODAY, quoteTerms: terms })).join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Terms and conditions');
    expect(text).toContain('Prices hold for 30 days. A 30% deposit is due before work starts.');
    expect(JSON.stringify(documentDefinition({ document: { ...quote(), type: 'invoice' }, business, today: TODAY, quoteTerms: terms }))).not.toContain('Prices hold for 30 days');
  });

  it('draws the signature when there is one', async () => {
    const pdf = await renderDocumentPdf({ document: quote(), business, today: TODAY, acceptance: acceptance({ signaturePng: new Uint8Array(pngLogo()) }) });
    const pages = pdfPages(pdf);
    expect(pages[pages.length - 1]).toContain('Signature');
    expect(pages[pages.length - 1]).not.toContain('Not signed');
  });
});
