// A real HTTP client for the load driver (Node's fetch: undici, keep-alive connections on
// loopback). Every call is timed and counted under its route template ('POST /invoices/{id}/payments').
// A call that gets no answer resolves to null: the caller decides whether to try again.
import type { LoadStats } from './stats.ts';

/** The parsed answer. Bodies are read loosely: the driver checks the fields it relies on. */
export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the driver reads fields by name and checks them
  json: any;
  ms: number;
}

export interface CallInit {
  token?: string | undefined;
  json?: unknown;
  headers?: Record<string, string>;
}

export interface HttpClient {
  readonly baseUrl: string;
  call(route: string, method: string, path: string, init?: CallInit): Promise<Answer | null>;
}

export function httpClient(baseUrl: string, stats: LoadStats, options: { timeoutMs?: number } = {}): HttpClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const base = baseUrl.replace(/\/+$/, '');
  return {
    baseUrl: base,
    async call(route, method, path, init = {}) {
      const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
      if (init.token) headers.Authorization = `Bearer ${init.token}`;
      let body: string | undefined;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers['Content-Type'] = 'application/json';
      }
      const startedAt = performance.timeOrigin + performance.now();
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/api/v1${path}`, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
        const text = await res.text();
        const ms = performance.now() - t0;
        stats.answered(route, res.status, startedAt, ms);
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        if (res.status === 503) stats.unavailableAnswer(String((json as { detail?: unknown } | undefined)?.detail), res.headers.has('Retry-After'));
        else if (res.status >= 500) stats.sample(`${route}: ${res.status} ${text.slice(0, 200)}`);
        return { status: res.status, headers: res.headers, json, ms };
      } catch (e) {
        const err = e as { name?: string; message?: string; cause?: { code?: string } };
        stats.lost(route, err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err.cause?.code ?? err.message ?? String(e)));
        return null;
      }
    },
  };
}
