/** The admin's entry: one session and store for the page, the routes, and the first render. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createStore } from 'jotai';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { buildRoutes } from './router';
import { createSession } from './state/session';
import { AdminProviders } from './providers';
import { cookieTokenStore } from './state/tokens';
import './styles.css';

const store = createStore();
// The server serves the admin, so the API shares its origin.
const session = createSession({ baseUrl: `${window.location.origin}/api`, tokens: cookieTokenStore(), store });
void session.restore();

const router = createBrowserRouter(buildRoutes());
const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

createRoot(root).render(
  <StrictMode>
    <AdminProviders session={session} store={store}>
      <RouterProvider router={router} />
    </AdminProviders>
  </StrictMode>,
);
