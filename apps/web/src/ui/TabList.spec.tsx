// @vitest-environment jsdom
// The tab row the screens share (Invoices & Quotes, Tax Reports, Settings): WAI-ARIA roles and
// ids, one tab in the Tab order, and the keys that move between tabs.
import { act, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness } from '../screens/shared/testKit.tsx';
import { TabList, tabAfterKey } from './TabList.tsx';

const TABS = [
  { id: 'one', label: 'One' },
  { id: 'two', label: 'Two' },
  { id: 'three', label: 'Three' },
] as const;
type Id = (typeof TABS)[number]['id'];

function Screen({ chosen }: { chosen: Id[] }) {
  const [tab, setTab] = useState<Id>('one');
  return (
    <TabList
      tabs={TABS}
      selected={tab}
      onSelect={(t) => {
        chosen.push(t);
        setTab(t);
      }}
      label="Parts"
      tabId={(t) => `t-${t}`}
      panelId={(t) => `p-${t}`}
    />
  );
}

describe('tabAfterKey', () => {
  it('→ and ↓ go to the next, ← and ↑ to the previous, wrapping round; Home and End to the ends; other keys nowhere', () => {
    const ids = ['a', 'b', 'c'];
    expect(['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp', 'Home', 'End', 'Enter', 'a'].map((k) => tabAfterKey(ids, 2, k))).toEqual(['a', 'a', 'b', 'b', 'a', 'c', undefined, undefined]);
    expect(tabAfterKey(ids, 0, 'ArrowLeft')).toBe('c');
    expect(tabAfterKey([], 0, 'ArrowRight')).toBeUndefined();
  });
});

describe('TabList', () => {
  const h = createHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.tearDown());

  const tabs = () => [...h.container.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const press = (el: HTMLElement, key: string) => act(() => void el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })));

  it('names the list, ties each tab to its panel, and keeps only the selected tab in the Tab order', () => {
    h.render(<Screen chosen={[]} />);
    const list = h.container.querySelector('[role="tablist"]')!;
    expect(list.getAttribute('aria-label')).toBe('Parts');
    expect(tabs().map((t) => [t.id, t.getAttribute('aria-controls'), t.getAttribute('aria-selected'), t.tabIndex, t.type])).toEqual([
      ['t-one', 'p-one', 'true', 0, 'button'],
      ['t-two', 'p-two', 'false', -1, 'button'],
      ['t-three', 'p-three', 'false', -1, 'button'],
    ]);
  });

  it('a click selects; the arrow keys, Home and End select and focus, and other keys do nothing', () => {
    const chosen: Id[] = [];
    h.render(<Screen chosen={chosen} />);
    h.click(tabs()[1]!);
    expect(tabs()[1]!.getAttribute('aria-selected')).toBe('true');
    press(tabs()[1]!, 'ArrowRight');
    expect(document.activeElement).toBe(tabs()[2]);
    expect(tabs()[2]!.tabIndex).toBe(0);
    press(tabs()[2]!, 'ArrowRight');
    expect(document.activeElement).toBe(tabs()[0]);
    press(tabs()[0]!, 'End');
    press(tabs()[2]!, 'Home');
    press(tabs()[0]!, 'Enter');
    expect(chosen).toEqual(['two', 'three', 'one', 'three', 'one']);
  });
});
