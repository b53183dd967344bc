import { generatePath } from 'react-router-dom';
import type { AppRoute } from '../routing/routes';
import type { Crumb } from '../state/topBar';

export const HOME_CRUMB: Crumb = { label: 'Home', to: '/' };

function fill(path: string, params: Record<string, string | undefined>): string | undefined {
  try {
    return generatePath(path, params as Record<string, string>);
  } catch {
    return undefined; // A param the route lacks: show the crumb without a link.
  }
}

/** Home, the route's parents, then the current page (SPEC section 2's trails). */
export function breadcrumbTrail(route: AppRoute, params: Record<string, string | undefined>, objectTitle: string | undefined): Crumb[] {
  const trail: Crumb[] = [HOME_CRUMB];
  for (const crumb of route.crumbs) {
    if ('objectTitle' in crumb) {
      if (objectTitle) trail.push({ label: objectTitle, to: fill(crumb.to, params) });
    } else {
      trail.push({ label: crumb.label, to: fill(crumb.to, params) });
    }
  }
  trail.push({ label: route.current ?? objectTitle ?? route.title });
  return trail;
}
