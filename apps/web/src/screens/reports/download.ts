// '📥 Download CSV' (and the accountant's ZIP): the browser can't send the bearer header on a plain
// navigation, so the app first asks for a short-lived download link (POST /reports/export-links),
// then sends this page to it. The file comes as an attachment, so the page stays where it is and
// the browser downloads it: no extra tab is left behind saying 'Preparing…' after the file has come.
// While the link is asked for, the button says so (its command is pending); a failure is said there.
// The browser and the link call are arguments (ports), so this is testable.

/** The part of `window` this needs. */
export interface DownloadWindow {
  location: { assign(url: string): void };
}

/** Fetches the link, then downloads through it in this page; a failure to get the link is passed on and nothing is opened. */
export async function downloadThroughSignedLink(browser: DownloadWindow, fetchLink: () => Promise<{ url: string }>): Promise<void> {
  const { url } = await fetchLink();
  browser.location.assign(url);
}
