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
