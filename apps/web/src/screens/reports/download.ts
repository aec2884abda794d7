// '📥 Download CSV' and 'Download ZIP': the app asks for a short-lived download link
// (POST /reports/export-links, /reports/accountant-export-links), so the bearer token never travels
// in a URL, then fetches the file from the link in this page and saves it under the server's name
// for it. Nothing is left behind: no tab that stays on 'Preparing…' while the browser saves an
// attachment, and a link the server refuses is said on the screen in its own words, like any other
// failure. The fetch and the save are arguments (ports), so this is testable.
import { ApiError } from '../../api/client.ts';

/** Said when the file never arrived (no signal, or the connection dropped part way). */
export const DOWNLOAD_CUT_OFF = "The download didn't get through. Check your signal and try again.";

export const DOWNLOAD_TEXT = {
  csvSaved: 'Your CSV is in your downloads.',
  zipSaved: 'Your ZIP is in your downloads.',
} as const;

/** The parts of the browser this needs. */
export interface DownloadPorts {
  fetch(url: string): Promise<Response>;
  /** Hands the file to the browser's downloads under this name. */
  save(file: Blob, name: string): void;
}

/** The browser's own: fetch, and an <a download> clicked on a blob URL that is let go of afterwards. */
export const browserDownloads: DownloadPorts = {
  fetch: (url) => globalThis.fetch(url, { credentials: 'omit' }),
  save(file, name) {
    const url = URL.createObjectURL(file);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },
};

/** The file name a Content-Disposition header gives (filename*=UTF-8'' first), or null. */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // A malformed encoded name: the plain one below, if any.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/i.exec(header);
  const name = plain?.[1] ?? plain?.[2] ?? '';
  return name === '' ? null : name;
}

/** Why a link's answer was refused: the server's `detail`, else a sentence with its status. */
async function refusal(res: Response): Promise<ApiError> {
  let detail = '';
  try {
    const body = (await res.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
  } catch {
    // Not a problem document: said by its status below.
  }
  return new ApiError(res.status, detail || `The file could not be made (error ${res.status}). Please try again.`);
}

/**
 * Asks for the link, fetches the file from it and saves it as `fallbackName` unless the server names
 * it. Resolves once the file is handed to the browser; rejects with an ApiError whose detail says why.
 */
export async function downloadThroughSignedLink(fetchLink: () => Promise<{ url: string }>, fallbackName: string, ports: DownloadPorts = browserDownloads): Promise<void> {
  const { url } = await fetchLink();
  let res: Response;
  try {
    res = await ports.fetch(url);
  } catch {
    throw new ApiError(0, DOWNLOAD_CUT_OFF);
  }
  if (!res.ok) throw await refusal(res);
  let file: Blob;
  try {
    file = await res.blob();
  } catch {
    throw new ApiError(0, DOWNLOAD_CUT_OFF);
  }
  ports.save(file, attachmentName(res.headers.get('content-disposition')) ?? fallbackName);
}
