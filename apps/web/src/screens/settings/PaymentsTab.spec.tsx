// @vitest-environment jsdom
// Settings → Payments against a mocked fetch: each state of the Stripe account, the connect button,
// and the card fee's checks and save.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import type { OnlinePaymentSettings } from '@tradie/contracts';
import { createHarness, json } from '../shared/testKit.tsx';
import { PAYMENTS_TEXT, PaymentsTab } from './PaymentsTab.tsx';

const settings = (over: Partial<OnlinePaymentSettings> = {}): OnlinePaymentSettings => ({ available: true, status: 'none', surcharge_enabled: false, surcharge_percent: 0, ...over });

const h = createHarness();
const { calls, serve, text, until, button, type } = h;
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

function render(onMessage = vi.fn(), goTo = vi.fn()) {
  h.render(<PaymentsTab onMessage={onMessage} goTo={goTo} />);
  return { onMessage, goTo };
}

describe('Settings → Payments', () => {
  it('on a server without Stripe: says card payments are not set up here, and offers nothing', async () => {
    serve(() => json(settings({ available: false })));
    render();
    await until(() => expect(text()).toContain(PAYMENTS_TEXT.unavailable));
    expect(h.container.querySelectorAll('button')).toHaveLength(0);
  });

  it('not set up: Accept card payments asks for Stripe’s onboarding address and goes there', async () => {
    serve((method) => (method === 'GET' ? json(settings()) : json({ onboarding_url: 'https://connect.example/onboard/acct_1' })));
    const { goTo } = render();
    await until(() => expect(h.container.querySelector('[data-testid="payments-status"]')?.textContent).toContain(PAYMENTS_TEXT.none));
    act(() => button(PAYMENTS_TEXT.connect).click());
    await until(() => expect(goTo).toHaveBeenCalledWith('https://connect.example/onboard/acct_1'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/payments/connect']);
  });

  it.each([
    ['onboarding', PAYMENTS_TEXT.onboarding, PAYMENTS_TEXT.continue],
    ['disconnected', PAYMENTS_TEXT.disconnected, PAYMENTS_TEXT.connect],
  ] as const)('%s: says so, with %s', async (status, said, action) => {
    serve(() => json(settings({ status })));
    render();
    await until(() => expect(text()).toContain(said));
    expect(button(action)).toBeTruthy();
  });

  it('on: says so, with no connect button', async () => {
    serve(() => json(settings({ status: 'enabled' })));
    render();
    await until(() => expect(text()).toContain(PAYMENTS_TEXT.enabled));
    expect(text()).not.toContain(PAYMENTS_TEXT.connect);
  });

  it('the card fee: off by default, at most 5%, saved with PUT', async () => {
    serve((method, _path, body) => (method === 'GET' ? json(settings({ status: 'enabled' })) : json(settings({ status: 'enabled', ...(body as object) }))));
    const { onMessage } = render();
    await until(() => expect(text()).toContain('Pass the card fee on to my clients'));
    const toggle = h.container.querySelector<HTMLInputElement>('input[role="switch"]')!;
    expect(toggle.checked).toBe(false);
    expect(h.container.querySelector('#settings-surcharge-percent')).toBeNull();
    act(() => toggle.click());
    const percent = h.container.querySelector<HTMLInputElement>('#settings-surcharge-percent')!;
    type(percent, '6');
    act(() => button('Save card fee').click());
    expect(h.container.querySelector('[role="alert"]')?.textContent).toBe('The surcharge can be at most 5%');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    type(percent, '2.5');
    act(() => button('Save card fee').click());
    await until(() => expect(onMessage).toHaveBeenCalledWith(PAYMENTS_TEXT.saved, false));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/payments/settings', body: { surcharge_enabled: true, surcharge_percent: 2.5 } });
  });
});
