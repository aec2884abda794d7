import { useMemo, useRef, useSyncExternalStore } from 'react';
import { createTemplateStore, TEMPLATES_KEY, type Template, type TemplateStore } from './templateStore.ts';

/** The browser's template store, on window.localStorage (created per screen, not at module load). */
export function useTemplateStore(): TemplateStore {
  return useMemo(() => createTemplateStore(window.localStorage), []);
}

/** The saved templates, re-read when this tab or another one changes them. */
export function useTemplates(store: TemplateStore): Template[] {
  const cache = useRef<{ version: string | null; list: Template[] } | null>(null);
  return useSyncExternalStore(
    (onChange) => {
      const stop = store.subscribe(onChange);
      const onStorage = (e: StorageEvent) => {
        if (e.key === TEMPLATES_KEY || e.key === null) onChange();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        stop();
        window.removeEventListener('storage', onStorage);
      };
    },
    () => {
      const version = store.version();
      if (cache.current?.version !== version) cache.current = { version, list: store.list() };
      return cache.current.list;
    },
  );
}
