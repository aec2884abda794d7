import { describe, expect, it } from 'vitest';
import { savesData } from './offline.ts';
import { filesFor, type AppPrefetchMap } from './prefetch.ts';

const nav = (connection?: object) => ({ connection }) as unknown as Navigator;

describe('savesData', () => {
  it('is true with Save-Data on, whatever the connection', () => {
    expect(savesData(nav({ saveData: true, effectiveType: '4g' }))).toBe(true);
  });

  it('is true on 3G, 2G and slow 2G', () => {
    for (const effectiveType of ['3g', '2g', 'slow-2g']) expect(savesData(nav({ saveData: false, effectiveType }))).toBe(true);
  });

  it('is false on 4G with Save-Data off, and when the browser does not say', () => {
    expect(savesData(nav({ saveData: false, effectiveType: '4g' }))).toBe(false);
    expect(savesData(nav())).toBe(false);
  });
});

describe('filesFor', () => {
  const map: AppPrefetchMap = { shell: ['/assets/spa.js', '/assets/react.js'], '/login': ['/assets/LoginScreen.js'], '/signup': ['/assets/RegisterScreen.js'] };

  it('is the shell and the screen for a link into the app', () => {
    expect(filesFor(map, '/login')).toEqual(['/assets/spa.js', '/assets/react.js', '/assets/LoginScreen.js']);
    expect(filesFor(map, '/signup/')).toEqual(['/assets/spa.js', '/assets/react.js', '/assets/RegisterScreen.js']);
  });

  it('is nothing for a public page or an unknown path', () => {
    expect(filesFor(map, '/pricing')).toEqual([]);
    expect(filesFor(map, '/')).toEqual([]);
    expect(filesFor(map, '/shell')).toEqual([]);
  });
});
