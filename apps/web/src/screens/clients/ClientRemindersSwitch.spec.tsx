// @vitest-environment jsdom
// A client's 'No reminders for this client' switch against a mocked fetch.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json, noContent, problem } from '../shared/testKit.tsx';
import { ClientRemindersSwitch } from './ClientRemindersSwitch.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const toggle = () => h.container.querySelector('input[role="switch"]') as HTMLInputElement;

describe("Client → 'No reminders for this client'", () => {
  it('shows the saved state and turns it on with PUT', async () => {
    let saved = false;
    h.serve((method, _path, body) => {
      if (method !== 'PUT') return json({ no_reminders: saved });
      saved = (body as { no_reminders: boolean }).no_reminders;
      return noContent();
    });
    h.render(<ClientRemindersSwitch clientId="c1" />);
    await h.until(() => expect(toggle().disabled).toBe(false));
    expect(toggle().checked).toBe(false);
    expect(h.text()).toContain('No reminders for this client');
    h.click(toggle());
    await h.until(() => expect(h.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(h.calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/reminders/clients/c1', body: { no_reminders: true } });
    await h.until(() => expect(toggle().checked).toBe(true));
  });

  it("a failed change shows the API's detail and keeps the saved state", async () => {
    h.serve((method) => (method === 'PUT' ? problem(404, 'Client not found') : json({ no_reminders: true })));
    h.render(<ClientRemindersSwitch clientId="c1" />);
    await h.until(() => expect(toggle().checked).toBe(true));
    h.click(toggle());
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe('Client not found'));
    expect(toggle().checked).toBe(true);
  });
});
