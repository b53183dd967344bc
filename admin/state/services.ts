/**
 * Hands the session (and its API client) to the component tree. Injected rather than
 * imported so tests run the real screens against a fake server.
 */
import { createContext, useContext, useMemo } from 'react';
import type { ApiClient } from '@core/api/client';
import type { Session } from './session';

/** Provided by admin/providers.tsx. */
export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs <AdminProviders>.');
  return session;
}

/**
 * One of core/api's resource modules bound to the session's client, e.g.
 * `const sponsors = useApi(sponsorsApi)`. The factory must be a stable (module-level) function.
 */
export function useApi<T>(factory: (client: ApiClient) => T): T {
  const { client } = useSession();
  return useMemo(() => factory(client), [factory, client]);
}
