import { describe, expect, it } from 'vitest';
import { downloadThroughSignedLink, type DownloadWindow } from './download.ts';

interface FakeTab {
  closed: boolean;
  opener: unknown;
  location: { href: string };
  document: { title: string; body: { textContent: string } };
  close(): void;
}

function fakeBrowser(opensTab: boolean) {
  const calls: string[] = [];
  const tab: FakeTab = {
    closed: false,
    opener: 'the app',
    location: { href: 'about:blank' },
    document: { title: '', body: { textContent: '' } },
    close() {
      this.closed = true;
      calls.push('close');
    },
  };
  const browser: DownloadWindow = {
    open(url, target) {
      calls.push(`open ${url || '(blank)'} ${target}`);
      return opensTab ? (tab as unknown as Window) : null;
    },
    location: { assign: (url) => calls.push(`assign ${url}`) },
  };
  return { browser, tab, calls };
}

describe('downloadThroughSignedLink', () => {
  it('opens the tab before the link is asked for, then sends it to the link', async () => {
    const { browser, tab, calls } = fakeBrowser(true);
    let resolve: (v: { url: string }) => void = () => undefined;
    const done = downloadThroughSignedLink(browser, () => {
      calls.push('fetch link');
      return new Promise((r) => (resolve = r));
    });
    // Synchronously, in the click: the tab is already open and says what is happening.
    expect(calls).toEqual(['open (blank) _blank', 'fetch link']);
    expect(tab.document.body.textContent).toBe('Preparing your CSV…');
    expect(tab.opener).toBeNull();
    resolve({ url: '/api/v1/reports/export/gst-csv?sig=x' });
    await done;
    expect(tab.location.href).toBe('/api/v1/reports/export/gst-csv?sig=x');
    expect(calls).not.toContain('close');
  });

  it('closes the tab and passes the error on when the link cannot be had', async () => {
    const { browser, tab, calls } = fakeBrowser(true);
    await expect(downloadThroughSignedLink(browser, () => Promise.reject(new Error('Network Error')))).rejects.toThrow('Network Error');
    expect(tab.closed).toBe(true);
    expect(tab.location.href).toBe('about:blank');
    expect(calls).toEqual(['open (blank) _blank', 'close']);
  });

  it('downloads in this page when no tab could be opened (the CSV is an attachment)', async () => {
    const { browser, calls } = fakeBrowser(false);
    await downloadThroughSignedLink(browser, () => Promise.resolve({ url: '/api/v1/reports/export/annual-csv?sig=y' }));
    expect(calls).toEqual(['open (blank) _blank', 'assign /api/v1/reports/export/annual-csv?sig=y']);
  });

  it('does not send a tab the person already closed; the page downloads instead', async () => {
    const { browser, tab, calls } = fakeBrowser(true);
    await downloadThroughSignedLink(browser, () => {
      tab.closed = true;
      return Promise.resolve({ url: '/x' });
    });
    expect(calls).toEqual(['open (blank) _blank', 'assign /x']);
  });
});
