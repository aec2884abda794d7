/**
 * The one way the web app talks to /api/v1.
 *
 *   api.get<T>(path, {signal?})            api.post<T>(path, body?, {idempotencyKey?, signal?})
 *   api.put<T>(path, body?, {...})         api.del<T>(path, {...})
 *   api.upload<T>(path, formData, {...})   api.blob(path, {...})
 *
 * Paths are relative to /api/v1 ('/clients'). The stored access token ('access_token' in
 * localStorage) goes out as 'Authorization: Bearer …'. Every failure is an `ApiError`
 * {status, detail, body}: `detail` is the server's `detail` text, 'Network Error' when the request
 * never got an answer, 'timeout exceeded' when a time-out given in the options ran out (none is set
 * by default). A caller's own abort (TanStack Query cancelling) is rethrown as the AbortError.
 *
 * A 401 gets one refresh and one retry: the request is marked so it is never
 * refreshed twice. The refresh itself is the session's business (machines/session.ts): it installs a
 * `RefreshHandler` with `setRefreshHandler`, which shares one refresh call between every request
 * that fails at the same time. Until a handler is installed, `createSimpleRefresh` does the same job
 * without the machine.
 */

export const ACCESS_TOKEN_KEY = 'access_token';
export const REFRESH_TOKEN_KEY = 'refresh_token';
export const API_BASE = '/api/v1';

export const NETWORK_ERROR = 'Network Error';
export const TIMEOUT_ERROR = 'timeout exceeded';
export const NO_REFRESH_TOKEN = 'No refresh token';

/** Every failed call throws one of these. `status` is 0 when no HTTP answer arrived. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly body: unknown;

  constructor(status: number, detail: string, body?: unknown) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.body = body;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** The text a screen shows for an error: the server's detail, else the error's message. */
export function errorDetail(e: unknown): string | undefined {
  if (e instanceof ApiError) return e.detail || undefined;
  if (e instanceof Error) return e.message || undefined;
  return undefined;
}

/** The slice of localStorage the client and the session use. */
export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface Tokens {
  access_token: string;
  refresh_token: string;
}

export function readTokens(storage: TokenStorage): { access: string | null; refresh: string | null } {
  return { access: storage.getItem(ACCESS_TOKEN_KEY), refresh: storage.getItem(REFRESH_TOKEN_KEY) };
}

export function storeTokens(storage: TokenStorage, tokens: Tokens): void {
  storage.setItem(ACCESS_TOKEN_KEY, tokens.access_token);
  storage.setItem(REFRESH_TOKEN_KEY, tokens.refresh_token);
}

export function clearTokens(storage: TokenStorage): void {
  storage.removeItem(ACCESS_TOKEN_KEY);
  storage.removeItem(REFRESH_TOKEN_KEY);
}

/**
 * Gets a fresh access token after a 401. `failedToken` is the access token the failed request
 * carried (null if none): when a newer one is already stored, another request's refresh has done
 * the work and no new refresh is needed. Resolves once new tokens are stored; rejects (with the
 * error the caller should see) when the session cannot be refreshed.
 */
export type RefreshHandler = (failedToken?: string | null) => Promise<void>;

export interface RequestOptions {
  signal?: AbortSignal;
  /** Sent as the Idempotency-Key header (creates that must not happen twice). */
  idempotencyKey?: string;
  /** Milliseconds; on expiry the call fails with 'timeout exceeded'. None unless given. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Send no bearer header (the refresh call). */
  anonymous?: boolean;
  /** Leave a 401 alone: no refresh, no retry (sign-in, refresh and the password calls). */
  noRefresh?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RawRequest extends RequestOptions {
  method: Method;
  path: string;
  body?: unknown;
  responseType: 'json' | 'blob' | 'jsonWithHeaders';
  /** Set on the retry after a refresh: this request is never refreshed twice. */
  retried?: boolean;
}

export interface ApiClientDeps {
  /** Looked up on every call, so tests and the browser can supply their own. */
  fetch: () => typeof fetch;
  storage: () => TokenStorage;
  baseUrl?: string;
}

export interface ApiClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  del<T = void>(path: string, options?: RequestOptions): Promise<T>;
  /** multipart/form-data (the browser sets the boundary). */
  upload<T>(path: string, form: FormData, options?: RequestOptions): Promise<T>;
  /** A binary answer (PDF, CSV). */
  blob(path: string, options?: RequestOptions): Promise<Blob>;
  /** A GET whose answer headers matter too (paged lists: X-Next-Cursor, X-Total-Count). */
  getWithHeaders<T>(path: string, options?: RequestOptions): Promise<{ data: T; headers: Headers }>;
  /** Installs the session's refresh (machines/session.ts). Returns a function that removes it. */
  setRefreshHandler(handler: RefreshHandler): () => void;
  /** The refresh call itself: no bearer header, outside the automatic refresh handling. */
  refreshTokens(refreshToken: string): Promise<Tokens>;
}

const isAbort = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';

function detailOf(status: number, body: unknown): string {
  if (body && typeof body === 'object' && 'detail' in body) {
    const d = (body as { detail: unknown }).detail;
    if (typeof d === 'string' && d !== '') return d;
    if (Array.isArray(d)) {
      const texts = d.map((x) => (x && typeof x === 'object' && 'msg' in x ? String((x as { msg: unknown }).msg) : String(x)));
      if (texts.length > 0) return texts.join('; ');
    }
  }
  return `Request failed with status code ${status}`;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (text === '') return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const base = deps.baseUrl ?? API_BASE;
  let refreshHandler: RefreshHandler | null = null;
  const fallbackRefresh = createSimpleRefresh({
    storage: deps.storage,
    refresh: (token) => refreshTokens(token),
    goToLogin: () => {
      if (typeof window !== 'undefined') window.location.assign('/login');
    },
  });

  async function send(req: RawRequest): Promise<unknown> {
    const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
    let body: BodyInit | undefined;
    if (req.body instanceof FormData) {
      body = req.body;
    } else if (req.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    if (req.idempotencyKey) headers['Idempotency-Key'] = req.idempotencyKey;
    const sentToken = req.anonymous ? null : deps.storage().getItem(ACCESS_TOKEN_KEY);
    if (sentToken) headers.Authorization = `Bearer ${sentToken}`;

    const timeout = req.timeoutMs !== undefined ? AbortSignal.timeout(req.timeoutMs) : undefined;
    const signals = [req.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);

    let res: Response;
    try {
      res = await deps.fetch()(`${base}${req.path}`, { method: req.method, headers, body, signal, credentials: 'same-origin' });
    } catch (e) {
      if (timeout?.aborted && !req.signal?.aborted) throw new ApiError(0, TIMEOUT_ERROR);
      if (req.signal?.aborted || isAbort(e)) throw e;
      throw new ApiError(0, NETWORK_ERROR);
    }

    if (res.ok) {
      try {
        if (req.responseType === 'jsonWithHeaders') return { data: await readBody(res), headers: res.headers };
        return req.responseType === 'blob' ? await res.blob() : await readBody(res);
      } catch (e) {
        if (timeout?.aborted && !req.signal?.aborted) throw new ApiError(0, TIMEOUT_ERROR);
        if (req.signal?.aborted || isAbort(e)) throw e;
        throw new ApiError(0, NETWORK_ERROR);
      }
    }

    const errorBody = await readBody(res).catch(() => undefined);
    const error = new ApiError(res.status, detailOf(res.status, errorBody), errorBody);
    if (res.status !== 401 || req.noRefresh || req.retried) throw error;

    // One refresh for this request, then one retry with the new token; a refresh failure is the
    // caller's error.
    await (refreshHandler ?? fallbackRefresh)(sentToken);
    return send({ ...req, retried: true });
  }

  async function refreshTokens(refreshToken: string): Promise<Tokens> {
    const pair = (await send({
      method: 'POST',
      path: '/auth/refresh',
      body: { refresh_token: refreshToken },
      responseType: 'json',
      anonymous: true,
      noRefresh: true,
    })) as Partial<Tokens> | undefined;
    if (!pair || typeof pair.access_token !== 'string' || typeof pair.refresh_token !== 'string') {
      throw new ApiError(401, 'Invalid refresh response', pair);
    }
    return { access_token: pair.access_token, refresh_token: pair.refresh_token };
  }

  const json = <T>(method: Method, path: string, body: unknown, options: RequestOptions = {}): Promise<T> =>
    send({ ...options, method, path, body, responseType: 'json' }) as Promise<T>;

  return {
    get: (path, options) => json('GET', path, undefined, options),
    post: (path, body, options) => json('POST', path, body, options),
    put: (path, body, options) => json('PUT', path, body, options),
    patch: (path, body, options) => json('PATCH', path, body, options),
    del: (path, options) => json('DELETE', path, undefined, options),
    upload: (path, form, options) => json('POST', path, form, options),
    blob: (path, options = {}) => send({ ...options, method: 'GET', path, responseType: 'blob' }) as Promise<Blob>,
    getWithHeaders: <T>(path: string, options: RequestOptions = {}) =>
      send({ ...options, method: 'GET', path, responseType: 'jsonWithHeaders' }) as Promise<{ data: T; headers: Headers }>,
    setRefreshHandler(handler) {
      refreshHandler = handler;
      return () => {
        if (refreshHandler === handler) refreshHandler = null;
      };
    },
    refreshTokens,
  };
}

/**
 * A refresh without the session machine: concurrent callers share one call; success stores both new
 * tokens; failure (or no refresh token) clears both, does a full page load to /login and rejects
 * with the error. The session machine does the same and also ends the signed-in state.
 */
export function createSimpleRefresh(deps: {
  storage: () => TokenStorage;
  refresh: (refreshToken: string) => Promise<Tokens>;
  goToLogin: () => void;
}): RefreshHandler {
  let inFlight: Promise<void> | null = null;
  return (failedToken = null) => {
    const current = deps.storage().getItem(ACCESS_TOKEN_KEY);
    if (!inFlight && current !== null && failedToken !== null && current !== failedToken) return Promise.resolve();
    inFlight ??= (async () => {
      const storage = deps.storage();
      try {
        const token = storage.getItem(REFRESH_TOKEN_KEY);
        if (!token) throw new ApiError(401, NO_REFRESH_TOKEN);
        storeTokens(storage, await deps.refresh(token));
      } catch (e) {
        clearTokens(storage);
        deps.goToLogin();
        throw e;
      }
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/** The browser's client: window.fetch and localStorage, looked up at call time. */
export const api: ApiClient = createApiClient({
  fetch: () => globalThis.fetch.bind(globalThis),
  storage: () => globalThis.localStorage,
});
