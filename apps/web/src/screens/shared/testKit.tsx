// For the screens' unit tests (jsdom): a mocked fetch that records each call, a React root with its
// own QueryClient, and small helpers to find, type and wait. Imported by specs only.
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
export const noContent = () => new Response(null, { status: 204 });
export const problem = (status: number, detail: string, errors?: { field: string; message: string }[]) =>
  new Response(JSON.stringify({ status, title: 'Problem', detail, ...(errors ? { errors } : {}) }), { status, headers: { 'content-type': 'application/problem+json' } });

export function createHarness() {
  let container: HTMLDivElement;
  let root: Root;
  const calls: Call[] = [];

  const harness = {
    calls,
    get container() {
      return container;
    },
    setUp() {
      container = document.createElement('div');
      document.body.append(container);
      root = createRoot(container);
      calls.length = 0;
    },
    tearDown() {
      act(() => root.unmount());
      container.remove();
      vi.unstubAllGlobals();
    },
    serve(answer: (method: string, path: string, body: unknown) => Response | Promise<Response>) {
      vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
        const path = String(input).replace(/^\/api\/v1/, '');
        const method = init?.method ?? 'GET';
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
        calls.push({ method, path, body });
        return answer(method, path, body);
      });
    },
    render(node: ReactNode) {
      const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
      act(() => root.render(<QueryClientProvider client={client}>{node}</QueryClientProvider>));
      return client;
    },
    text: () => container.textContent ?? '',
    async until(check: () => void, ms = 2000) {
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
    },
    /** A button whose visible words (screen-reader-only words aside) are `name`, or match it. */
    button(name: string | RegExp): HTMLButtonElement {
      const found = [...container.querySelectorAll('button')].find((b) => {
        const copy = b.cloneNode(true) as HTMLElement;
        copy.querySelectorAll('.visually-hidden').forEach((h) => h.remove());
        const words = copy.textContent?.trim() ?? '';
        return typeof name === 'string' ? words === name : name.test(words);
      });
      if (!found) throw new Error(`no button ${String(name)} in: ${harness.text()}`);
      return found;
    },
    /** The field whose label says `label` (by the label's `for`, else the input inside it). */
    byLabel(label: string): HTMLInputElement {
      const l = [...container.querySelectorAll('label')].find((x) => x.textContent?.trim() === label);
      const id = l?.getAttribute('for');
      const el = id ? container.querySelector<HTMLInputElement>(`#${id}`) : l?.querySelector('input');
      if (!el) throw new Error(`no field labelled ${label}`);
      return el;
    },
    click(el: HTMLElement) {
      act(() => el.click());
    },
    type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
      const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      act(() => {
        Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
    },
    select(el: HTMLSelectElement, value: string) {
      act(() => {
        Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')?.set?.call(el, value);
        el.dispatchEvent(new Event('change', { bubbles: true }));
      });
    },
  };
  return harness;
}
