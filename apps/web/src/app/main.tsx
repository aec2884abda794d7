/**
 * The app shell (dist/spa.html): the full router for guest and signed-in screens. Public pages use
 * their own tiny entry (boot/public-entry.ts) and never load this file.
 */
import '../styles/index.css';
import '../styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { createAppRouter, preloadScreenAt } from './router.tsx';
import { createQueryClient } from './queryClient.ts';
import { createSessionAuth } from './auth.ts';
import { api } from '../api/client.ts';
import { watchConnection } from '../boot/offline.ts';
import { registerServiceWorker } from '../boot/serviceWorker.ts';

watchConnection(window);
registerServiceWorker(window);

const queryClient = createQueryClient();
// The session machine, wired into the api client's refresh; the start-up check begins here.
const auth = createSessionAuth({
  api,
  storage: () => window.localStorage,
  goToLogin: () => window.location.assign('/login'),
});
const router = createAppRouter({ auth, queryClient, api });
// The screen's code starts loading now, beside the session check, not after React's first render.
preloadScreenAt(router, window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('spa.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
