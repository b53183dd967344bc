import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { decideAccess } from '../access';
import type { AppRoute } from '../routing/routes';
import { authStatusAtom, currentUserAtom } from '../state/auth';
import { Loading } from '../components/Loading';
import { AFTER_SIGN_IN, loginPath, safeRedirect } from '../routing/redirect';

export const FORBIDDEN_PATH = '/403';
export const CHANGE_PASSWORD_PATH = '/change-password';

/** Shows the screen to whoever the route admits and sends everyone else where they belong. */
export function Guard({ route, children }: { route: AppRoute; children: ReactNode }) {
  const status = useAtomValue(authStatusAtom);
  const user = useAtomValue(currentUserAtom);
  const location = useLocation();
  const [search] = useSearchParams();

  if (route.requiredQuery?.some((name) => !search.get(name))) return <Navigate to={FORBIDDEN_PATH} replace />;

  // A password an Admin set must be replaced before anything else (the server refuses the rest too).
  if (status === 'signedIn' && user?.mustChangePassword && route.access.kind !== 'public' && route.path !== CHANGE_PASSWORD_PATH) {
    return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  }

  switch (decideAccess(route.access, status, user)) {
    case 'allow':
      return children;
    case 'wait':
      return <Loading label="Checking your session…" />;
    case 'leave':
      return <Navigate to={safeRedirect(search.get('redirect')) ?? AFTER_SIGN_IN} replace />;
    case 'signIn':
      return <Navigate to={loginPath(location.pathname + location.search + location.hash)} replace />;
    case 'forbidden':
      return <Navigate to={FORBIDDEN_PATH} replace />;
  }
}
