import { describe, expect, it } from 'vitest';
import { isApiError } from '../../api/client.ts';
import { attachmentName, DOWNLOAD_CUT_OFF, downloadThroughSignedLink, type DownloadPorts } from './download.ts';

/** A browser that answers the link with `answer` and records what it saved. */
function fakeBrowser(answer: () => Promise<Response>) {
  const calls: string[] = [];
  const saved: { name: string; text: Promise<string> }[] = [];
  const ports: DownloadPorts = {
    fetch: (url) => {
      calls.push(`fetch ${url}`);
      return answer();
    },
    save: (file, name) => {
      calls.push(`save ${name}`);
      saved.push({ name, text: file.text() });
    },
  };
  return { ports, calls, saved };
}

const csv = (name: string) => () =>
  Promise.resolve(new Response('\uFEFFReference,Total\nINV-0001,115.00\n', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': `attachment; filename="${name}"` } }));

describe('downloadThroughSignedLink', () => {
  it('asks for the link, fetches the file from it and saves it under the name the server gives; nothing is left open', async () => {
    const { ports, calls, saved } = fakeBrowser(csv('gst-report-2026-04-01-to-2026-06-30.csv'));
    await downloadThroughSignedLink(() => {
      calls.push('link');
      return Promise.resolve({ url: '/api/v1/reports/export/gst-csv?token=x' });
    }, 'gst.csv', ports);
    expect(calls).toEqual(['link', 'fetch /api/v1/reports/export/gst-csv?token=x', 'save gst-report-2026-04-01-to-2026-06-30.csv']);
    expect(await saved[0]!.text).toContain('INV-0001,115.00');
  });

  it("says why when the link's answer is refused, in the server's words, and saves nothing", async () => {
    const { ports, calls } = fakeBrowser(() =>
      Promise.resolve(new Response(JSON.stringify({ status: 410, detail: 'This download link has expired. Press Download again.' }), { status: 410, headers: { 'content-type': 'application/problem+json' } })),
    );
    const failed = await downloadThroughSignedLink(() => Promise.resolve({ url: '/x' }), 'gst.csv', ports).catch((e: unknown) => e);
    expect(isApiError(failed) && [failed.status, failed.detail]).toEqual([410, 'This download link has expired. Press Download again.']);
    expect(calls).toEqual(['fetch /x']);
  });

  it('says the download did not get through when the signal drops, and saves nothing', async () => {
    const { ports, calls } = fakeBrowser(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(downloadThroughSignedLink(() => Promise.resolve({ url: '/x' }), 'gst.csv', ports)).rejects.toThrow(DOWNLOAD_CUT_OFF);
    expect(calls).toEqual(['fetch /x']);
  });

  it('a refusal without a detail is said by its status, never left waiting', async () => {
    const { ports } = fakeBrowser(() => Promise.resolve(new Response('Bad gateway', { status: 502 })));
    await expect(downloadThroughSignedLink(() => Promise.resolve({ url: '/x' }), 'gst.csv', ports)).rejects.toThrow('The file could not be made (error 502). Please try again.');
  });

  it('passes on the failure to get a link, fetching nothing', async () => {
    const { ports, calls } = fakeBrowser(csv('a.csv'));
    await expect(downloadThroughSignedLink(() => Promise.reject(new Error('Your session has ended')), 'gst.csv', ports)).rejects.toThrow('Your session has ended');
    expect(calls).toEqual([]);
  });

  it('falls back to its own name when the server gives none', async () => {
    const { ports, calls } = fakeBrowser(() => Promise.resolve(new Response('a,b\n', { status: 200 })));
    await downloadThroughSignedLink(() => Promise.resolve({ url: '/x' }), 'annual.csv', ports);
    expect(calls.at(-1)).toBe('save annual.csv');
  });
});

describe('attachmentName', () => {
  it.each([
    ['attachment; filename="a b.csv"', 'a b.csv'],
    ['attachment; filename=plain.zip', 'plain.zip'],
    ["attachment; filename=\"x.csv\"; filename*=UTF-8''K%C5%8Dwhai.csv", 'Kōwhai.csv'],
    ['inline', null],
    [null, null],
  ])('%s → %s', (header, name) => expect(attachmentName(header)).toBe(name));
});
