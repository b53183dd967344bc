/**
 * The router: each route of the table (routing/routes.ts) with its lazily loaded screen, under
 * its layout and guard. Only the entry imports this file; screens link through `pathTo` in the
 * table, so no screen imports the others.
 */
import type { ComponentType } from 'react';
import { Navigate, matchRoutes, type RouteObject } from 'react-router-dom';
import { ROUTES, type Layout, type RouteName, type TableRoute } from './routing/routes';
import { lazyScreen, type LazyScreen } from './routing/lazyScreen';
import { lazyAhead, type AheadContext, type LazyAhead } from './routing/ahead';
import { preloadCharts } from './components/charts/lazy';
import { AppLayout } from './layouts/AppLayout';
import { Guard } from './layouts/Guard';
import { CardLayout, PublicLayout } from './layouts/PublicLayout';
import { useAtomValue } from 'jotai';
import { homePathOf } from './access';
import { currentUserAtom } from './state/auth';

/** Every route's screen; `null` for a route that only redirects. */
export const SCREENS: { readonly [N in RouteName]: LazyScreen | null } = {
  Dashboard: null,
  Login: lazyScreen(() => import('./sections/auth/Login')),
  Logout: lazyScreen(() => import('./sections/auth/Logout')),
  AuthServiceLogout: lazyScreen(() => import('./sections/auth/AuthServiceLogout')),
  Forbidden: lazyScreen(() => import('./sections/errors/Forbidden')),
  ChangePassword: lazyScreen(() => import('./sections/profile/ChangePassword')),
  TwoFactor: lazyScreen(() => import('./sections/profile/TwoFactor')),
  About: lazyScreen(() => import('./sections/about/About')),
  Recruitment: lazyScreen(() => import('./sections/recruitment/Recruitment')),
  SponsorsIndex: lazyScreen(() => import('./sections/sponsors/Index')),
  SponsorsAdd: lazyScreen(() => import('./sections/sponsors/Add')),
  SponsorsEdit: lazyScreen(() => import('./sections/sponsors/Edit')),
  SponsorsView: lazyScreen(() => import('./sections/sponsors/View')),
  EngagementsIndex: lazyScreen(() => import('./sections/engagements/Index')),
  EngagementsAdd: lazyScreen(() => import('./sections/engagements/Add')),
  EngagementsEdit: lazyScreen(() => import('./sections/engagements/Edit')),
  EngagementsView: lazyScreen(() => import('./sections/engagements/View')),
  SiteAssociations: lazyScreen(() => import('./sections/engagements/SiteAssociations')),
  MediaChannelAdd: lazyScreen(() => import('./sections/media-channels/Add')),
  MediaChannelEdit: lazyScreen(() => import('./sections/media-channels/Edit')),
  MediaChannelView: lazyScreen(() => import('./sections/media-channels/View')),
  ScreenerIndex: lazyScreen(() => import('./sections/screeners/Index')),
  ScreenerAdd: lazyScreen(() => import('./sections/screeners/Add')),
  ScreenerEdit: lazyScreen(() => import('./sections/screeners/Edit')),
  ScreenerView: lazyScreen(() => import('./sections/screeners/View')),
  ScreenerAssociateSurveys: lazyScreen(() => import('./sections/screeners/AssociateSurveys')),
  VersionedSurveyIndex: lazyScreen(() => import('./sections/surveys/Index')),
  VersionedSurveyAdd: lazyScreen(() => import('./sections/surveys/Add')),
  VersionedSurveyEdit: lazyScreen(() => import('./sections/surveys/Edit')),
  VersionedSurveyView: lazyScreen(() => import('./sections/surveys/View')),
  VersionedSurveyEditScreener: lazyScreen(() => import('./sections/surveys/EditScreener')),
  SiteLocationsIndex: lazyScreen(() => import('./sections/site-locations/Index')),
  SiteLocationsAdd: lazyScreen(() => import('./sections/site-locations/Add')),
  SiteLocationsEdit: lazyScreen(() => import('./sections/site-locations/Edit')),
  SiteLocationsUpload: lazyScreen(() => import('./sections/site-locations/Upload')),
  SiteLocationsView: lazyScreen(() => import('./sections/site-locations/View')),
  SurveysIndex: lazyScreen(() => import('./sections/legacy-surveys/Index')),
  SurveysAdd: lazyScreen(() => import('./sections/legacy-surveys/Add')),
  SurveysEdit: lazyScreen(() => import('./sections/legacy-surveys/Edit')),
  SurveysView: lazyScreen(() => import('./sections/legacy-surveys/View')),
  UsersIndex: lazyScreen(() => import('./sections/users/Index')),
  UsersAdd: lazyScreen(() => import('./sections/users/Add')),
  UsersEdit: lazyScreen(() => import('./sections/users/Edit')),
  GenericMessagesIndex: lazyScreen(() => import('./sections/generic-messages/Index')),
  GenericMessagesEdit: lazyScreen(() => import('./sections/generic-messages/Edit')),
  ContactFieldsIndex: lazyScreen(() => import('./sections/contact-fields/Index')),
  ContactFieldsAdd: lazyScreen(() => import('./sections/contact-fields/Add')),
  ContactFieldsEdit: lazyScreen(() => import('./sections/contact-fields/Edit')),
  LanguagesIndex: lazyScreen(() => import('./sections/languages/Index')),
  LanguagesAdd: lazyScreen(() => import('./sections/languages/Add')),
  LanguagesEdit: lazyScreen(() => import('./sections/languages/Edit')),
  LanguagesView: lazyScreen(() => import('./sections/languages/View')),
  RmsAuditsIndex: lazyScreen(() => import('./sections/rms-audits/Index')),
  MessagesIndex: lazyScreen(() => import('./sections/messages/Index')),
  MessageTemplatesIndex: lazyScreen(() => import('./sections/messages/Templates')),
  ReferralsIndex: lazyScreen(() => import('./sections/referrals/Index')),
  ReferralsView: lazyScreen(() => import('./sections/referrals/View')),
  SitePerformance: lazyScreen(() => import('./sections/site-performance/Index')),
  LeadsIndex: lazyScreen(() => import('./sections/leads/Index')),
  RmsProvidersIndex: lazyScreen(() => import('./sections/rms-providers/Index')),
  RmsProvidersAdd: lazyScreen(() => import('./sections/rms-providers/Add')),
  RmsProvidersEdit: lazyScreen(() => import('./sections/rms-providers/Edit')),
  NotFound: lazyScreen(() => import('./sections/errors/NotFound')),
};

/**
 * Routes whose first requests are made ahead, while their screen's code loads. The calls are
 * code too (kept out of the first load); routing/ahead.ts fetches them once signed in, while idle.
 */
export const AHEAD: { readonly [N in RouteName]?: LazyAhead } = {
  Recruitment: lazyAhead(async () => (await import('./sections/recruitment/calls')).recruitmentAhead),
  SponsorsIndex: lazyAhead(async () => (await import('./sections/sponsors/listCalls')).sponsorsAhead),
  EngagementsView: lazyAhead(async () => (await import('./sections/engagements/viewCalls')).engagementViewAhead),
  ReferralsIndex: lazyAhead(async () => (await import('./sections/referrals/listCalls')).referralsAhead),
  EngagementsIndex: lazyAhead(async () => (await import('./sections/engagements/listCalls')).engagementsAhead),
  SiteLocationsIndex: lazyAhead(async () => (await import('./sections/site-locations/listCalls')).siteLocationsAhead),
  ScreenerIndex: lazyAhead(async () => (await import('./sections/screeners/listCalls')).screenersAhead),
  VersionedSurveyIndex: lazyAhead(async () => (await import('./sections/surveys/listCalls')).versionedSurveysAhead),
  SurveysIndex: lazyAhead(async () => (await import('./sections/legacy-surveys/listCalls')).surveysAhead),
  SitePerformance: lazyAhead(async () => (await import('./sections/site-performance/listCalls')).sitePerformanceAhead),
  LeadsIndex: lazyAhead(async () => (await import('./sections/leads/listCalls')).leadsAhead),
  UsersIndex: lazyAhead(async () => (await import('./sections/users/listCalls')).usersAhead),
  GenericMessagesIndex: lazyAhead(async () => (await import('./sections/generic-messages/listCalls')).genericMessagesAhead),
  LanguagesIndex: lazyAhead(async () => (await import('./sections/languages/listCalls')).languagesAhead),
  ContactFieldsIndex: lazyAhead(async () => (await import('./sections/contact-fields/listCalls')).contactFieldsAhead),
  RmsProvidersIndex: lazyAhead(async () => (await import('./sections/rms-providers/listCalls')).rmsProvidersAhead),
  RmsAuditsIndex: lazyAhead(async () => (await import('./sections/rms-audits/listCalls')).rmsAuditsAhead),
  MessagesIndex: lazyAhead(async () => (await import('./sections/messages/listCalls')).messagesAhead),
  MessageTemplatesIndex: lazyAhead(async () => (await import('./sections/messages/listCalls')).messageTemplatesAhead),
};

/**
 * Loads these routes' calls and their screens' code, so that a click finds both in memory; and
 * the charts, which Recruitment and the engagement view show as soon as their data arrives.
 */
export const preloadAhead = (): void => {
  preloadCharts();
  for (const route of ROUTES) {
    const ahead = AHEAD[route.name];
    if (!ahead) continue;
    ahead.preload();
    SCREENS[route.name]?.preload();
  }
};

/**
 * Starts what the screen at `location` will need: its code, and (when `asker` gives a client, i.e.
 * the user may open it) its first requests, so neither waits on the other. The entry calls it
 * on every navigation before the screen renders, and a nav link when pointed at.
 */
export function startScreen(location: { pathname: string; search: string }, asker: (route: TableRoute) => Pick<AheadContext, 'client' | 'user'> | null): void {
  const match = matchRoutes(MATCHABLE, location.pathname)?.at(-1);
  const route = match && TABLE_BY_MATCH.get(match.route);
  if (!match || !route) return;
  SCREENS[route.name]?.preload();
  const who = asker(route);
  if (who) AHEAD[route.name]?.run({ ...who, params: match.params, search: new URLSearchParams(location.search) });
}

const MATCHABLE = ROUTES.map((route) => ({ path: route.path }));
const TABLE_BY_MATCH = new Map<{ path: string }, TableRoute>(MATCHABLE.map((m, i) => [m, ROUTES[i]!]));

function RouteScreen({ route }: { route: TableRoute }) {
  const Screen = SCREENS[route.name];
  const user = useAtomValue(currentUserAtom);
  // Home is the sponsors for staff, the work queue for a Site Coordinator.
  const redirect = route.name === 'Dashboard' ? homePathOf(user) : route.redirect;
  const shown = redirect || !Screen ? <Navigate to={redirect ?? '/'} replace /> : <Screen />;
  return <Guard route={route}>{shown}</Guard>;
}

const LAYOUTS: Record<Layout, ComponentType> = {
  app: AppLayout,
  public: PublicLayout,
  card: CardLayout,
};

/** The table as React Router routes, grouped under their layouts. */
export function buildRoutes(table: readonly TableRoute[] = ROUTES): RouteObject[] {
  return (Object.keys(LAYOUTS) as Layout[]).map((layout) => {
    const LayoutComponent = LAYOUTS[layout];
    return {
      element: <LayoutComponent />,
      children: table.filter((route) => route.layout === layout).map((route) => ({ path: route.path, handle: route, element: <RouteScreen route={route} /> })),
    };
  });
}
