import { describe, expect, it } from 'vitest';
import { downloadThroughSignedLink, type DownloadWindow } from './download.ts';

function fakeBrowser() {
  const calls: string[] = [];
  const browser: DownloadWindow = { location: { assign: (url) => calls.push(`assign ${url}`) } };
  return { browser, calls };
}

describe('downloadThroughSignedLink', () => {
  it('asks for the link, then downloads through it in this page (the file is an attachment: the page stays)', async () => {
    const { browser, calls } = fakeBrowser();
    let resolve: (v: { url: string }) => void = () => undefined;
    const done = downloadThroughSignedLink(browser, () => {
      calls.push('fetch link');
      return new Promise((r) => (resolve = r));
    });
    expect(calls).toEqual(['fetch link']);
    resolve({ url: '/api/v1/reports/export/gst-csv?sig=x' });
    await done;
    expect(calls).toEqual(['fetch link', 'assign /api/v1/reports/export/gst-csv?sig=x']);
  });

  it('passes the error on and goes nowhere when the link cannot be had', async () => {
    const { browser, calls } = fakeBrowser();
    await expect(downloadThroughSignedLink(browser, () => Promise.reject(new Error('Network Error')))).rejects.toThrow('Network Error');
    expect(calls).toEqual([]);
  });
});
