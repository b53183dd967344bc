/** The admin's entry: one session and store for the page, the routes, and the first render. */
// First, so the shared styles come before every folder's own (the layouts' and the screens').
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createStore } from 'jotai';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { canSee } from './access';
import { buildRoutes, preloadAhead, startScreen } from './router';
import { StartScreenContext } from './routing/ahead';
import { authStatusAtom, currentUserAtom } from './state/auth';
import { createSession } from './state/session';
import { AdminProviders } from './providers';
import { cookieTokenStore } from './state/tokens';

const store = createStore();
// The server serves the admin, so the API shares its origin.
const session = createSession({ baseUrl: `${window.location.origin}/api`, tokens: cookieTokenStore(), store });

// A screen's requests are made ahead only for whom its route admits, so only once the session is known.
let restored = false;
const start = (location: { pathname: string; search: string }) =>
  startScreen(location, (route) => {
    const user = store.get(currentUserAtom);
    return restored && canSee(route.access, store.get(authStatusAtom), user) ? { client: session.prefetchClient, user } : null;
  });

const router = createBrowserRouter(buildRoutes());
// Called as a navigation commits, before React renders the screen (whose requests then find
// these); once per location, as the router also reports changes that are not navigations.
let startedKey = router.state.location.key;
router.subscribe((state) => {
  if (state.location.key === startedKey) return;
  startedKey = state.location.key;
  start(state.location);
});
start(window.location);
// The routes' calls, for the clicks to come, once signed in and the first screen has had the line.
const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1000));
store.sub(authStatusAtom, () => store.get(authStatusAtom) === 'signedIn' && idle(preloadAhead));
void session.restore().then(() => {
  restored = true;
  start(router.state.location);
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

createRoot(root).render(
  <StrictMode>
    <AdminProviders session={session} store={store}>
      <StartScreenContext.Provider value={start}>
        <RouterProvider router={router} />
      </StartScreenContext.Provider>
    </AdminProviders>
  </StrictMode>,
);
