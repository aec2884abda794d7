import { describe, expect, it } from 'vitest';
import { FILTER_CHIPS, isChipFilter, showsInList } from './StatusFilter.tsx';

describe("the list's status chips", () => {
  it("given 'All', then a voided document is not listed; under any status asked for, it is", () => {
    expect(showsInList({}, 'void')).toBe(false);
    expect(showsInList({}, 'draft')).toBe(true);
    expect(showsInList({ status: 'void' }, 'void')).toBe(true);
    expect(showsInList({ from: '2026-04-01' }, 'void')).toBe(false);
  });

  it("offers 'Voided' on both tabs, after 'All'", () => {
    for (const type of ['quote', 'invoice'] as const) {
      expect(FILTER_CHIPS[type][0]).toEqual({ label: 'All', status: undefined });
      expect(FILTER_CHIPS[type].at(-1)).toEqual({ label: 'Voided', status: 'void' });
    }
  });

  it('given a status the chips offer and no dates, then the chips show it; dates or another status get the banner', () => {
    expect(isChipFilter('invoice', {})).toBe(true);
    expect(isChipFilter('invoice', { status: 'void' })).toBe(true);
    expect(isChipFilter('invoice', { status: 'draft', from: '2026-04-01', to: '2026-06-30' })).toBe(false);
    expect(isChipFilter('invoice', { status: 'partial' })).toBe(false);
    expect(isChipFilter('quote', { status: 'accepted' })).toBe(true);
  });
});
