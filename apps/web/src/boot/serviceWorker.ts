/** Registers /sw.js once the page has loaded, so it never competes with the first paint. */
export function registerServiceWorker(win: Window): void {
  if (!('serviceWorker' in win.navigator)) return;
  if (import.meta.env.DEV) return;
  const register = () => {
    win.navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.warn('Service worker registration failed; the app still works online.', error);
    });
  };
  if (win.document.readyState === 'complete') register();
  else win.addEventListener('load', register, { once: true });
}
