import { describe, expect, it } from 'vitest';
import { normalisePath, publicPageFor, publicPages } from './pages.ts';
import { formatNzToday, isoNzDate } from './dates.ts';

describe('public page table', () => {
  it('treats a trailing slash as the same page', () => {
    expect(normalisePath('/features/')).toBe('/features');
    expect(normalisePath('/')).toBe('/');
    expect(normalisePath('')).toBe('/');
    expect(publicPageFor('/pricing/')?.path).toBe('/pricing');
    expect(publicPageFor('/app/home')).toBeUndefined();
  });

  it('gives every page its own title and a description of useful length', () => {
    expect(new Set(publicPages.map((p) => p.title)).size).toBe(publicPages.length);
    expect(new Set(publicPages.map((p) => p.description)).size).toBe(publicPages.length);
    for (const page of publicPages) {
      expect(page.title).toContain('Tradie Quotes');
      expect(page.description.length).toBeGreaterThan(80);
      expect(page.description.length).toBeLessThanOrEqual(220);
    }
  });
});

describe('NZ dates', () => {
  it('formats the New Zealand calendar day, day first', () => {
    // 23:30 UTC on 31 March is already 1 April in New Zealand (NZDT, UTC+13).
    const lateMarch = new Date('2026-03-31T23:30:00Z');
    expect(formatNzToday(lateMarch)).toBe('1/04/2026');
    expect(isoNzDate(lateMarch)).toBe('2026-04-01');
    expect(formatNzToday(new Date('2026-11-23T02:00:00Z'))).toBe('23/11/2026');
  });
});
