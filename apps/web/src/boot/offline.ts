/**
 * The offline banner lives in the HTML template, outside React, so it works on a pre-rendered page
 * before any framework code has loaded. It shows when the browser reports no connection, or when
 * the service worker served this page from its cache because the network failed (it marks the
 * <html> element with data-offline).
 */
export function watchConnection(win: Window): void {
  const banner = win.document.getElementById('offline-banner');
  if (!banner) return;
  const servedFromCache = win.document.documentElement.hasAttribute('data-offline');
  const update = (offline: boolean) => {
    banner.hidden = !offline;
  };
  update(servedFromCache || !win.navigator.onLine);
  win.addEventListener('offline', () => update(true));
  win.addEventListener('online', () => update(false));
}

/** The parts of the Network Information API we read (Chromium; absent elsewhere). */
export interface ConnectionLike {
  readonly saveData?: boolean;
  readonly effectiveType?: string;
}

const SLOW_TYPES = new Set(['slow-2g', '2g', '3g']);

/**
 * True when the visitor asked to save data, or the connection is 3G or slower. Unknown connection:
 * false. Read by the public pages' boot (no hydration, a lean service worker) and by the app's route
 * loaders (no data fetched on a link's intent); it lives here, in the shell both load.
 */
export function savesData(nav: Navigator): boolean {
  const connection = (nav as Navigator & { connection?: ConnectionLike }).connection;
  if (!connection) return false;
  return connection.saveData === true || SLOW_TYPES.has(connection.effectiveType ?? '');
}
