import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import { createTemplateStore, TEMPLATES_KEY, type Template, type TemplateStore } from './templateStore.ts';

/** The browser's template store, on window.localStorage (created per screen, not at module load). */
export function useTemplateStore(): TemplateStore {
  return useMemo(() => createTemplateStore(window.localStorage), []);
}

/**
 * The saved templates, re-read only when this tab or another one changes them (a render, such as
 * one per keystroke in the calculator, does not touch localStorage). The subscription is kept for
 * the store's life: a new subscribe function each render would make React unsubscribe and
 * subscribe again after every render (a window 'storage' listener removed and added per keystroke).
 */
export function useTemplates(store: TemplateStore): Template[] {
  const cache = useRef<Template[] | null>(null);
  const subscribe = useCallback(
    (onChange: () => void) => {
      const changed = () => {
        cache.current = null;
        onChange();
      };
      const stop = store.subscribe(changed);
      const onStorage = (e: StorageEvent) => {
        if (e.key === TEMPLATES_KEY || e.key === null) changed();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        stop();
        window.removeEventListener('storage', onStorage);
      };
    },
    [store],
  );
  const snapshot = useCallback(() => (cache.current ??= store.list()), [store]);
  return useSyncExternalStore(subscribe, snapshot);
}
