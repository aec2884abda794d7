import { useRef, type KeyboardEvent, type ReactNode } from 'react';

/** One tab: its id (part of the button's and panel's ids) and what it says. */
export interface Tab<T extends string> {
  id: T;
  label: ReactNode;
}

/** Which key moves to which tab: the next, the previous, the first or the last (wrapping round). */
export function tabAfterKey<T>(tabs: readonly T[], current: number, key: string): T | undefined {
  const n = tabs.length;
  const to = { ArrowRight: current + 1, ArrowDown: current + 1, ArrowLeft: current - 1, ArrowUp: current - 1, Home: 0, End: n - 1 }[key];
  return to === undefined || n === 0 ? undefined : tabs[(to + n) % n];
}

/**
 * A row of WAI-ARIA tabs: the selected one is the only one in the Tab order; the arrow keys,
 * Home and End move to another, select it and focus it. `onSelect` says how the screen
 * remembers the choice (state, the address, the session).
 */
export function TabList<T extends string>({
  tabs, selected, onSelect, label, tabId, panelId, className = 'tabs', tabClassName = 'tab',
}: {
  tabs: readonly Tab<T>[];
  selected: T;
  onSelect: (id: T) => void;
  /** The tab list's accessible name. */
  label: string;
  tabId: (id: T) => string;
  panelId: (id: T) => string;
  className?: string;
  tabClassName?: string;
}) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const to = tabAfterKey(tabs, tabs.findIndex((t) => t.id === selected), e.key);
    if (!to) return;
    e.preventDefault();
    onSelect(to.id);
    buttons.current.get(to.id)?.focus();
  };
  return (
    <div className={className} role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            if (el) buttons.current.set(t.id, el);
            else buttons.current.delete(t.id);
          }}
          id={tabId(t.id)}
          type="button"
          role="tab"
          className={tabClassName}
          aria-selected={selected === t.id}
          aria-controls={panelId(t.id)}
          tabIndex={selected === t.id ? 0 : -1}
          onClick={() => onSelect(t.id)}
          onKeyDown={onKeyDown}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
