// @vitest-environment jsdom
// Settings → GST rounding against a mocked fetch: a change waits for the next GST period and the
// card says from when, on the save and on every visit until then.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BusinessSettingsRecord } from '@tradie/contracts';
import { createHarness, json } from '../shared/testKit.tsx';
import { GstRoundingCard } from './GstRoundingCard.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const appliesFrom = 'Applies from 1 January 2027, the start of your next GST period';
const base = { gst_rounding: 'total', gst_rounding_next: null, gst_filing_months: 2, warnings: [] } as unknown as BusinessSettingsRecord;
const waiting = { ...base, gst_rounding_next: { rounding: 'line', from: '2027-01-01', applies_from: appliesFrom } } as BusinessSettingsRecord;

describe('Settings → GST rounding', () => {
  it('choosing the other method says from when it applies; until then documents keep the method in use', async () => {
    const puts: unknown[] = [];
    h.serve((method, path, body) => {
      if (path === '/business-settings' && method === 'GET') return json(base);
      if (path === '/business-settings' && method === 'PUT') {
        puts.push(body);
        return json({ ...waiting, warnings: [{ field: 'gst_rounding', message: appliesFrom }] });
      }
      return json({}, 404);
    });
    h.render(<GstRoundingCard />);
    const perLine = () => h.container.querySelector('input[value="line"]') as HTMLInputElement;
    await h.until(() => expect(perLine().disabled).toBe(false));
    expect(h.text()).not.toContain('Applies from');
    perLine().click();
    await h.until(() => expect(h.text()).toContain(`Saved. ${appliesFrom}`));
    expect(puts).toEqual([{ gst_rounding: 'line' }]);
    expect(perLine().checked).toBe(true);
    expect(h.text()).toContain(`GST rounded on each line: ${appliesFrom}. Until then, new quotes and invoices have GST rounded once per invoice.`);
  });

  it('shows a waiting change on a later visit', async () => {
    h.serve((method, path) => (path === '/business-settings' && method === 'GET' ? json(waiting) : json({}, 404)));
    h.render(<GstRoundingCard />);
    await h.until(() => expect(h.text()).toContain(appliesFrom));
    expect((h.container.querySelector('input[value="line"]') as HTMLInputElement).checked).toBe(true);
  });
});
