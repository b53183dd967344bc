import { useMatches } from 'react-router-dom';
import { ROUTES, type AppRoute } from './routes';

const known = new Set<unknown>(ROUTES);

/** The route-table entry being shown and its params, for layouts that sit above the screen. */
export function useCurrentRoute(): { route: AppRoute | null; params: Record<string, string | undefined> } {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i];
    if (match && known.has(match.handle)) return { route: match.handle as AppRoute, params: match.params };
  }
  return { route: null, params: {} };
}
