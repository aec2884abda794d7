// The document definition without rendering: the title rule, what the figures are built from,
// determinism, and the SVG logo's sandbox.
import { documentTotals, formatNzd } from '@tradie/domain';
import { describe, expect, it } from 'vitest';
import { documentDefinition, documentTitle } from '../src/definition.ts';
import { formatGstNumber, formatQty, formatUnitPrice } from '../src/format.ts';
import { business, invoice, quote, unregistered } from './fixtures.ts';
import { pngLogo, svgLogo } from './images.ts';

/** Every string in a definition (functions such as header/footer are left out). */
function strings(x: unknown): string[] {
  if (typeof x === 'string') return [x];
  if (Array.isArray(x)) return x.flatMap(strings);
  if (x && typeof x === 'object') return Object.values(x).flatMap(strings);
  return [];
}

describe('the title (a registered business issues taxable supply information)', () => {
  it('Tax Invoice with a GST number, Invoice without, Quote for quotes', () => {
    expect(documentTitle(invoice(), business)).toBe('Tax Invoice');
    expect(documentTitle(invoice(), unregistered)).toBe('Invoice');
    expect(documentTitle(invoice(), { ...business, gst_number: '   ' })).toBe('Invoice');
    expect(documentTitle(quote(), business)).toBe('Quote');
    expect(documentTitle(quote(), unregistered)).toBe('Quote');
  });
});

describe('documentDefinition', () => {
  it('prints the totals exactly as the domain formats them', () => {
    const d = invoice();
    const t = documentTotals(d.lines, d.gstRounding);
    const text = strings(documentDefinition({ document: d, business, today: '2026-05-05' }).content);
    expect(text).toContain(formatNzd(t.subtotalCents));
    expect(text).toContain(formatNzd(t.gstCents));
    expect(text).toContain(formatNzd(t.totalCents));
    expect(text).toContain('Subtotal (excl. GST)');
    expect(text).toContain('Total (incl. GST)');
  });

  it('is the same for the same input, and dated by `today`', () => {
    const input = { document: invoice(), business, logo: { bytes: pngLogo(), kind: 'png' as const }, today: '2026-05-05' };
    const a = documentDefinition(input);
    const b = documentDefinition(input);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.info?.creationDate?.toISOString()).toBe('2026-05-05T00:00:00.000Z');
    expect(a.info?.title).toBe('Tax Invoice INV-0001');
    expect(a.images?.logo).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  });

  it('refuses a today that is not a calendar day', () => {
    expect(() => documentDefinition({ document: invoice(), business, today: '2026-02-30' })).toThrow(RangeError);
    expect(() => documentDefinition({ document: invoice(), business, today: '' })).toThrow(/YYYY-MM-DD/);
  });

  it('an SVG logo may only pull in inline images', () => {
    const def = documentDefinition({ document: invoice(), business, logo: { bytes: svgLogo(), kind: 'svg' }, today: '2026-05-05' });
    const header = def.content as { columns: { stack: { svg?: string; options?: { imageCallback(link: string): string } }[] }[] }[];
    const node = header[0]?.columns[0]?.stack[0];
    expect(node?.svg).toContain('<svg');
    const cb = node?.options?.imageCallback;
    expect(cb?.('/etc/passwd')).toBe('');
    expect(cb?.('https://example.com/x.png')).toBe('');
    expect(cb?.('file:///etc/hostname')).toBe('');
    expect(cb?.('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });

  it('a void document carries a VOID watermark', () => {
    const d = invoice({}, { type: 'VoidDocument', data: { reason: 'Wrong client' } });
    expect(documentDefinition({ document: d, business, today: '2026-05-05' }).watermark).toMatchObject({ text: 'VOID' });
    expect(documentDefinition({ document: invoice(), business, today: '2026-05-05' }).watermark).toBeUndefined();
  });
});

describe('figures as text', () => {
  it('unit prices: whole cents with two decimals, finer prices with all four (never three)', () => {
    expect(formatUnitPrice('90')).toBe('$90.00');
    expect(formatUnitPrice('1234.5')).toBe('$1,234.50');
    expect(formatUnitPrice('0.1234')).toBe('$0.1234');
    expect(formatUnitPrice('12345.678')).toBe('$12,345.6780');
  });

  it('quantities as written, grouped', () => {
    expect(formatQty('2.5')).toBe('2.5');
    expect(formatQty('1000')).toBe('1,000');
    expect(formatQty('1000.125')).toBe('1,000.125');
  });

  it('GST numbers in IRD form when they check out, else as typed', () => {
    expect(formatGstNumber('49091850')).toBe('49-091-850');
    expect(formatGstNumber('123')).toBe('123');
  });
});
