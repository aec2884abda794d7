import { describe, expect, it } from 'vitest';
import { browserName, formatAuditTime, shownIp } from './security.ts';

describe('Settings → Security: how an entry is shown', () => {
  it('times are New Zealand time: the app date and a 12-hour clock', () => {
    // 21:30 UTC on 4 May is 9:30 am on 5 May in Auckland (NZST, +12).
    expect(formatAuditTime('2026-05-04T21:30:00.000Z')).toBe('05/05/2026, 9:30 am');
    // Daylight time (+13) in January; the afternoon.
    expect(formatAuditTime('2026-01-15T02:05:00.000Z')).toBe('15/01/2026, 3:05 pm');
    expect(formatAuditTime('not a time')).toBe('');
  });

  it('names the browser and the device from the User-Agent', () => {
    const cases: [string | null, string][] = [
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1', 'Safari on iPhone'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1', 'Chrome on iPhone'],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
      ['Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36', 'Samsung Internet on Android'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68', 'Edge on Windows'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox on Windows'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari on Mac'],
      ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36', 'Chrome on Linux'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0', 'Opera on Windows'],
      ['curl/8.5.0', 'curl'],
      ['Mozilla/5.0 (Linux; Android 14) SomethingNew/1.0', 'A browser on Android'],
      ['', 'Unknown browser'],
      [null, 'Unknown browser'],
    ];
    for (const [ua, name] of cases) expect(browserName(ua), String(ua)).toBe(name);
  });

  it("shows no address when the server couldn't tell", () => {
    expect(shownIp('203.0.113.9')).toBe('203.0.113.9');
    expect(shownIp('2001:db8::1')).toBe('2001:db8::1');
    expect(shownIp('unknown')).toBeNull();
    expect(shownIp(null)).toBeNull();
  });
});
