/**
 * The only script a pre-rendered public page needs up front. The page is already complete HTML
 * (links, FAQ, anchors all work without JavaScript); this shows today's date, watches the
 * connection, registers the service worker and, once the browser is idle, loads React and hydrates.
 */
import '../styles/index.css';
import { showTodayInDates } from './today.ts';
import { watchConnection } from './offline.ts';
import { registerServiceWorker } from './serviceWorker.ts';

showTodayInDates(document, new Date());
watchConnection(window);
registerServiceWorker(window);

function whenIdle(run: () => void): void {
  const start = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 3000 });
    else setTimeout(run, 200);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

whenIdle(() => {
  void import('./hydrate.tsx').then(({ hydratePublicPage }) => hydratePublicPage(document, window.location.pathname));
});
