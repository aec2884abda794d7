import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentDecider, foldDocument, invoiceDraftFromQuote, type DocumentView, type DraftInput } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { JOB_LIMITS, jobDetails, normaliseSiteAddress, siteAddressLines } from './jobDetails.ts';
import { linesSchema } from './lines.ts';
import { siteOnOneLine } from './paymentClaims.ts';
import { specFor } from '../../test/specification.ts';

const given = specFor(documentDecider);
const lines = linesSchema.parse([{ description: 'Rinnai Infinity 26', qty: 1, unit_price: 1812.5 }]);
const draftInput = (over: Partial<DraftInput> = {}): DraftInput => ({
  documentId: 'q1', type: 'quote', number: 1, reference: 'QTE-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days', ...over,
});
const decide = (over: Partial<DraftInput> = {}): DocumentEvent[] => documentDecider.decide({ type: 'DraftDocument', data: draftInput(over) }, { status: 'none' });

describe('job title and site address', () => {
  it('are saved with the draft, the address one line a line, its blank lines and trailing commas dropped', () => {
    const [e] = decide({ jobTitle: '  New   hot water cylinder ', siteAddress: '48 Rata Road,\r\n\r\n  Hillcrest  \nHamilton 3216\n' });
    expect(e).toMatchObject({ type: 'DocumentDrafted', data: { jobTitle: 'New hot water cylinder', siteAddress: '48 Rata Road\nHillcrest\nHamilton 3216' } });
    const view = foldDocument([e!]) as DocumentView;
    expect(siteAddressLines(view.siteAddress)).toEqual(['48 Rata Road', 'Hillcrest', 'Hamilton 3216']);
    expect(siteOnOneLine(view.siteAddress)).toBe('48 Rata Road, Hillcrest, Hamilton 3216');
  });

  it('are none when left out', () => {
    expect(decide()[0]).toMatchObject({ data: { jobTitle: '', siteAddress: '' } });
  });

  it('refuses a job title or site address too long, or an address of too many lines', () => {
    given().when({ type: 'DraftDocument', data: draftInput({ jobTitle: 'x'.repeat(JOB_LIMITS.jobTitle + 1) }) }).thenThrows('VALIDATION', /job title can be at most 200/);
    given().when({ type: 'DraftDocument', data: draftInput({ siteAddress: 'y'.repeat(JOB_LIMITS.siteAddress + 1) }) }).thenThrows('VALIDATION', /site address can be at most 1,000/);
    given().when({ type: 'DraftDocument', data: draftInput({ siteAddress: Array.from({ length: 9 }, (_, i) => `line ${i}`).join('\n') }) }).thenThrows('VALIDATION', /at most 8 lines/);
  });

  it('a revision sets them; the invoice a quote becomes keeps them', () => {
    const events = decide({ jobTitle: 'Cylinder', siteAddress: '1 Kauri St' });
    const revised = documentDecider.decide({ type: 'ReviseDocument', data: { client: null, lines, issueDate: '2026-05-04', paymentTerms: '7 days', jobTitle: 'Cylinder and valves', siteAddress: '2 Kauri St\nTaupō' } }, foldDocument(events));
    const quote = foldDocument([...events, ...revised]) as DocumentView;
    expect([quote.jobTitle, quote.siteAddress]).toEqual(['Cylinder and valves', '2 Kauri St\nTaupō']);
    const invoice = invoiceDraftFromQuote(quote, { invoiceId: 'i1', number: 1, reference: 'INV-0001', issueDate: '2026-05-10' });
    expect([invoice.jobTitle, invoice.siteAddress]).toEqual(['Cylinder and valves', '2 Kauri St\nTaupō']);
  });

  it('property: a site address as stored is stored the same again, and its lines are never run together', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9 ,'-]{0,20}$/);
    fc.assert(fc.property(fc.array(part, { maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r'), (parts, eol) => {
      const stored = normaliseSiteAddress(parts.join(eol));
      expect(normaliseSiteAddress(stored)).toBe(stored);
      const kept = parts.map((p) => p.trim().replace(/[\s,]+$/, '')).filter((p) => p !== '');
      for (const l of siteAddressLines(stored)) expect(l).not.toMatch(/,$|^\s|\s$/);
      expect(siteAddressLines(stored)).toEqual(kept);
      expect(jobDetails({ siteAddress: parts.join(eol) }).siteAddress).toBe(stored);
    }));
  });
});
