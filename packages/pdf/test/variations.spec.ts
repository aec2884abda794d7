// A varied quote's PDF, read back with pdftotext: the quote as the client accepted it, unchanged,
// then each variation on its own with where it stands, the quote and its approved variations added
// up, and a certificate for a variation the client approved through the link.
import { linesSchema } from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { documentDefinition } from '../src/definition.ts';
import { renderDocumentPdf } from '../src/render.ts';
import { business, quote } from './fixtures.ts';
import { pdfText } from './poppler.ts';

const TODAY = '2026-05-05';
const lines = (description: string, qty: number, unit_price: string) => linesSchema.parse([{ description, qty, unit_price }]);
const answer = { linkId: 'l1', ip: '203.0.113.7', userAgent: 'Phone' };

/** QTE-0007 (three lines, $300.15 + GST), accepted, with a variation approved by the client, one waiting and one declined. */
const varied = () =>
  quote(
    {},
    { type: 'IssueClientLink', data: { linkId: 'l1', expiresOn: '2026-06-04' } },
    { type: 'AcceptQuote' },
    { type: 'ProposeVariation', data: { variationId: 'v1', lines: lines('Extra downpipe', 1, '104.35'), note: 'The old downpipe is cracked' } },
    { type: 'AcceptVariationByClient', data: { ...answer, variationId: 'v1', shownSha256: 'c'.repeat(64), signerName: 'Jo Bloggs', signatureSha256: null } },
    { type: 'ProposeVariation', data: { variationId: 'v2', lines: lines('Gutter guard', 20, '12.50'), note: '' } },
    { type: 'ProposeVariation', data: { variationId: 'v3', lines: lines('Paint the fascia', 1, '300'), note: '' } },
    { type: 'DeclineVariation', data: { variationId: 'v3' } },
  );

describe("a varied quote's PDF", () => {
  it('prints the quote as accepted, then each variation with where it stands, and what is agreed in all', async () => {
    const d = varied();
    const signed = quote({}, { type: 'AcceptQuote' });
    const text = pdfText(await renderDocumentPdf({ document: d, business, today: TODAY })).replace(/\s+/g, ' ');
    const plain = pdfText(await renderDocumentPdf({ document: signed, business, today: TODAY })).replace(/\s+/g, ' ');
    // The quote as accepted is printed as it was: everything before the variations is the same text.
    const head = text.slice(0, text.indexOf('Variations Each variation')).trim();
    expect(head).toContain('Total (incl. GST)');
    expect(plain.startsWith(head)).toBe(true);
    for (const s of [
      'Variation 1 — Approved $120.00',
      'Approved by Jo Bloggs on 05/05/2026',
      'The old downpipe is cracked',
      'Extra downpipe 1 $104.35 $104.35',
      'Total (incl. $15.65 GST) $120.00',
      // 20 × $12.50 = $250.00 + GST $37.50 = $287.50.
      'Variation 2 — Awaiting approval $287.50',
      "Awaiting the client's approval: it is not part of what is agreed until they approve it",
      // $300 + GST = $345.00.
      'Variation 3 — Declined $345.00',
      'Declined on 05/05/2026',
      'Approved variations $120.00',
      "$287.50 of variations is awaiting the client's approval and is not part of what is agreed.",
    ]) {
      expect(text).toContain(s);
    }
  });

  it("adds a certificate for a variation the client approved, after the quote's", async () => {
    const d = varied();
    const certificate = { signerName: 'Jo Bloggs', acceptedAt: '2026-05-04T22:15:00.000Z', documentVersion: 1, shownSha256: 'c'.repeat(64), termsAccepted: false, terms: null, ip: '203.0.113.7', userAgent: 'Phone', signaturePng: null };
    const text = pdfText(await renderDocumentPdf({ document: d, business, today: TODAY, variationAcceptances: [{ ...certificate, variation: 'Variation 1' }] })).replace(/\s+/g, ' ');
    expect(text).toContain('Acceptance certificate: Variation 1');
    expect(text).toContain('Variation 1 to this quote was approved online through the link the business sent.');
    expect(text).toContain('Approved by Jo Bloggs Approved at 5 May 2026, 10:15 am NZST Variation Variation 1 to quote QTE-0007');
    expect(text).toContain('Not signed: approved with the typed name above.');
  });

  it('a quote without variations has no such section', () => {
    expect(JSON.stringify(documentDefinition({ document: quote(), business, today: TODAY }))).not.toContain('Variations');
  });
});
