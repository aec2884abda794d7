/**
 * The only script a pre-rendered public page needs up front. The page is already complete HTML
 * (links, FAQ, anchors all work without JavaScript); this shows today's date, watches the
 * connection, registers the service worker and, once the browser is idle, loads React and hydrates.
 *
 * On a slow connection or with Save-Data on (savesData, offline.ts) the page costs only this script:
 * no hydration (React alone is ~67 KB gzip and the page needs none of it), and a service worker that
 * keeps the public pages offline but not the whole app. Either way the app's files are prefetched
 * when a pointer, finger or keyboard reaches 'Login' or 'Try Free'.
 */
import '../styles/index.css';
import { showTodayInDates } from './today.ts';
import { savesData, watchConnection } from './offline.ts';
import { registerServiceWorker } from './serviceWorker.ts';
import { prefetchAppOnIntent } from './prefetch.ts';

const lean = savesData(window.navigator);
showTodayInDates(document, new Date());
watchConnection(window);
registerServiceWorker(window, { publicOnly: lean });
prefetchAppOnIntent(document);

function whenIdle(run: () => void): void {
  const start = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 3000 });
    else setTimeout(run, 200);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

if (!lean) {
  whenIdle(() => {
    void import('./hydrate.tsx').then(({ hydratePublicPage }) => hydratePublicPage(document, window.location.pathname));
  });
}
