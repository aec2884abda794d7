export interface ServiceWorkerOptions {
  /**
   * Public pages on a slow connection or with Save-Data: keep only the public pages and their own
   * few files offline (/sw.js?precache=public), not the whole app. The app shell registers the full
   * worker (plain /sw.js), which then takes over and keeps the app as well.
   */
  publicOnly?: boolean;
}

/** Registers /sw.js once the page has loaded, so it never competes with the first paint. */
export function registerServiceWorker(win: Window, { publicOnly = false }: ServiceWorkerOptions = {}): void {
  if (!('serviceWorker' in win.navigator)) return;
  if (import.meta.env.DEV) return;
  const container = win.navigator.serviceWorker;
  const register = async () => {
    // A worker already installed (the full one, or the public one) stays as it is: switching it to
    // the public list would only re-download what it keeps.
    if (publicOnly && (await container.getRegistration('/'))) return;
    await container.register(publicOnly ? '/sw.js?precache=public' : '/sw.js', { scope: '/' });
  };
  const start = () => {
    register().catch((error: unknown) => {
      console.warn('Service worker registration failed; the app still works online.', error);
    });
  };
  if (win.document.readyState === 'complete') start();
  else win.addEventListener('load', start, { once: true });
}
