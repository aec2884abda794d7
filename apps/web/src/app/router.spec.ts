import { describe, expect, it } from 'vitest';
import { createAppRouter } from './router.tsx';
import { createQueryClient } from './queryClient.ts';
import { createSignedOutAuth } from './auth.ts';
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
  '/app',
  '/app/home',
  '/app/calculator',
  '/app/invoices',
  '/app/invoices/$id',
  '/app/clients',
  '/app/reports',
  '/app/settings',
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

  it('/register and /signup show the same screen', () => {
    const register = router.routesByPath['/register'];
    const signup = router.routesByPath['/signup'];
    expect(register.options.component).toBe(signup.options.component);
  });
});
