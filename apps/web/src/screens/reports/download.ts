// '📥 Download CSV' opens the export in a new tab. A new tab can't send the bearer header,
// so the app first asks for a short-lived download link (POST /reports/export-links). Popup blockers
// only allow window.open in the click itself, so the tab is opened at once, empty, and sent to the
// link when it arrives. The browser and the link call are arguments (ports), so this is testable.

/** The parts of `window` this needs. */
export interface DownloadWindow {
  open(url: string, target: string): Window | null;
  location: { assign(url: string): void };
}

export interface DownloadTab {
  /** Sends the opened tab to the link (or, when no tab could be opened, this page: the CSV is an attachment, so the page stays). */
  go(url: string): void;
  /** Closes the opened tab after a failure. */
  close(): void;
}

/** Opens an empty tab now, in the click's own call stack. Returns how to send it on (or close it) later. */
export function openDownloadTab(browser: DownloadWindow, waitingText: string): DownloadTab {
  let tab: Window | null = null;
  try {
    tab = browser.open('', '_blank');
  } catch {
    tab = null;
  }
  if (tab) {
    try {
      // The tab is ours (about:blank, same origin): say what is happening, and cut the way back.
      tab.document.title = waitingText;
      tab.document.body.textContent = waitingText;
      tab.opener = null;
    } catch {
      // A browser that keeps the new tab to itself: it just stays blank until the link arrives.
    }
  }
  return {
    go(url) {
      if (tab && !tab.closed) tab.location.href = url;
      else browser.location.assign(url);
    },
    close() {
      if (tab && !tab.closed) tab.close();
    },
  };
}

/** Opens the tab, fetches the link, sends the tab there; on failure closes the tab and rethrows. */
export async function downloadThroughSignedLink(browser: DownloadWindow, fetchLink: () => Promise<{ url: string }>, waitingText = 'Preparing your CSV…'): Promise<void> {
  const tab = openDownloadTab(browser, waitingText);
  let url: string;
  try {
    ({ url } = await fetchLink());
  } catch (e) {
    tab.close();
    throw e;
  }
  tab.go(url);
}
