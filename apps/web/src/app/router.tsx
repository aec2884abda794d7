import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { api as browserApi, type ApiClient } from '../api/client.ts';
import type { Auth } from './auth.ts';
import { loadCalculator, loadClientHistory, loadClients, loadInvoiceDetail, loadInvoices, loadSettings } from './loaders.ts';
import { RootLayout } from './RootLayout.tsx';
import { AppLayout } from './AppLayout.tsx';
import { GuestLayout } from './GuestLayout.tsx';
import { FullPageLoading } from '../ui/FullPageLoading.tsx';
import { NotFound } from './NotFound.tsx';
import { publicPages } from '../public/pages.ts';
import { validateInvoicesSearch } from '../screens/invoices/search.ts';
import { validateSettingsSearch } from '../screens/settings/search.ts';

/** What every route can read in `beforeLoad`/`loader`: the session seam, the query cache and the api client the loaders fetch with. */
export interface RouterContext {
  auth: Auth;
  queryClient: QueryClient;
  api: ApiClient;
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The page's <title> (the signed-in screens and auth screens; public pages have theirs pre-rendered). */
    title?: string;
  }
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

// ---------------------------------------------------------------------------------------------
// Public pages. On a real visit they arrive pre-rendered (dist/<route>/index.html); these routes
// render the same components when the app navigates to them or when no pre-rendered file exists.
// ---------------------------------------------------------------------------------------------
const publicLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'public',
  component: lazyRouteComponent(() => import('../public/PublicLayout.tsx'), 'PublicLayout'),
});

const titleOf = (path: string): string => publicPages.find((p) => p.path === path)?.title ?? 'Tradie Quotes';
const pageOf = (path: string) => {
  const page = publicPages.find((p) => p.path === path);
  if (!page) throw new Error(`No public page for ${path}`);
  return lazyRouteComponent(page.load);
};

/** The route of the public page at `path`, with its component and title from public/pages.ts. */
const publicRoute = <TPath extends string>(path: TPath) =>
  createRoute({ getParentRoute: () => publicLayout, path, component: pageOf(path), staticData: { title: titleOf(path) } });

const landingRoute = publicRoute('/');
const featuresRoute = publicRoute('/features');
const pricingRoute = publicRoute('/pricing');
const howItWorksRoute = publicRoute('/how-it-works');
const privacyRoute = publicRoute('/privacy');
const termsRoute = publicRoute('/terms');
const aboutRoute = publicRoute('/about');
const supportRoute = publicRoute('/support');

// ---------------------------------------------------------------------------------------------
// Guest-only: a signed-in user is sent to /app/home.
// ---------------------------------------------------------------------------------------------
const guestLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guest',
  beforeLoad: async ({ context }) => {
    await context.auth.settled();
    if (context.auth.isAuthenticated) throw redirect({ to: '/app/home' });
  },
  component: GuestLayout,
});

/** The ?token= of a link from an email (reset password, confirm email); anything else is dropped. */
export interface TokenSearch {
  token?: string;
}
const validateTokenSearch = (search: Record<string, unknown>): TokenSearch => (typeof search.token === 'string' && search.token !== '' ? { token: search.token } : {});

const loginScreen = lazyRouteComponent(() => import('../screens/login/LoginScreen.tsx'), 'LoginScreen');
const registerScreen = lazyRouteComponent(() => import('../screens/register/RegisterScreen.tsx'), 'RegisterScreen');

const loginRoute = createRoute({ getParentRoute: () => guestLayout, path: '/login', component: loginScreen, staticData: { title: 'Sign in | Tradie Quotes' } });
const registerRoute = createRoute({ getParentRoute: () => guestLayout, path: '/register', component: registerScreen, staticData: { title: 'Start your free trial | Tradie Quotes' } });
/** /signup is the same sign-up screen as /register. */
const signupRoute = createRoute({ getParentRoute: () => guestLayout, path: '/signup', component: registerScreen, staticData: { title: 'Start your free trial | Tradie Quotes' } });
const forgotPasswordRoute = createRoute({
  getParentRoute: () => guestLayout,
  path: '/forgot-password',
  component: lazyRouteComponent(() => import('../screens/forgot-password/ForgotPasswordScreen.tsx'), 'ForgotPasswordScreen'),
  staticData: { title: 'Forgot password | Tradie Quotes' },
});
const resetPasswordRoute = createRoute({
  getParentRoute: () => guestLayout,
  path: '/reset-password',
  validateSearch: validateTokenSearch,
  component: lazyRouteComponent(() => import('../screens/reset-password/ResetPasswordScreen.tsx'), 'ResetPasswordScreen'),
  staticData: { title: 'Reset password | Tradie Quotes' },
});

// ---------------------------------------------------------------------------------------------
// Open to everyone, signed in or not (the guest frame, no redirect): a link from an email opens
// here on whichever device has the email.
// ---------------------------------------------------------------------------------------------
const openLayout = createRoute({ getParentRoute: () => rootRoute, id: 'open', component: GuestLayout });
const confirmEmailRoute = createRoute({
  getParentRoute: () => openLayout,
  path: '/confirm-email',
  validateSearch: validateTokenSearch,
  component: lazyRouteComponent(() => import('../screens/confirm-email/ConfirmEmailScreen.tsx'), 'ConfirmEmailScreen'),
  staticData: { title: 'Confirm your email | Tradie Quotes' },
});

// ---------------------------------------------------------------------------------------------
// A client's quote or invoice, from the link the tradie sent: no sign-in, no app frame (the page
// shows the tradie's business). Their code loads only when such a link is opened.
// ---------------------------------------------------------------------------------------------
export interface ClientInvoiceSearch {
  /** Back from Stripe Checkout (?paid=1). */
  paid?: 1;
}
const clientQuoteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/q/$token',
  component: lazyRouteComponent(() => import('../screens/client-links/ClientQuotePage.tsx'), 'ClientQuotePage'),
  pendingComponent: FullPageLoading,
  staticData: { title: 'Your quote' },
});
const clientInvoiceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/i/$token',
  validateSearch: (search: Record<string, unknown>): ClientInvoiceSearch => (search.paid === 1 || search.paid === '1' || search.paid === true ? { paid: 1 } : {}),
  component: lazyRouteComponent(() => import('../screens/client-links/ClientInvoicePage.tsx'), 'ClientInvoicePage'),
  pendingComponent: FullPageLoading,
  staticData: { title: 'Your invoice' },
});

// ---------------------------------------------------------------------------------------------
// Signed in: a signed-out user is sent to /login. While the session check runs: 'Loading...'.
// ---------------------------------------------------------------------------------------------
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/app',
  beforeLoad: async ({ context, matches }) => {
    // The screen's code is fetched while the session check runs, not after it (on a slow signal
    // that is a round trip and more saved before the screen can be used).
    preloadScreens(matches);
    await context.auth.settled();
    if (!context.auth.isAuthenticated) throw redirect({ to: '/login' });
  },
  pendingComponent: FullPageLoading,
  component: AppLayout,
});

const appIndexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/app/home' });
  },
});
const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'home',
  component: lazyRouteComponent(() => import('../screens/home/HomeScreen.tsx'), 'HomeScreen'),
  staticData: { title: 'Home | Tradie Quotes' },
});
const calculatorRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'calculator',
  loader: (match) => loadCalculator(match),
  component: lazyRouteComponent(() => import('../screens/calculator/CalculatorScreen.tsx'), 'CalculatorScreen'),
  staticData: { title: 'Quote & Profit Calculator | Tradie Quotes' },
});
const invoicesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'invoices',
  // ?tab= and a filter (?status=, ?from=, ?to=), see screens/invoices/search.ts.
  validateSearch: validateInvoicesSearch,
  loaderDeps: ({ search }) => search,
  loader: (match) => loadInvoices(match, match.deps),
  component: lazyRouteComponent(() => import('../screens/invoices/InvoicesScreen.tsx'), 'InvoicesScreen'),
  staticData: { title: 'Invoices & Quotes | Tradie Quotes' },
});
const invoiceDetailRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'invoices/$id',
  loader: (match) => loadInvoiceDetail(match, match.params.id),
  component: lazyRouteComponent(() => import('../screens/invoice-detail/InvoiceDetailScreen.tsx'), 'InvoiceDetailScreen'),
  staticData: { title: 'Invoice Detail | Tradie Quotes' },
});
export interface ClientsSearch {
  /** The Clients screen's search box, kept in the address so Back from a client's history restores it. */
  q?: string;
}
const clientsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'clients',
  validateSearch: (search: Record<string, unknown>): ClientsSearch => (typeof search.q === 'string' && search.q !== '' ? { q: search.q } : {}),
  loader: (match) => loadClients(match),
  component: lazyRouteComponent(() => import('../screens/clients/ClientsScreen.tsx'), 'ClientsScreen'),
  staticData: { title: 'Clients | Tradie Quotes' },
});
/** A client's invoice history (quotes, invoices, totals, balance owing), opened from a client card. */
const clientHistoryRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'clients/$id',
  loader: (match) => loadClientHistory(match, match.params.id),
  component: lazyRouteComponent(() => import('../screens/clients/ClientHistoryScreen.tsx'), 'ClientHistoryScreen'),
  staticData: { title: 'Client History | Tradie Quotes' },
});
const reportsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'reports',
  component: lazyRouteComponent(() => import('../screens/reports/ReportsScreen.tsx'), 'ReportsScreen'),
  staticData: { title: 'Tax Reports | Tradie Quotes' },
});
/** The price book: items with supplier costs, search, add and edit, a supplier's CSV price list imported. */
const priceBookRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'price-book',
  component: lazyRouteComponent(() => import('../screens/price-book/PriceBookScreen.tsx'), 'PriceBookScreen'),
  staticData: { title: 'Price Book | Tradie Quotes' },
});
/** Costs: receipts, bills, expenses and hours, against a job or the business. */
export interface CostsSearch {
  record?: 'cost' | 'hours';
  job?: string;
}
const costsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'costs',
  // ?record=cost|hours&job={quoteId}: the form opens at once for that job (the Job profit card's buttons).
  validateSearch: (search: Record<string, unknown>): CostsSearch => ({
    ...(search.record === 'cost' || search.record === 'hours' ? { record: search.record } : {}),
    ...(typeof search.job === 'string' && search.job.length > 0 && search.job.length <= 100 ? { job: search.job } : {}),
  }),
  component: lazyRouteComponent(() => import('../screens/costs/CostsScreen.tsx'), 'CostsScreen'),
  staticData: { title: 'Costs | Tradie Quotes' },
});

// The first-run set-up after sign-up (screens/setup/).
const setupRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'setup',
  component: lazyRouteComponent(() => import('../screens/setup/SetupScreen.tsx'), 'SetupScreen'),
  staticData: { title: 'Set up your business | Tradie Quotes' },
});
const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'settings',
  // ?tab= (the selected tab) and ?checkout= (Stripe's return), see screens/settings/search.ts.
  validateSearch: validateSettingsSearch,
  loader: (match) => loadSettings(match),
  component: lazyRouteComponent(() => import('../screens/settings/SettingsScreen.tsx'), 'SettingsScreen'),
  staticData: { title: 'Settings | Tradie Quotes' },
});

/** Starts loading the code of the signed-in screens among `matches` (errors surface when the route renders). */
function preloadScreens(matches: readonly { routeId: string }[]): void {
  for (const match of matches) {
    const screen = appScreens.find((route) => route.id === match.routeId);
    const component = screen?.options.component as { preload?: () => Promise<void> } | undefined;
    void component?.preload?.().catch(() => undefined);
  }
}

const appScreens = [homeRoute, calculatorRoute, invoicesRoute, invoiceDetailRoute, clientsRoute, clientHistoryRoute, reportsRoute, priceBookRoute, costsRoute, settingsRoute, setupRoute];

export const routeTree = rootRoute.addChildren([
  publicLayout.addChildren([
    landingRoute,
    featuresRoute,
    pricingRoute,
    howItWorksRoute,
    privacyRoute,
    termsRoute,
    aboutRoute,
    supportRoute,
  ]),
  guestLayout.addChildren([loginRoute, registerRoute, signupRoute, forgotPasswordRoute, resetPasswordRoute]),
  openLayout.addChildren([confirmEmailRoute]),
  clientQuoteRoute,
  clientInvoiceRoute,
  appRoute.addChildren([
    appIndexRoute,
    homeRoute,
    calculatorRoute,
    invoicesRoute,
    invoiceDetailRoute,
    clientsRoute,
    clientHistoryRoute,
    reportsRoute,
    priceBookRoute,
    costsRoute,
    settingsRoute,
    setupRoute,
  ]),
]);

export interface AppRouterOptions {
  /** The browser's address bar unless given (tests hand in a memory history). */
  history?: RouterHistory;
}

/** The api client defaults to the browser's; tests hand in their own. */
export function createAppRouter({ api = browserApi, ...context }: Omit<RouterContext, 'api'> & { api?: ApiClient }, options: AppRouterOptions = {}) {
  return createRouter({
    routeTree,
    context: { ...context, api },
    ...options,
    // A link's intent preloads the route: its screen's code, and its data unless the connection is
    // slow or Save-Data is on (app/loaders.ts).
    defaultPreload: 'intent',
    // The loaders only start queries; the query cache decides what is fresh, so they run on every
    // preload and navigation.
    defaultPreloadStaleTime: 0,
    defaultPendingMs: 300,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFound,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * Starts loading the code of the signed-in screen at `pathname` at once, as the app starts: before
 * React's first render and the router's first load (the `/app` guard asks again; a started load is
 * not repeated).
 */
export function preloadScreenAt(router: AppRouter, pathname: string): void {
  const [routes] = router.getMatchedRoutes(pathname);
  preloadScreens(routes.map((route) => ({ routeId: route.id })));
}

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

