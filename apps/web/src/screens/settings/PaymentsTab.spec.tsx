// @vitest-environment jsdom
// Settings → Payments against a mocked fetch: each state of the Stripe account, the connect button,
// and the card fee's checks and save.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { OnlinePaymentSettings } from '@tradie/contracts';
import { PAYMENTS_TEXT, PaymentsTab } from './PaymentsTab.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const settings = (over: Partial<OnlinePaymentSettings> = {}): OnlinePaymentSettings => ({ available: true, status: 'none', surcharge_enabled: false, surcharge_percent: 0, ...over });
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let container: HTMLDivElement;
let root: Root;
let calls: { method: string; path: string; body: unknown }[];

function serve(answer: (method: string, path: string, body: unknown) => Response) {
  calls = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).replace(/^\/api\/v1/, '');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, body });
    return answer(method, path, body);
  });
}

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

function render(onMessage = vi.fn(), goTo = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  act(() => root.render(<QueryClientProvider client={client}>{<PaymentsTab onMessage={onMessage} goTo={goTo} />}</QueryClientProvider>));
  return { onMessage, goTo };
}
const text = () => container.textContent ?? '';
async function until(check: () => void, ms = 2000) {
  const start = Date.now();
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (Date.now() - start > ms) throw e;
      await act(() => new Promise((r) => setTimeout(r, 10)));
    }
  }
}
const button = (name: string) => {
  const found = [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
  if (!found) throw new Error(`no button ${name} in: ${text()}`);
  return found;
};
function type(el: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('Settings → Payments', () => {
  it('on a server without Stripe: says card payments are not set up here, and offers nothing', async () => {
    serve(() => json(settings({ available: false })));
    render();
    await until(() => expect(text()).toContain(PAYMENTS_TEXT.unavailable));
    expect(container.querySelectorAll('button')).toHaveLength(0);
  });

  it('not set up: Accept card payments asks for Stripe’s onboarding address and goes there', async () => {
    serve((method) => (method === 'GET' ? json(settings()) : json({ onboarding_url: 'https://connect.example/onboard/acct_1' })));
    const { goTo } = render();
    await until(() => expect(container.querySelector('[data-testid="payments-status"]')?.textContent).toContain(PAYMENTS_TEXT.none));
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
    const toggle = container.querySelector<HTMLInputElement>('input[role="switch"]')!;
    expect(toggle.checked).toBe(false);
    expect(container.querySelector('#settings-surcharge-percent')).toBeNull();
    act(() => toggle.click());
    const percent = container.querySelector<HTMLInputElement>('#settings-surcharge-percent')!;
    type(percent, '6');
    act(() => button('Save card fee').click());
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('The surcharge can be at most 5%');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    type(percent, '2.5');
    act(() => button('Save card fee').click());
    await until(() => expect(onMessage).toHaveBeenCalledWith(PAYMENTS_TEXT.saved, false));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/payments/settings', body: { surcharge_enabled: true, surcharge_percent: 2.5 } });
  });
});
