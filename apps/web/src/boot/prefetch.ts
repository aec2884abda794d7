/**
 * What a public page may download beyond itself. The page is complete HTML, so everything else is
 * for later: React (to hydrate) and the app behind 'Login' / 'Try Free'. On a slow connection or with
 * Save-Data on (savesData, in offline.ts), none of it is fetched until the visitor shows they want
 * the app; the app's files are then prefetched the moment a pointer, finger or keyboard reaches one
 * of those links.
 */

/**
 * The app's files by route, written into each pre-rendered page by scripts/prerender.ts as
 * <meta name="app-prefetch" content="{json}">: `shell` is what spa.html loads for every route, the
 * other keys the route's own screen. Absent in `vite dev`.
 */
export type AppPrefetchMap = Record<string, readonly string[]>;

export function readAppPrefetchMap(doc: Document): AppPrefetchMap | null {
  const content = doc.querySelector<HTMLMetaElement>('meta[name="app-prefetch"]')?.content;
  if (!content) return null;
  try {
    const parsed: unknown = JSON.parse(content);
    return parsed && typeof parsed === 'object' ? (parsed as AppPrefetchMap) : null;
  } catch {
    return null;
  }
}

/** The files to prefetch for a link to `pathname`: the shell and that route's screen; none for other links. */
export function filesFor(map: AppPrefetchMap, pathname: string): string[] {
  const route = pathname.replace(/\/+$/, '') || '/';
  const screen = map[route];
  if (route === 'shell' || !screen) return [];
  return [...(map.shell ?? []), ...screen];
}

const INTENT_EVENTS = ['pointerdown', 'touchstart', 'mouseover', 'focusin'] as const;

/**
 * Adds <link rel="prefetch"> for the app's files when a link into the app is pressed, touched,
 * hovered or focused. Each file is asked for once; the browser keeps it for the next page.
 */
export function prefetchAppOnIntent(doc: Document): void {
  const map = readAppPrefetchMap(doc);
  if (!map) return;
  const requested = new Set<string>();
  const onIntent = (event: Event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const link = target.closest('a[href]');
    if (!(link instanceof HTMLAnchorElement) || link.origin !== doc.location.origin) return;
    for (const href of filesFor(map, link.pathname)) {
      if (requested.has(href)) continue;
      requested.add(href);
      const hint = doc.createElement('link');
      hint.rel = 'prefetch';
      hint.href = href;
      // Module scripts are fetched in CORS mode; match it so the next page reuses this copy.
      if (href.endsWith('.js')) hint.crossOrigin = '';
      doc.head.appendChild(hint);
    }
  };
  for (const type of INTENT_EVENTS) doc.addEventListener(type, onIntent, { capture: true, passive: true });
}
