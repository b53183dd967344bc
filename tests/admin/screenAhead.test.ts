/**
 * Every screen the side navigation opens for a signed-in user asks for its data ahead of its
 * code (router.tsx's AHEAD): a new nav item without its ahead calls fails here.
 */
import { describe, expect, it } from 'vitest';
import { AHEAD } from '../../admin/router';
import { isGroup, NAV_ITEMS, type NavLinkItem } from '../../admin/layouts/navItems';
import { routeByName } from '../../admin/routing/routes';

const links: NavLinkItem[] = NAV_ITEMS.flatMap((item) => (isGroup(item) ? item.children : [item]));
// The login page asks the API for nothing before it is used.
const signedIn = links.filter((link) => routeByName(link.route).access.kind !== 'anonymous');

describe("the nav's screens", () => {
  it('are the signed-in links', () => {
    expect(signedIn.length).toBe(links.length - 1);
  });

  it.each(signedIn.map((link) => [link.label, link.route] as const))('%s asks for its data ahead', (_label, route) => {
    expect(AHEAD[route], route).toBeDefined();
  });
});
