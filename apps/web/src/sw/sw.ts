/**
 * Service worker: keeps the app shell on the device so a reload with no signal shows the app (with
 * its offline banner) instead of the browser's error page.
 *
 * - /api/* is never touched: requests go straight to the network and no response is ever cached.
 * - Page navigations: network first; when the network fails, the cached copy of that public page or
 *   the app shell (spa.html), marked with data-offline so the page says plainly that it is offline.
 * - /assets/* (content-hashed, immutable) and the precached icons/manifest: cache first.
 *
 * Registered as /sw.js?precache=public (a public page on a slow connection or with Save-Data), it
 * installs only PUBLIC_PRECACHE_URLS: the public pages and their own few files, not the app. The app
 * shell registers plain /sw.js, which replaces it and keeps everything in PRECACHE_URLS.
 *
 * Built by scripts/prerender.ts: types are stripped and PRECACHE_URLS / PUBLIC_PRECACHE_URLS /
 * CACHE_VERSION are prepended. This file is a classic script: no imports or exports.
 */
declare const PRECACHE_URLS: readonly string[];
declare const PUBLIC_PRECACHE_URLS: readonly string[];
declare const CACHE_VERSION: string;

interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
}

interface ServiceWorkerScopeLike {
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}

const worker = self as unknown as ServiceWorkerScopeLike;
const CACHE_PREFIX = 'tradie-shell-';
const CACHE_NAME = CACHE_PREFIX + CACHE_VERSION;
const SHELL_URL = '/spa.html';
const PUBLIC_ONLY = new URL(worker.location.href).searchParams.get('precache') === 'public';

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE_NAME)
      .then((cache) => cache.addAll([...(PUBLIC_ONLY ? PUBLIC_PRECACHE_URLS : PRECACHE_URLS)]))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(CACHE_PREFIX) && k !== CACHE_NAME).map((k) => caches.delete(k))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return;

  if (request.mode === 'navigate') {
    event.respondWith(handleNavigation(request, url));
  } else if (url.pathname.startsWith('/assets/') || PRECACHE_URLS.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
  }
});

/** '/features/' and '/features' are one page; everything without a pre-rendered copy is the app shell. */
function pageKey(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  const path = trimmed === '' ? '/' : trimmed;
  return PRECACHE_URLS.includes(path) ? path : SHELL_URL;
}

async function handleNavigation(request: Request, url: URL): Promise<Response> {
  try {
    const response = await fetch(request);
    const isPage = (response.headers.get('content-type') ?? '').includes('text/html');
    if (response.ok && response.type === 'basic' && isPage) {
      // Keep the freshest copy of this page (or of the shell) for the next time there is no signal.
      const copy = response.clone();
      void caches.open(CACHE_NAME).then((cache) => cache.put(pageKey(url.pathname), copy));
    }
    return response;
  } catch {
    const cache = await caches.open(CACHE_NAME);
    // The public-only worker has no app shell: the landing page, saying it is offline, beats the
    // browser's error page.
    const cached = (await cache.match(pageKey(url.pathname))) ?? (await cache.match(SHELL_URL)) ?? (await cache.match('/'));
    if (!cached) return Response.error();
    return markedOffline(cached);
  }
}

/** The page reads data-offline on <html> and shows its offline banner. */
async function markedOffline(cached: Response): Promise<Response> {
  const html = await cached.text();
  return new Response(html.replace(/<html(\s|>)/i, '<html data-offline$1'), {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE_NAME);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') void cache.put(request, response.clone());
  return response;
}
