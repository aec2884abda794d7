// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory } from '@tanstack/react-router';
import { createApiClient, type TokenStorage } from '../api/client.ts';
import { documentDetailQuery } from '../screens/invoice-detail/queries.ts';
import { createAppRouter } from './router.tsx';
import { createQueryClient } from './queryClient.ts';
import { createSignedOutAuth, type Auth, type SessionUser } from './auth.ts';
import { publicPages } from '../public/pages.ts';

// The app's route table, every row.
const specRoutes = [
  '/',
  '/features',
  '/pricing',
  '/how-it-works',
  '/privacy',
  '/terms',
  '/about',
  '/support',
  '/login',
  '/register',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/confirm-email',
  '/q/$token',
  '/i/$token',
  '/app',
  '/app/home',
  '/app/calculator',
  '/app/invoices',
  '/app/invoices/$id',
  '/app/clients',
  '/app/reports',
  '/app/price-book',
  '/app/settings',
  '/app/setup',
];

describe('the router', () => {
  const router = createAppRouter({ auth: createSignedOutAuth(), queryClient: createQueryClient() });
  const registered = new Set(Object.keys(router.routesByPath).map((p) => (p === '/app/' ? '/app' : p)));

  it('registers every route of the route table', () => {
    for (const path of specRoutes) expect(registered, path).toContain(path);
  });

  it('registers every pre-rendered public page, and nothing else is pre-rendered', () => {
    expect(publicPages.map((p) => p.path).sort()).toEqual(specRoutes.slice(0, 8).sort());
  });

  it("a client's quote and invoice pages load their code only when opened, and ?paid=1 survives the address", () => {
    for (const path of ['/q/$token', '/i/$token'] as const) {
      const component = router.routesByPath[path].options.component as { preload?: unknown };
      expect(typeof component.preload, path).toBe('function');
    }
    const validate = router.routesByPath['/i/$token'].options.validateSearch as (s: Record<string, unknown>) => unknown;
    expect(validate({ paid: 1 })).toEqual({ paid: 1 });
    expect(validate({ paid: '1' })).toEqual({ paid: 1 });
    expect(validate({ paid: 0, session_id: 'cs_1' })).toEqual({});
  });

  it('/register and /signup show the same screen', () => {
    const register = router.routesByPath['/register'];
    const signup = router.routesByPath['/signup'];
    expect(register.options.component).toBe(signup.options.component);
  });
});

// ---- the loaders: a signed-in route starts its screen's queries as it is navigated to -----------

/** A signed-in session that needs no server. */
function signedInAuth(): Auth {
  return {
    status: 'signedIn',
    isAuthenticated: true,
    user: { id: 'u1', email: 'sam@example.com', full_name: 'Sam' } as SessionUser,
    settled: () => Promise.resolve(),
    login: () => Promise.resolve(),
    register: () => Promise.resolve(),
    logout: () => Promise.resolve(),
    subscribe: () => () => undefined,
  };
}

const tokens: TokenStorage = { getItem: (k) => (k === 'access_token' ? 'token' : null), setItem: () => undefined, removeItem: () => undefined };

interface Call {
  path: string;
  /** The router's status when the request went out: 'pending' = the route is still loading, nothing rendered. */
  routerStatus: string;
}

/**
 * A router on a memory history, signed in, whose api client's fetch is recorded. `answer` gives the
 * response for a path; by default a request never answers (a slow connection).
 */
function signedInRouter(answer: (path: string) => Promise<Response> = () => new Promise<Response>(() => undefined)) {
  const calls: Call[] = [];
  const queryClient = createQueryClient();
  const fetch = ((input: RequestInfo | URL) => {
    const path = String(input).replace(/^\/api\/v1/, '');
    calls.push({ path, routerStatus: router.state.status });
    return answer(path);
  }) as typeof globalThis.fetch;
  const api = createApiClient({ fetch: () => fetch, storage: () => tokens });
  const router = createAppRouter({ auth: signedInAuth(), queryClient, api }, { history: createMemoryHistory({ initialEntries: ['/'] }) });
  return { router, queryClient, api, calls, paths: () => calls.map((c) => c.path) };
}

const json = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

describe('the signed-in routes start their data as they are navigated to', () => {
  it('/app/invoices/$id: the quote or invoice is asked for while the route loads, before the screen can render, and the navigation does not wait for it', async () => {
    const { router, queryClient, api, calls } = signedInRouter();
    await router.navigate({ to: '/app/invoices/$id', params: { id: 'd1' } });

    expect(router.state.location.pathname).toBe('/app/invoices/d1');
    expect(router.state.status).toBe('idle');
    expect(calls).toEqual([{ path: '/invoices/d1', routerStatus: 'pending' }]);
    // The screen's own query joins the request under way: no second request.
    expect(queryClient.getQueryState(documentDetailQuery(api, 'd1').queryKey)?.fetchStatus).toBe('fetching');
    void queryClient.fetchQuery(documentDetailQuery(api, 'd1'));
    expect(calls).toHaveLength(1);
  });

  it('/app/invoices: the tab counts and the first page of the tab in the address, with its filter', async () => {
    const { router, paths } = signedInRouter();
    await router.navigate({ to: '/app/invoices', search: { tab: 'invoices', status: 'draft' } });
    expect(paths()).toEqual(['/invoices/counts', '/invoices?type=invoice&limit=50&status=draft']);
  });

  it('/app/invoices with no tab: the quotes (the tab the screen opens on); the templates tab asks only for the counts', async () => {
    const quotes = signedInRouter();
    await quotes.router.navigate({ to: '/app/invoices' });
    expect(quotes.paths()).toEqual(['/invoices/counts', '/invoices?type=quote&limit=50']);

    const templates = signedInRouter();
    await templates.router.navigate({ to: '/app/invoices', search: { tab: 'templates' } });
    expect(templates.paths()).toEqual(['/invoices/counts']);
  });

  it('/app/clients, /app/clients/$id, /app/calculator and /app/settings: what each screen reads first', async () => {
    const { router, paths } = signedInRouter();
    await router.navigate({ to: '/app/clients' });
    expect(paths()).toEqual(['/clients']);
    await router.navigate({ to: '/app/clients/$id', params: { id: 'c1' } });
    expect(paths().slice(1)).toEqual(['/clients/c1/documents']);

    const calculator = signedInRouter();
    await calculator.router.navigate({ to: '/app/calculator' });
    expect(calculator.paths()).toEqual(['/clients', '/business-settings']);

    const settings = signedInRouter();
    await settings.router.navigate({ to: '/app/settings' });
    expect(settings.paths()).toEqual(['/business-settings']);
  });

  it('/app/home and /app/reports read nothing until asked', async () => {
    const { router, paths } = signedInRouter();
    await router.navigate({ to: '/app/home' });
    await router.navigate({ to: '/app/reports' });
    expect(paths()).toEqual([]);
  });

  it('fresh data is not asked for again; a cached client history is left to the screen, which checks it as it opens', async () => {
    const { router, paths } = signedInRouter((path) => json(path === '/clients' ? [] : { client: { id: 'c1' }, documents: [] }));
    await router.navigate({ to: '/app/clients' });
    await router.navigate({ to: '/app/clients/$id', params: { id: 'c1' } });
    await vi.waitFor(() => expect(paths()).toEqual(['/clients', '/clients/c1/documents']));
    await router.navigate({ to: '/app/clients' });
    await router.navigate({ to: '/app/clients/$id', params: { id: 'c1' } });
    expect(paths()).toEqual(['/clients', '/clients/c1/documents']);
  });

  it('a failed request does not fail the route: the screen finds the error in its query, as before', async () => {
    const { router, queryClient, api } = signedInRouter(() => json({ detail: 'Not found' }, 404));
    await router.navigate({ to: '/app/invoices/$id', params: { id: 'gone' } });
    expect(router.state.matches.map((m) => m.status)).not.toContain('error');
    expect(router.state.location.pathname).toBe('/app/invoices/gone');
    await vi.waitFor(() => expect(queryClient.getQueryState(documentDetailQuery(api, 'gone').queryKey)?.status).toBe('error'), { timeout: 5000 });
  });

  it('signed out: nothing is asked for, the guard sends the visitor to /login', async () => {
    const calls: string[] = [];
    const api = createApiClient({ fetch: () => ((input: RequestInfo | URL) => (calls.push(String(input)), new Promise<Response>(() => undefined))) as typeof fetch, storage: () => tokens });
    const router = createAppRouter({ auth: createSignedOutAuth(), queryClient: createQueryClient(), api }, { history: createMemoryHistory({ initialEntries: ['/'] }) });
    await router.navigate({ to: '/app/invoices/$id', params: { id: 'd1' } });
    expect(router.state.location.pathname).toBe('/login');
    expect(calls).toEqual([]);
  });

  describe("a link's intent (preload)", () => {
    afterEach(() => vi.unstubAllGlobals());

    it('starts the data with the code on a fast connection', async () => {
      vi.stubGlobal('navigator', { connection: { saveData: false, effectiveType: '4g' } });
      const { router, paths } = signedInRouter();
      await router.preloadRoute({ to: '/app/invoices/$id', params: { id: 'd1' } });
      expect(paths()).toEqual(['/invoices/d1']);
    });

    it('with Save-Data or on a slow connection, fetches no data until the tap', async () => {
      for (const connection of [{ saveData: true, effectiveType: '4g' }, { saveData: false, effectiveType: '3g' }]) {
        vi.stubGlobal('navigator', { connection });
        const { router, paths } = signedInRouter();
        await router.preloadRoute({ to: '/app/invoices/$id', params: { id: 'd1' } });
        expect(paths()).toEqual([]);
        await router.navigate({ to: '/app/invoices/$id', params: { id: 'd1' } });
        expect(paths()).toEqual(['/invoices/d1']);
      }
    });
  });
});
