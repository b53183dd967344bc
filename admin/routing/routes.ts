/**
 * The one route table: every path of SPEC section 2 with its route name, who may open it,
 * its layout and its breadcrumb trail. Navigation, guards, the top bar and links all read from
 * here; it names no screen, so any screen can link with `pathTo` without importing the others
 * (admin/router.tsx gives each route its screen and turns the table into React Router routes).
 */
import { generatePath } from 'react-router-dom';
import { ADMIN_OR_SUPER_USER, ANONYMOUS, PUBLIC, SIGNED_IN, STAFF, SUPER_USER, type Access } from '../access';

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
}

type RouteOptions = Partial<Omit<AppRoute, 'name' | 'path' | 'title' | 'access'>>;

const route = <const N extends string>(name: N, path: string, title: string, access: Access, options: RouteOptions = {}): AppRoute<N> => ({
  name,
  path,
  title,
  access,
  layout: 'app',
  crumbs: [],
  ...options,
});

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
/** A page reached from a list: the list's crumb comes before it. */
const listedIn = (list: CrumbDef): RouteOptions => ({ crumbs: [list] });
/** A page about one object: the list's crumb, the object's (to its view page), then `current`. */
const ofObject = (list: CrumbDef, viewPath: string, current: string): RouteOptions => ({ crumbs: [list, object(viewPath)], current });

export const ROUTES = [
  route('Dashboard', '/', 'Dashboard', SIGNED_IN, { redirect: '/sponsors' }),
  route('Login', '/login', 'Log In', ANONYMOUS, {
    layout: 'card',
  }),
  route('Logout', '/logout', 'Log Out', PUBLIC, {
    layout: 'card',
  }),
  route('AuthServiceLogout', '/auth_service_logout', 'Log Out', PUBLIC, {
    layout: 'card',
    requiredQuery: ['auth_service'],
  }),
  route('Forbidden', '/403', 'Forbidden', PUBLIC),
  // The signed-in user's own account, from the profile menu. A password an Admin set leads here
  // first (routing/Guard.tsx), on the card layout so nothing else is reachable.
  route('ChangePassword', '/change-password', 'Change Password', SIGNED_IN, {
    layout: 'card',
  }),
  route('TwoFactor', '/profile/two-factor', 'Two-Factor Authentication', SIGNED_IN),
  route('About', '/about', 'About', STAFF),
  // Not in SPEC: the recruitment funnel of what the user may see (the server scopes it).
  route('Recruitment', '/recruitment', 'Recruitment', STAFF),
  // The work queue: recruiters, and Site Coordinators (whose only screen it is).
  route('ReferralsIndex', '/referrals', 'Referrals', SIGNED_IN),
  route('ReferralsView', '/referrals/view/:id', 'View Referral', SIGNED_IN, { crumbs: [{ label: 'Referrals', to: '/referrals' }] }),
  // Per site: referrals, time to first contact, service level, screen-fail and randomization rates.
  route('SitePerformance', '/site-performance', 'Site Performance', SIGNED_IN),
  // Contacts kept at the other outcomes: the server scopes them (sponsors, a coordinator's sites).
  route('LeadsIndex', '/leads', 'Leads', SIGNED_IN),

  route('SponsorsIndex', '/sponsors', 'Sponsors', STAFF),
  route('SponsorsAdd', '/sponsors/add', 'Add Sponsor', ADMIN_OR_SUPER_USER, listedIn(SPONSORS)),
  route('SponsorsEdit', '/sponsors/edit/:id', 'Edit Sponsor', STAFF, ofObject(SPONSORS, '/sponsors/view/:id', 'Edit')),
  route('SponsorsView', '/sponsors/view/:id', 'View Sponsor', STAFF, listedIn(SPONSORS)),

  route('EngagementsIndex', '/engagements', 'Engagements', STAFF),
  route('EngagementsAdd', '/engagements/add/:selectedSponsorId?', 'Add Engagement', STAFF, listedIn(ENGAGEMENTS)),
  // The engagement screens replace this trail with Sponsors > sponsor > engagement once loaded.
  route('EngagementsEdit', '/engagements/edit/:engagementId', 'Edit Engagement', STAFF, ofObject(ENGAGEMENTS, '/engagements/view/:engagementId', 'Edit')),
  route('EngagementsView', '/engagements/view/:engagementId', 'View Engagement', STAFF, listedIn(ENGAGEMENTS)),
  route(
    'SiteAssociations',
    '/engagements/site-locations/:engagementId',
    'Site Associations',
    STAFF,
    ofObject(ENGAGEMENTS, '/engagements/view/:engagementId', 'Site Associations'),
  ),

  route('MediaChannelAdd', '/media-channels/add/:screenerId', 'Add Media Channel', STAFF, listedIn(SCREENERS)),
  route('MediaChannelEdit', '/media-channels/edit/:id', 'Edit Media Channel', STAFF, listedIn(SCREENERS)),
  route('MediaChannelView', '/media-channels/view/:id', 'View Media Channel', STAFF, listedIn(SCREENERS)),

  route('ScreenerIndex', '/screeners', 'Screeners', STAFF),
  route('ScreenerAdd', '/screeners/add/:selectedSponsorId', 'Add Screener', STAFF, listedIn(SCREENERS)),
  route('ScreenerEdit', '/screeners/edit/:screenerId', 'Edit Screener', ADMIN_OR_SUPER_USER, ofObject(SCREENERS, '/screeners/view/:screenerId', 'Edit')),
  route('ScreenerView', '/screeners/view/:screenerId', 'View Screener', STAFF, listedIn(SCREENERS)),
  route(
    'ScreenerAssociateSurveys',
    '/screeners/associate-surveys/:screenerId',
    'Associate Surveys',
    STAFF,
    ofObject(SCREENERS, '/screeners/view/:screenerId', 'Associate Surveys'),
  ),

  route('VersionedSurveyIndex', '/surveys-new', 'Versioned Surveys', STAFF),
  route('VersionedSurveyAdd', '/surveys-new/add/:screenerId?', 'Add Versioned Survey', STAFF, listedIn(VERSIONED_SURVEYS)),
  route('VersionedSurveyEdit', '/surveys-new/edit/:id', 'Edit Versioned Survey', STAFF, ofObject(VERSIONED_SURVEYS, '/surveys-new/view/:id', 'Edit')),
  route('VersionedSurveyView', '/surveys-new/view/:id', 'View Versioned Survey', STAFF, listedIn(VERSIONED_SURVEYS)),
  route(
    'VersionedSurveyEditScreener',
    '/surveys-new/edit-screener/:id',
    'Edit Survey Screener',
    STAFF,
    ofObject(VERSIONED_SURVEYS, '/surveys-new/view/:id', 'Edit Screener'),
  ),

  route('SiteLocationsIndex', '/site-locations', 'Site Locations', ADMIN_OR_SUPER_USER),
  route('SiteLocationsAdd', '/site-locations/add', 'Add Site Location', ADMIN_OR_SUPER_USER, listedIn(SITE_LOCATIONS)),
  route('SiteLocationsEdit', '/site-locations/edit/:id', 'Edit Site Location', ADMIN_OR_SUPER_USER, listedIn(SITE_LOCATIONS)),
  route(
    'SiteLocationsUpload',
    '/site-locations/upload/:engagementId',
    'Upload Site Locations',
    ADMIN_OR_SUPER_USER,
    ofObject(ENGAGEMENTS, '/engagements/view/:engagementId', 'Upload Site Locations'),
  ),
  route('SiteLocationsView', '/site-locations/view/:id/:engagementId?', 'View Site Location', ADMIN_OR_SUPER_USER, listedIn(SITE_LOCATIONS)),

  route('SurveysIndex', '/surveys', 'Surveys', STAFF),
  route('SurveysAdd', '/surveys/add/:engagementId', 'Add Survey', STAFF, listedIn(SURVEYS)),
  route('SurveysEdit', '/surveys/edit/:id', 'Edit Survey', STAFF, ofObject(SURVEYS, '/surveys/view/:id', 'Edit')),
  route('SurveysView', '/surveys/view/:id', 'View Survey', STAFF, listedIn(SURVEYS)),

  route('UsersIndex', '/users', 'Users', ADMIN_OR_SUPER_USER),
  route('UsersAdd', '/users/add', 'Add User', ADMIN_OR_SUPER_USER, listedIn(USERS)),
  route('UsersEdit', '/users/edit/:id', 'Edit User', ADMIN_OR_SUPER_USER, listedIn(USERS)),

  route('GenericMessagesIndex', '/generic-messages', 'Generic Messages', ADMIN_OR_SUPER_USER),
  route('GenericMessagesEdit', '/generic-messages/edit/:id', 'Edit Generic Message', ADMIN_OR_SUPER_USER, listedIn(GENERIC_MESSAGES)),

  route('ContactFieldsIndex', '/contact-fields', 'Contact Fields', ADMIN_OR_SUPER_USER),
  route('ContactFieldsAdd', '/contact-fields/add/:screenerId?', 'Add Contact Field', ADMIN_OR_SUPER_USER, listedIn(CONTACT_FIELDS)),
  route('ContactFieldsEdit', '/contact-fields/edit/:id', 'Edit Contact Field', ADMIN_OR_SUPER_USER, listedIn(CONTACT_FIELDS)),

  route('LanguagesIndex', '/languages', 'Languages', ADMIN_OR_SUPER_USER),
  route('LanguagesAdd', '/languages/add', 'Add Language', ADMIN_OR_SUPER_USER, listedIn(LANGUAGES)),
  route('LanguagesEdit', '/languages/edit/:id', 'Edit Language', ADMIN_OR_SUPER_USER, ofObject(LANGUAGES, '/languages/view/:id', 'Edit')),
  route('LanguagesView', '/languages/view/:id', 'View Language', ADMIN_OR_SUPER_USER, listedIn(LANGUAGES)),

  route('RmsAuditsIndex', '/rms-audits', 'RMS Audits', SUPER_USER),
  // Not in SPEC: the message outbox (server/messages/).
  route('MessagesIndex', '/messages', 'Messages', ADMIN_OR_SUPER_USER),
  route('MessageTemplatesIndex', '/message-templates', 'Message Templates', ADMIN_OR_SUPER_USER),
  // Not in SPEC: where record systems (providers) are set up.
  route('RmsProvidersIndex', '/rms-providers', 'Record Systems', SUPER_USER),
  route('RmsProvidersAdd', '/rms-providers/add', 'Add Record System', SUPER_USER, listedIn(RMS_PROVIDERS)),
  route('RmsProvidersEdit', '/rms-providers/edit/:id', 'Edit Record System', SUPER_USER, listedIn(RMS_PROVIDERS)),

  // Last so that readers of the table see it as the fallback; React Router ranks it last anyway.
  route('NotFound', '*', 'Not Found', PUBLIC),
];

export type TableRoute = (typeof ROUTES)[number];
export type RouteName = TableRoute['name'];

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
