import { describe, expect, it } from 'vitest';
import { bannerTone, clearAfterMs } from './banner.ts';

describe('settings banner', () => {
  it("is red exactly when the message contains 'Error'", () => {
    expect(bannerTone('Error saving settings. Please try again.')).toBe('error');
    expect(bannerTone('Error connecting Xero Please try again.')).toBe('error');
    expect(bannerTone('Settings saved successfully!')).toBe('success');
    expect(bannerTone('Authorization was cancelled or failed')).toBe('success');
  });

  it('a success clears after 3 s, a failure after 5 s', () => {
    expect(clearAfterMs(false)).toBe(3000);
    expect(clearAfterMs(true)).toBe(5000);
  });
});
