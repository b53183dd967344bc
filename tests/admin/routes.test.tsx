import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { ROUTES, pathTo, routeByName } from '../../admin/routing/routes';
import { visibleNav, NAV_ITEMS, isGroup } from '../../admin/layouts/navItems';
import { ChunkLoadError, lazyScreen, loadWithTimeout, CHUNK_TIMEOUT_MS } from '../../admin/routing/lazyScreen';
import { ScreenBoundary } from '../../admin/layouts/ScreenOutlet';
import { json, makeUser, renderAdmin, type Handler } from './helpers';

// SPEC section 2's route names, plus the ones this admin names itself.
const SPEC_ROUTE_NAMES = [
  'Dashboard',
  'Login',
  'Logout',
  'SponsorsIndex',
  'SponsorsAdd',
  'SponsorsEdit',
  'SponsorsView',
  'EngagementsIndex',
  'EngagementsAdd',
  'EngagementsEdit',
  'EngagementsView',
  'SiteLocationsIndex',
  'SiteLocationsAdd',
  'SiteLocationsEdit',
  'SiteLocationsView',
  'SiteLocationsUpload',
  'SiteAssociations',
  'MediaChannelAdd',
  'MediaChannelEdit',
  'MediaChannelView',
  'ScreenerIndex',
  'ScreenerAdd',
  'ScreenerEdit',
  'ScreenerView',
  'SurveysAdd',
  'SurveysEdit',
  'SurveysView',
  'UsersIndex',
  'UsersAdd',
  'UsersEdit',
  'LanguagesIndex',
  'LanguagesAdd',
  'LanguagesEdit',
  'LanguagesView',
  'GenericMessagesIndex',
  'GenericMessagesEdit',
  'RmsAuditsIndex',
];

const SPEC_PATHS = [
  '/',
  '/login',
  '/logout',
  '/auth_service_logout',
  '/403',
  '*',
  '/engagements',
  '/engagements/add/:selectedSponsorId?',
  '/engagements/edit/:engagementId',
  '/engagements/view/:engagementId',
  '/engagements/site-locations/:engagementId',
  '/media-channels/add/:screenerId',
  '/media-channels/edit/:id',
  '/media-channels/view/:id',
  '/screeners',
  '/screeners/add/:selectedSponsorId',
  '/screeners/edit/:screenerId',
  '/screeners/view/:screenerId',
  '/screeners/associate-surveys/:screenerId',
  '/surveys-new',
  '/surveys-new/add/:screenerId?',
  '/surveys-new/edit/:id',
  '/surveys-new/view/:id',
  '/surveys-new/edit-screener/:id',
  '/site-locations',
  '/site-locations/add',
  '/site-locations/edit/:id',
  '/site-locations/upload/:engagementId',
  '/site-locations/view/:id/:engagementId?',
  '/sponsors',
  '/sponsors/add',
  '/sponsors/edit/:id',
  '/sponsors/view/:id',
  '/surveys',
  '/surveys/add/:engagementId',
  '/surveys/edit/:id',
  '/surveys/view/:id',
  '/users',
  '/users/add',
  '/users/edit/:id',
  '/generic-messages',
  '/generic-messages/edit/:id',
  '/contact-fields',
  '/contact-fields/add/:screenerId?',
  '/contact-fields/edit/:id',
  '/languages',
  '/languages/add',
  '/languages/edit/:id',
  '/languages/view/:id',
  '/rms-audits',
  // Record systems (providers), beside the audits under System Configuration.
  '/rms-providers',
  '/rms-providers/add',
  '/rms-providers/edit/:id',
  // The signed-in user's own account (profile menu).
  '/change-password',
  '/profile/two-factor',
  // SPEC's breadcrumb path: the product, its build and database, API reference and licences.
  '/about',
  // The recruitment funnel (any signed-in member of staff; the server scopes what they see).
  '/recruitment',
  '/referrals',
  // The message outbox (Admin, Super User).
  '/messages',
  '/message-templates',
  '/referrals/view/:id',
  '/site-performance',
  // Contacts kept at the other outcomes (the server scopes them).
  '/leads',
];

const navLabels = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .queryAllByRole('link')
    .map((link) => link.textContent);

describe('route table', () => {
  it('holds every route name and path of the specification, each once', () => {
    const names = ROUTES.map((r) => r.name);
    for (const name of SPEC_ROUTE_NAMES) expect(names).toContain(name);
    expect(new Set(names).size).toBe(names.length);
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...SPEC_PATHS].sort());
  });

  it('builds paths from route names', () => {
    expect(pathTo('SponsorsView', { id: 7 })).toBe('/sponsors/view/7');
    expect(pathTo('EngagementsAdd')).toBe('/engagements/add');
    expect(pathTo('SiteLocationsView', { id: 3, engagementId: 9 })).toBe('/site-locations/view/3/9');
  });

  it('gives roles the access of SPEC section 6', () => {
    expect(routeByName('SiteLocationsIndex').access).toEqual({ kind: 'signedIn', roles: ['Admin', 'Super User'] });
    expect(routeByName('RmsAuditsIndex').access).toEqual({ kind: 'signedIn', roles: ['Super User'] });
    expect(routeByName('ScreenerEdit').access).toEqual({ kind: 'signedIn', roles: ['Admin', 'Super User'] });
    // Every staff screen but the work queue's is closed to a Site Coordinator with no other role.
    expect(routeByName('ScreenerView').access).toEqual({ kind: 'signedIn', roles: ['Admin', 'Super User', 'User'] });
    expect(routeByName('SponsorsIndex').access).toEqual({ kind: 'signedIn', roles: ['Admin', 'Super User', 'User'] });
    expect(routeByName('ReferralsIndex').access).toEqual({ kind: 'signedIn' });
    expect(routeByName('SitePerformance').access).toEqual({ kind: 'signedIn' });
  });
});

describe('guards', () => {
  it('sends a User to the 403 page for Site Locations', async () => {
    const { location } = renderAdmin({ path: '/site-locations', user: makeUser('User') });
    expect(await screen.findByText('Oops! You are forbidden to access this page based on your access level.')).toBeTruthy();
    expect(location()).toBe('/403');
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/');
  });

  it('sends a User to 403 for screener edit and RMS audits, an Admin only for RMS audits', async () => {
    const user = renderAdmin({ path: '/screeners/edit/4', user: makeUser('User') });
    await waitFor(() => expect(user.location()).toBe('/403'));
    user.unmount();

    // An Admin is let in: the edit screen asks for the screener (unknown to this fake server).
    const admin = renderAdmin({ path: '/screeners/edit/4', user: makeUser('Admin') });
    expect(await screen.findByText("Oops! The screener you're looking for is not here.")).toBeTruthy();
    expect(admin.location()).toBe('/screeners/edit/4');
    await admin.router.navigate('/rms-audits');
    await waitFor(() => expect(admin.location()).toBe('/403'));
    admin.unmount();

    const superUser = renderAdmin({ path: '/rms-audits', user: makeUser('Super User') });
    expect(await screen.findByText('No record-system audits match.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'RMS Audits' })).toBeTruthy();
    expect(superUser.location()).toBe('/rms-audits');
  });

  it('sends visitors who are not signed in to the login page, remembering where they were going', async () => {
    const { location } = renderAdmin({ path: '/sponsors/view/3' });
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fsponsors%2Fview%2F3'));
    expect(await screen.findByRole('heading', { name: 'Log in with an existing account' })).toBeTruthy();
  });

  it('redirects the dashboard to the sponsors', async () => {
    const handler: Handler = (_r, url) => (url.pathname === '/api/sponsors' ? json({ data: [], meta: { total: 0 } }) : undefined);
    const { location } = renderAdmin({ path: '/', user: makeUser('User'), handler });
    await waitFor(() => expect(location()).toBe('/sponsors'));
  });

  it('shows NotFound for unknown paths', async () => {
    renderAdmin({ path: '/no/such/page', user: makeUser('User') });
    expect(await screen.findByText("Oops! The page you're looking for is not here.")).toBeTruthy();
  });

  it('blocks /auth_service_logout without auth_service, and leaves for the provider with it', async () => {
    const blocked = renderAdmin({ path: '/auth_service_logout', user: makeUser('User') });
    await waitFor(() => expect(blocked.location()).toBe('/403'));
    expect(blocked.leave).not.toHaveBeenCalled();
    blocked.unmount();

    const handler: Handler = (_r, url) => (url.pathname === '/api/jwt/logout' ? json({ success: true }) : undefined);
    const allowed = renderAdmin({ path: '/auth_service_logout?auth_service=duo', user: makeUser('User'), handler });
    await waitFor(() => expect(allowed.leave).toHaveBeenCalledWith('/jwt/saml/logout?auth_service=duo'));
    expect(allowed.tokens.current).toBeNull();
  });

  it('logs out: revokes the refresh token, forgets the tokens and shows the login page', async () => {
    const handler: Handler = (_r, url) => (url.pathname === '/api/jwt/logout' ? json({ success: true }) : undefined);
    const { location, server, tokens } = renderAdmin({ path: '/logout', user: makeUser('Admin'), handler });
    await waitFor(() => expect(location()).toBe('/login'));
    expect(server.requests.find((r) => r.path === 'jwt/logout')?.body).toEqual({ refresh_token: 'refresh-1' });
    expect(tokens.current).toBeNull();
    expect(await screen.findByLabelText('Username')).toBeTruthy();
  });
});

describe('side navigation', () => {
  /** A User's links, in order. */
  const USER_NAV = ['Sponsors', 'Engagements', 'Screeners', 'Versioned Surveys', 'Surveys', 'Recruitment', 'Referrals', 'Site Performance', 'Leads'];

  it('hides Site Locations and System Configuration from a User, and shows them the screeners, both kinds of survey and Recruitment', async () => {
    renderAdmin({ path: '/engagements', user: makeUser('User') });
    await screen.findByRole('table', { name: 'Engagements' });
    expect(navLabels()).toEqual(USER_NAV);
    expect(screen.queryByText('System Configuration')).toBeNull();
  });

  it('shows an Admin everything but RMS Audits, and a Super User everything', async () => {
    const admin = renderAdmin({ path: '/engagements', user: makeUser('Admin') });
    await screen.findByRole('table', { name: 'Engagements' });
    // A User's, Site Locations after Engagements, and the system's configuration after them.
    expect(navLabels()).toEqual([
      ...USER_NAV.slice(0, 2),
      'Site Locations',
      ...USER_NAV.slice(2),
      'User Management',
      'Generic Messages',
      'Languages',
      'Contact Fields',
      'Messages',
      'Message Templates',
    ]);
    expect(screen.getByText('System Configuration')).toBeTruthy();
    admin.unmount();

    renderAdmin({ path: '/engagements', user: makeUser('Super User') });
    await screen.findByRole('table', { name: 'Engagements' });
    expect(navLabels()).toEqual(expect.arrayContaining(['Record Systems', 'RMS Audits']));
  });

  it('offers only Log In to anonymous visitors', async () => {
    renderAdmin({ path: '/403' });
    await screen.findByText(/forbidden to access this page/);
    expect(navLabels()).toEqual(['Log In']);
    expect(visibleNav('signedIn', makeUser('Admin')).some((item) => !isGroup(item) && item.route === 'Login')).toBe(false);
    expect(NAV_ITEMS.length).toBe(12);
  });

  it('shows a Site Coordinator only the screens they can use, and takes them home to the work queue', async () => {
    const { location } = renderAdmin({ path: '/', user: makeUser('Site Coordinator') });
    await waitFor(() => expect(location()).toBe('/referrals'));
    expect(navLabels()).toEqual(['Referrals', 'Site Performance', 'Leads']);
    expect(screen.queryByText('System Configuration')).toBeNull();
  });
});

describe('nav labels', () => {
  it('names each link as the screen it opens is titled', () => {
    const links = NAV_ITEMS.flatMap((item) => (isGroup(item) ? item.children : [item])).filter((l) => l.route !== 'Login');
    // User Management opens Users: SPEC's names for both.
    const mismatched = links.filter((l) => l.label !== routeByName(l.route).title && !(l.label === 'User Management' && l.route === 'UsersIndex'));
    expect(mismatched).toEqual([]);
  });
});

describe('lazy screens', () => {
  it('fail with ChunkLoadError when loading takes longer than 120 seconds', async () => {
    vi.useFakeTimers();
    try {
      const pending = loadWithTimeout(() => new Promise<never>(() => undefined));
      const outcome = pending.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
      let settled = false;
      void pending.catch(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBeInstanceOf(ChunkLoadError);
    } finally {
      vi.useRealTimers();
    }
  });

  it('show a message with a Reload button when a chunk fails to load', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = lazyScreen(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    render(
      <ScreenBoundary>
        <Suspense fallback="loading">
          <Broken />
        </Suspense>
      </ScreenBoundary>,
    );
    expect(await screen.findByText('This screen could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    spy.mockRestore();
  });
});
