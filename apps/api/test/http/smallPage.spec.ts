import { describe, expect, it } from 'vitest';
import { cancelPage, confirmPage, resultPage } from '../../src/account/pages.ts';
import { escapeHtml, smallPage } from '../../src/http/smallPage.ts';
import { callbackPage } from '../../src/integrations/xero/pages.ts';

const hostile = `"><script>alert('x')</script>&`;

describe('the pages the API serves itself', () => {
  it('escapes the five characters that can break out of text or a quoted attribute', () => {
    expect(escapeHtml(`a&b<c>d"e'f`)).toBe('a&#38;b&#60;c&#62;d&#34;e&#39;f');
    expect(escapeHtml('Tēnā koe — $1,150.00')).toBe('Tēnā koe — $1,150.00');
  });

  it('a page is one HTML document in NZ English, its title escaped, no inline script', () => {
    const html = smallPage(hostile, '<p>Body</p>');
    expect(html).toMatch(/^<!doctype html>\n<html lang="en-NZ">/);
    expect(html).toContain('<title>&#34;&#62;&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;&#38;</title>');
    expect(html).not.toMatch(/<script>/);
  });

  it('what a person or a link put in a page is text there, never markup', () => {
    for (const html of [confirmPage(hostile), cancelPage(hostile), resultPage('failed', hostile, `https://app.example.nz${hostile}`), resultPage('not-cancelled', hostile, 'https://app.example.nz'), callbackPage(false, hostile)]) {
      expect(html).not.toContain(hostile);
      expect(html).not.toMatch(/<script>/);
      expect(html).toContain('&#60;script&#62;');
    }
    expect(callbackPage(true)).toContain('<script src="close.js"></script>');
    expect(callbackPage(true)).toContain('data-result="connected"');
    expect(resultPage('changed', 'Done', 'https://app.example.nz')).toContain('<a href="https://app.example.nz/login">');
  });
});
