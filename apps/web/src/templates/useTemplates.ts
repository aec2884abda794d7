import { useMemo, useRef, useSyncExternalStore } from 'react';
import { createTemplateStore, TEMPLATES_KEY, type Template, type TemplateStore } from './templateStore.ts';

/** The browser's template store, on window.localStorage (created per screen, not at module load). */
export function useTemplateStore(): TemplateStore {
  return useMemo(() => createTemplateStore(window.localStorage), []);
}

/**
 * The saved templates, re-read only when this tab or another one changes them (a render, such as
 * one per keystroke in the calculator, does not touch localStorage).
 */
export function useTemplates(store: TemplateStore): Template[] {
  const cache = useRef<Template[] | null>(null);
  return useSyncExternalStore(
    (onChange) => {
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
    () => (cache.current ??= store.list()),
  );
}
