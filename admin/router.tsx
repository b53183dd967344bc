/**
 * The one route table: every path of SPEC section 2 with its route name, who may open it,
 * its layout, its breadcrumb trail and its lazily loaded screen. Navigation, guards, the top
 * bar and links all read from here (routing/buildRoutes.tsx turns it into React Router routes).
 */
import { generatePath } from 'react-router-dom';
import { ADMIN_OR_SUPER_USER, ANONYMOUS, PUBLIC, SIGNED_IN, SUPER_USER, type Access } from './access';
import { lazyScreen, type LazyScreen } from './routing/lazyScreen';

export type Layout = 'app' | 'public' | 'card';

/** A crumb between Home and the current page; `to` may hold the route's :params. */
export type CrumbDef = { readonly label: string; readonly to: string } | { readonly objectTitle: true; readonly to: string };

export interface AppRoute<N extends string = string> {
  readonly name: N;
  readonly path: string;
  /** The top bar's action title and the page title. */
  readonly title: string;
  readonly access: Access;
  readonly layout: Layout;
  readonly crumbs: readonly CrumbDef[];
  /** Label of the last crumb; when absent the screen's object title, else `title`. */
  readonly current?: string;
  /** Query parameters without which the route is forbidden. */
  readonly requiredQuery?: readonly string[];
  /** Where the route sends visitors instead of showing a screen. */
  readonly redirect?: string;
  readonly screen: LazyScreen;
}

type RouteOptions = Partial<Omit<AppRoute, 'name' | 'path' | 'title' | 'access'>>;

// Sections of later issues share this screen until they are built.
const placeholder = lazyScreen(() => import('./sections/Placeholder'));

const route = <const N extends string>(
  name: N,
  path: string,
  title: string,
  access: Access,
  options: RouteOptions = {},
): AppRoute<N> => ({ name, path, title, access, layout: 'app', crumbs: [], screen: placeholder, ...options });

const SPONSORS = { label: 'Sponsors', to: '/sponsors' };
const ENGAGEMENTS = { label: 'Engagements', to: '/engagements' };
const SCREENERS = { label: 'Screeners', to: '/screeners' };
const VERSIONED_SURVEYS = { label: 'Versioned Surveys', to: '/surveys-new' };
const SITE_LOCATIONS = { label: 'Site Locations', to: '/site-locations' };
const SURVEYS = { label: 'Surveys', to: '/surveys' };
const USERS = { label: 'Users', to: '/users' };
const GENERIC_MESSAGES = { label: 'Generic Messages', to: '/generic-messages' };
const CONTACT_FIELDS = { label: 'Contact Fields', to: '/contact-fields' };
const LANGUAGES = { label: 'Languages', to: '/languages' };
const RMS_PROVIDERS = { label: 'Record Systems', to: '/rms-providers' };
const object = (to: string) => ({ objectTitle: true as const, to });

export const ROUTES = [
  route('Dashboard', '/', 'Dashboard', SIGNED_IN, { redirect: '/sponsors' }),
  route('Login', '/login', 'Log In', ANONYMOUS, {
    layout: 'card',
    screen: lazyScreen(() => import('./sections/auth/Login')),
  }),
  route('Logout', '/logout', 'Log Out', PUBLIC, {
    layout: 'card',
    screen: lazyScreen(() => import('./sections/auth/Logout')),
  }),
  route('AuthServiceLogout', '/auth_service_logout', 'Log Out', PUBLIC, {
    layout: 'card',
    requiredQuery: ['auth_service'],
    screen: lazyScreen(() => import('./sections/auth/AuthServiceLogout')),
  }),
  route('Forbidden', '/403', 'Forbidden', PUBLIC, { screen: lazyScreen(() => import('./sections/errors/Forbidden')) }),
  // The signed-in user's own account, from the profile menu. A password an Admin set leads here
  // first (routing/Guard.tsx), on the card layout so nothing else is reachable.
  route('ChangePassword', '/change-password', 'Change Password', SIGNED_IN, {
    layout: 'card',
    screen: lazyScreen(() => import('./sections/profile/ChangePassword')),
  }),
  route('TwoFactor', '/profile/two-factor', 'Two-Factor Authentication', SIGNED_IN, {
    screen: lazyScreen(() => import('./sections/profile/TwoFactor')),
  }),

  route('SponsorsIndex', '/sponsors', 'Sponsors', SIGNED_IN, {
    screen: lazyScreen(() => import('./sections/sponsors/Index')),
  }),
  route('SponsorsAdd', '/sponsors/add', 'Add Sponsor', ADMIN_OR_SUPER_USER, {
    crumbs: [SPONSORS],
    screen: lazyScreen(() => import('./sections/sponsors/Add')),
  }),
  route('SponsorsEdit', '/sponsors/edit/:id', 'Edit Sponsor', SIGNED_IN, {
    crumbs: [SPONSORS, object('/sponsors/view/:id')],
    current: 'Edit',
    screen: lazyScreen(() => import('./sections/sponsors/Edit')),
  }),
  route('SponsorsView', '/sponsors/view/:id', 'View Sponsor', SIGNED_IN, {
    crumbs: [SPONSORS],
    screen: lazyScreen(() => import('./sections/sponsors/View')),
  }),

  route('EngagementsIndex', '/engagements', 'Engagements', SIGNED_IN, {
    screen: lazyScreen(() => import('./sections/engagements/Index')),
  }),
  route('EngagementsAdd', '/engagements/add/:selectedSponsorId?', 'Add Engagement', SIGNED_IN, {
    crumbs: [ENGAGEMENTS],
    screen: lazyScreen(() => import('./sections/engagements/Add')),
  }),
  // The engagement screens replace this trail with Sponsors > sponsor > engagement once loaded.
  route('EngagementsEdit', '/engagements/edit/:engagementId', 'Edit Engagement', SIGNED_IN, {
    crumbs: [ENGAGEMENTS, object('/engagements/view/:engagementId')],
    current: 'Edit',
    screen: lazyScreen(() => import('./sections/engagements/Edit')),
  }),
  route('EngagementsView', '/engagements/view/:engagementId', 'View Engagement', SIGNED_IN, {
    crumbs: [ENGAGEMENTS],
    screen: lazyScreen(() => import('./sections/engagements/View')),
  }),
  route('SiteAssociations', '/engagements/site-locations/:engagementId', 'Site Associations', SIGNED_IN, {
    crumbs: [ENGAGEMENTS, object('/engagements/view/:engagementId')],
    current: 'Site Associations',
    screen: lazyScreen(() => import('./sections/engagements/SiteAssociations')),
  }),

  route('MediaChannelAdd', '/media-channels/add/:screenerId', 'Add Media Channel', SIGNED_IN, {
    crumbs: [SCREENERS],
    screen: lazyScreen(() => import('./sections/media-channels/Add')),
  }),
  route('MediaChannelEdit', '/media-channels/edit/:id', 'Edit Media Channel', SIGNED_IN, {
    crumbs: [SCREENERS],
    screen: lazyScreen(() => import('./sections/media-channels/Edit')),
  }),
  route('MediaChannelView', '/media-channels/view/:id', 'View Media Channel', SIGNED_IN, {
    crumbs: [SCREENERS],
    screen: lazyScreen(() => import('./sections/media-channels/View')),
  }),

  route('ScreenerIndex', '/screeners', 'Screeners', SIGNED_IN, { screen: lazyScreen(() => import('./sections/screeners/Index')) }),
  route('ScreenerAdd', '/screeners/add/:selectedSponsorId', 'Add Screener', SIGNED_IN, {
    crumbs: [SCREENERS],
    screen: lazyScreen(() => import('./sections/screeners/Add')),
  }),
  route('ScreenerEdit', '/screeners/edit/:screenerId', 'Edit Screener', ADMIN_OR_SUPER_USER, {
    crumbs: [SCREENERS, object('/screeners/view/:screenerId')],
    current: 'Edit',
    screen: lazyScreen(() => import('./sections/screeners/Edit')),
  }),
  route('ScreenerView', '/screeners/view/:screenerId', 'View Screener', SIGNED_IN, {
    crumbs: [SCREENERS],
    screen: lazyScreen(() => import('./sections/screeners/View')),
  }),
  route('ScreenerAssociateSurveys', '/screeners/associate-surveys/:screenerId', 'Associate Surveys', SIGNED_IN, {
    crumbs: [SCREENERS, object('/screeners/view/:screenerId')],
    current: 'Associate Surveys',
    screen: lazyScreen(() => import('./sections/screeners/AssociateSurveys')),
  }),

  route('SurveysNewIndex', '/surveys-new', 'Versioned Surveys', SIGNED_IN, { screen: lazyScreen(() => import('./sections/surveys-new/Index')) }),
  route('SurveysNewAdd', '/surveys-new/add/:screenerId?', 'Add Versioned Survey', SIGNED_IN, {
    crumbs: [VERSIONED_SURVEYS],
    screen: lazyScreen(() => import('./sections/surveys-new/Add')),
  }),
  route('SurveysNewEdit', '/surveys-new/edit/:id', 'Edit Versioned Survey', SIGNED_IN, {
    crumbs: [VERSIONED_SURVEYS, object('/surveys-new/view/:id')],
    current: 'Edit',
    screen: lazyScreen(() => import('./sections/surveys-new/Edit')),
  }),
  route('SurveysNewView', '/surveys-new/view/:id', 'View Versioned Survey', SIGNED_IN, {
    crumbs: [VERSIONED_SURVEYS],
    screen: lazyScreen(() => import('./sections/surveys-new/View')),
  }),
  route('SurveysNewEditScreener', '/surveys-new/edit-screener/:id', 'Edit Survey Screener', SIGNED_IN, {
    crumbs: [VERSIONED_SURVEYS, object('/surveys-new/view/:id')],
    current: 'Edit Screener',
    screen: lazyScreen(() => import('./sections/surveys-new/EditScreener')),
  }),

  route('SiteLocationsIndex', '/site-locations', 'Site Locations', ADMIN_OR_SUPER_USER, {
    screen: lazyScreen(() => import('./sections/site-locations/Index')),
  }),
  route('SiteLocationsAdd', '/site-locations/add', 'Add Site Location', ADMIN_OR_SUPER_USER, {
    crumbs: [SITE_LOCATIONS],
    screen: lazyScreen(() => import('./sections/site-locations/Add')),
  }),
  route('SiteLocationsEdit', '/site-locations/edit/:id', 'Edit Site Location', ADMIN_OR_SUPER_USER, {
    crumbs: [SITE_LOCATIONS],
    screen: lazyScreen(() => import('./sections/site-locations/Edit')),
  }),
  route('SiteLocationsUpload', '/site-locations/upload/:engagementId', 'Upload Site Locations', ADMIN_OR_SUPER_USER, {
    crumbs: [ENGAGEMENTS, object('/engagements/view/:engagementId')],
    current: 'Upload Site Locations',
    screen: lazyScreen(() => import('./sections/site-locations/Upload')),
  }),
  route('SiteLocationsView', '/site-locations/view/:id/:engagementId?', 'View Site Location', ADMIN_OR_SUPER_USER, {
    crumbs: [SITE_LOCATIONS],
    screen: lazyScreen(() => import('./sections/site-locations/View')),
  }),

  route('SurveysIndex', '/surveys', 'Surveys', SIGNED_IN, { screen: lazyScreen(() => import('./sections/surveys/Index')) }),
  route('SurveysAdd', '/surveys/add/:engagementId', 'Add Survey', SIGNED_IN, {
    crumbs: [SURVEYS],
    screen: lazyScreen(() => import('./sections/surveys/Add')),
  }),
  route('SurveysEdit', '/surveys/edit/:id', 'Edit Survey', SIGNED_IN, {
    crumbs: [SURVEYS, object('/surveys/view/:id')],
    current: 'Edit',
    screen: lazyScreen(() => import('./sections/surveys/Edit')),
  }),
  route('SurveysView', '/surveys/view/:id', 'View Survey', SIGNED_IN, {
    crumbs: [SURVEYS],
    screen: lazyScreen(() => import('./sections/surveys/View')),
  }),

  route('UsersIndex', '/users', 'Users', ADMIN_OR_SUPER_USER, {
    screen: lazyScreen(() => import('./sections/users/Index')),
  }),
  route('UsersAdd', '/users/add', 'Add User', ADMIN_OR_SUPER_USER, {
    crumbs: [USERS],
    screen: lazyScreen(() => import('./sections/users/Add')),
  }),
  route('UsersEdit', '/users/edit/:id', 'Edit User', ADMIN_OR_SUPER_USER, {
    crumbs: [USERS],
    screen: lazyScreen(() => import('./sections/users/Edit')),
  }),

  route('GenericMessagesIndex', '/generic-messages', 'Generic Messages', ADMIN_OR_SUPER_USER, {
    screen: lazyScreen(() => import('./sections/generic-messages/Index')),
  }),
  route('GenericMessagesEdit', '/generic-messages/edit/:id', 'Edit Generic Message', ADMIN_OR_SUPER_USER, {
    crumbs: [GENERIC_MESSAGES],
    screen: lazyScreen(() => import('./sections/generic-messages/Edit')),
  }),

  route('ContactFieldsIndex', '/contact-fields', 'Contact Fields', ADMIN_OR_SUPER_USER, {
    screen: lazyScreen(() => import('./sections/contact-fields/Index')),
  }),
  route('ContactFieldsAdd', '/contact-fields/add/:screenerId?', 'Add Contact Field', ADMIN_OR_SUPER_USER, {
    crumbs: [CONTACT_FIELDS],
    screen: lazyScreen(() => import('./sections/contact-fields/Add')),
  }),
  route('ContactFieldsEdit', '/contact-fields/edit/:id', 'Edit Contact Field', ADMIN_OR_SUPER_USER, {
    crumbs: [CONTACT_FIELDS],
    screen: lazyScreen(() => import('./sections/contact-fields/Edit')),
  }),

  route('LanguagesIndex', '/languages', 'Languages', ADMIN_OR_SUPER_USER, {
    screen: lazyScreen(() => import('./sections/languages/Index')),
  }),
  route('LanguagesAdd', '/languages/add', 'Add Language', ADMIN_OR_SUPER_USER, {
    crumbs: [LANGUAGES],
    screen: lazyScreen(() => import('./sections/languages/Add')),
  }),
  route('LanguagesEdit', '/languages/edit/:id', 'Edit Language', ADMIN_OR_SUPER_USER, {
    crumbs: [LANGUAGES, object('/languages/view/:id')],
    current: 'Edit',
    screen: lazyScreen(() => import('./sections/languages/Edit')),
  }),
  route('LanguagesView', '/languages/view/:id', 'View Language', ADMIN_OR_SUPER_USER, {
    crumbs: [LANGUAGES],
    screen: lazyScreen(() => import('./sections/languages/View')),
  }),

  route('RmsAuditsIndex', '/rms-audits', 'RMS Audits', SUPER_USER, { screen: lazyScreen(() => import('./sections/rms-audits/Index')) }),
  // Not in SPEC: where record systems (providers) are set up.
  route('RmsProvidersIndex', '/rms-providers', 'Record Systems', SUPER_USER, { screen: lazyScreen(() => import('./sections/rms-providers/Index')) }),
  route('RmsProvidersAdd', '/rms-providers/add', 'Add Record System', SUPER_USER, {
    crumbs: [RMS_PROVIDERS],
    screen: lazyScreen(() => import('./sections/rms-providers/Add')),
  }),
  route('RmsProvidersEdit', '/rms-providers/edit/:id', 'Edit Record System', SUPER_USER, {
    crumbs: [RMS_PROVIDERS],
    screen: lazyScreen(() => import('./sections/rms-providers/Edit')),
  }),

  // Last so that readers of the table see it as the fallback; React Router ranks it last anyway.
  route('NotFound', '*', 'Not Found', PUBLIC, { screen: lazyScreen(() => import('./sections/errors/NotFound')) }),
];

export type RouteName = (typeof ROUTES)[number]['name'];

const byName = new Map<string, AppRoute>(ROUTES.map((r) => [r.name, r]));

export function routeByName(name: RouteName): AppRoute {
  const found = byName.get(name);
  if (!found) throw new Error(`Unknown route ${name}`);
  return found;
}

/** The URL of a named route, e.g. pathTo('SponsorsView', { id: '4' }) -> '/sponsors/view/4'. */
export function pathTo(name: RouteName, params: Record<string, string | number | null | undefined> = {}): string {
  const values: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(params)) values[key] = value === undefined || value === null ? null : String(value);
  return generatePath(routeByName(name).path, values);
}
