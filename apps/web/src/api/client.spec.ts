import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient, createSimpleRefresh, type TokenStorage } from './client.ts';

function memoryStorage(initial: Record<string, string> = {}): TokenStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (req: Seen) => Response | Promise<Response>;

function fakeFetch(handler: Handler): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const f = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    const req = { url: String(input), method: init.method ?? 'GET', headers, body };
    seen.push(req);
    if (init.signal?.aborted) throw init.signal.reason;
    return handler(req);
  };
  return { fetch: f as typeof fetch, seen };
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the api client', () => {
  it('given a stored access token, when it calls, then it sends the bearer header and JSON, and returns the JSON answer', async () => {
    const storage = memoryStorage({ access_token: 'A1' });
    const { fetch, seen } = fakeFetch(() => json(201, { id: 'c1' }));
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });

    const result = await api.post<{ id: string }>('/clients', { name: 'Ana' }, { idempotencyKey: 'k-1' });

    expect(result).toEqual({ id: 'c1' });
    expect(seen[0]).toMatchObject({
      url: '/api/v1/clients',
      method: 'POST',
      body: { name: 'Ana' },
      headers: { Authorization: 'Bearer A1', 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
    });
  });

  it('given no stored token, when it calls, then no Authorization header goes out', async () => {
    const { fetch, seen } = fakeFetch(() => json(200, []));
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage() });
    await api.get('/clients');
    expect(seen[0]?.headers.Authorization).toBeUndefined();
  });

  it('given an error answer, then it throws ApiError with the status, the detail and the body', async () => {
    const { fetch } = fakeFetch(() => json(422, { detail: 'Name is required' }));
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage() });
    const error = await api.put('/clients/1', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, detail: 'Name is required', body: { detail: 'Name is required' }, message: 'Name is required' });
  });

  it('given an error answer without a detail, then the detail says the status code', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage() });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 502, detail: 'Request failed with status code 502' });
  });

  it("given the network fails, then it throws 'Network Error'", async () => {
    const { fetch } = fakeFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage() });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 0, detail: 'Network Error' });
  });

  it("given a time-out in the options that runs out, then it throws 'timeout exceeded'", async () => {
    const never: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
      });
    const api = createApiClient({ fetch: () => never, storage: () => memoryStorage() });
    await expect(api.get('/slow', { timeoutMs: 1 })).rejects.toMatchObject({ status: 0, detail: 'timeout exceeded' });
  });

  it("given the caller aborts, then the abort is rethrown as it is (not 'Network Error')", async () => {
    const controller = new AbortController();
    controller.abort();
    const { fetch } = fakeFetch(() => json(200, {}));
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage() });
    const error = await api.get('/x', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('given a 204, then it resolves with undefined; blob answers come back as a Blob', async () => {
    const { fetch } = fakeFetch((req) => (req.method === 'DELETE' ? new Response(null, { status: 204 }) : new Response('%PDF-1.7', { status: 200, headers: { 'content-type': 'application/pdf' } })));
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage() });
    await expect(api.del('/clients/1')).resolves.toBeUndefined();
    const blob = await api.blob('/invoices/1/pdf');
    expect(await blob.text()).toBe('%PDF-1.7');
  });

  it('given an upload, then the FormData goes out as it is, without a JSON content type', async () => {
    const { fetch, seen } = fakeFetch(() => json(200, { logo_url: '/l.png' }));
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage() });
    const form = new FormData();
    form.set('file', new Blob(['x']), 'logo.png');
    await api.upload('/business-settings/logo', form);
    expect(seen[0]?.body).toBe(form);
    expect(seen[0]?.headers['Content-Type']).toBeUndefined();
  });

  it('given a 401, then the installed refresh runs once and the request is resent once with the new token', async () => {
    const storage = memoryStorage({ access_token: 'old', refresh_token: 'R' });
    const { fetch, seen } = fakeFetch((req) => (req.headers.Authorization === 'Bearer new' ? json(200, { ok: true }) : json(401, { detail: 'expired' })));
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });
    let refreshes = 0;
    api.setRefreshHandler(async () => {
      refreshes++;
      storage.setItem('access_token', 'new');
    });

    await expect(api.get('/clients')).resolves.toEqual({ ok: true });
    expect(refreshes).toBe(1);
    expect(seen.map((s) => s.headers.Authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('given the retried request gets 401 again, then it is not refreshed a second time and the 401 reaches the caller', async () => {
    const storage = memoryStorage({ access_token: 'old', refresh_token: 'R' });
    const { fetch, seen } = fakeFetch(() => json(401, { detail: 'Not signed in' }));
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });
    let refreshes = 0;
    api.setRefreshHandler(async () => {
      refreshes++;
    });
    await expect(api.get('/clients')).rejects.toMatchObject({ status: 401, detail: 'Not signed in' });
    expect(refreshes).toBe(1);
    expect(seen).toHaveLength(2);
  });

  it('given the refresh fails, then its error is passed to the caller and the request is not resent', async () => {
    const { fetch, seen } = fakeFetch(() => json(401, { detail: 'expired' }));
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage({ access_token: 'old' }) });
    api.setRefreshHandler(() => Promise.reject(new ApiError(401, 'No refresh token')));
    await expect(api.get('/clients')).rejects.toMatchObject({ detail: 'No refresh token' });
    expect(seen).toHaveLength(1);
  });

  it('given noRefresh (sign-in), then a 401 goes straight to the caller', async () => {
    const { fetch } = fakeFetch(() => json(401, { detail: 'Incorrect email or password' }));
    const api = createApiClient({ fetch: () => fetch, storage: () => memoryStorage() });
    let refreshes = 0;
    api.setRefreshHandler(async () => {
      refreshes++;
    });
    await expect(api.post('/auth/login', {}, { noRefresh: true })).rejects.toMatchObject({ detail: 'Incorrect email or password' });
    expect(refreshes).toBe(0);
  });

  it('refreshTokens sends the refresh token without the bearer header', async () => {
    const storage = memoryStorage({ access_token: 'old', refresh_token: 'R' });
    const { fetch, seen } = fakeFetch(() => json(200, { access_token: 'A2', refresh_token: 'R2', token_type: 'bearer', expires_in: 900 }));
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });
    await expect(api.refreshTokens('R')).resolves.toEqual({ access_token: 'A2', refresh_token: 'R2' });
    expect(seen[0]).toMatchObject({ url: '/api/v1/auth/refresh', method: 'POST', body: { refresh_token: 'R' } });
    expect(seen[0]?.headers.Authorization).toBeUndefined();
  });
});

describe('the simple refresh (before the session machine is installed)', () => {
  it('given several callers at once, then they share one refresh call and the new tokens are stored', async () => {
    const storage = memoryStorage({ access_token: 'old', refresh_token: 'R' });
    let calls = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const refresh = createSimpleRefresh({
      storage: () => storage,
      refresh: async () => {
        calls++;
        await gate;
        return { access_token: 'A2', refresh_token: 'R2' };
      },
      goToLogin: () => undefined,
    });
    const all = Promise.all([refresh(), refresh(), refresh()]);
    release();
    await all;
    expect(calls).toBe(1);
    expect(Object.fromEntries(storage.data)).toEqual({ access_token: 'A2', refresh_token: 'R2' });
  });

  it("given no refresh token, then both tokens are cleared, the page goes to /login and the caller gets 'No refresh token'", async () => {
    const storage = memoryStorage({ access_token: 'old' });
    const visits: string[] = [];
    const refresh = createSimpleRefresh({ storage: () => storage, refresh: () => Promise.reject(new Error('unused')), goToLogin: () => visits.push('/login') });
    await expect(refresh()).rejects.toMatchObject({ detail: 'No refresh token' });
    expect(storage.data.size).toBe(0);
    expect(visits).toEqual(['/login']);
  });
});
