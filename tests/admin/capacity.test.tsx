/**
 * What staff read of recruitment capacity on the admin's views: why and since when an
 * engagement is paused (its view and its channels' views), each linked site's fill against its
 * caps, and the leads within reach of an engagement's and a site's newly opened sites, linking
 * to the Leads screen filtered to them.
 */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { formatDateTime } from '../../admin/components/format';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, type Handler } from './helpers';
import { makeEngagementAttributes, makeMediaChannel } from './fixtures';

const SINCE = '2026-12-03T15:00:00.000Z';
const PAUSE = { reason: 'target', since: SINCE, text: 'paused: target of 120 referrals reached on 2026-12-03' };

const engagement = { id: 12, ...makeEngagementAttributes({ targetParticipantCount: 120, targetMeasure: 'referrals', pause: PAUSE }) };

/** A link of the engagement to a site, as GET /api/engagements-site-locations answers it. */
const link = (id: number, siteName: string, fill: Record<string, unknown>) => ({
  id,
  engagementId: 12,
  siteLocationId: id + 100,
  radius: null,
  rmsSiteIdentification: null,
  isActive: true,
  weeklyCap: null,
  totalCap: null,
  isPaused: false,
  siteId: `S-${id}`,
  siteName,
  city: 'New York',
  state: 'NY',
  zipCode: '10001',
  piName: null,
  siteIsActive: true,
  created: '2024-05-01T10:00:00Z',
  modified: '2024-05-01T10:00:00Z',
  referralsThisWeek: 0,
  referralsTotal: 0,
  fullReason: null,
  ...fill,
});

const LINKS = [
  link(1, 'Manhattan site', { weeklyCap: 2, referralsThisWeek: 2, referralsTotal: 7, fullReason: 'weekly cap reached' }),
  link(2, 'Hoboken site', { weeklyCap: 5, totalCap: 40, referralsThisWeek: 1, referralsTotal: 12 }),
];

const site = {
  id: 4,
  name: 'Hoboken site',
  siteId: 'S-2',
  isActive: true,
  isVirtual: false,
  created: '2024-05-01T10:00:00Z',
  modified: '2024-05-01T10:00:00Z',
};

/** The leads within reach: 3 of the engagement, 1 of the site. */
const server: Handler = (request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (request.method !== 'GET') return undefined;
  if (path === 'engagements/12') return json(resourceDocument('engagements', engagement));
  if (path === 'referrals/counts/12') return json(resourceDocument('referral-counts', { id: 12, total: 120, screened: 0, randomized: 0 }));
  if (path === 'engagements-site-locations') return json(listDocument(path, url.searchParams.get('siteLocationId') ? [] : LINKS));
  if (path === 'site-locations/4') return json(resourceDocument('site-locations', site));
  if (path === 'leads' && url.searchParams.get('withinReach') === 'true') {
    const total = url.searchParams.get('engagementId') === '12' ? 3 : url.searchParams.get('siteLocationId') === '4' ? 1 : 0;
    return json({ data: [], meta: { total, page: 1, limit: 10 } });
  }
  if (path === 'media-channels/9')
    return json(
      resourceDocument(
        'media-channels',
        makeMediaChannel(9, { recruitmentPause: { isPaused: true, engagements: [{ engagementId: 12, engagementName: 'Heart study', ...PAUSE }] } } as never),
      ),
    );
  if (path === 'screeners/5') return json(resourceDocument('screeners', { id: 5, title: 'Heart screener', sponsorId: 7, sponsorName: 'Acme Pharma' }));
  return undefined;
};

const shownAs = async (label: string) => (await screen.findByText(label, { selector: 'dt' })).nextElementSibling?.textContent;

describe("an engagement's capacity", () => {
  it('shows on its view why and since when it is paused, and its leads within reach linked to the Leads screen', async () => {
    renderAdmin({ path: '/engagements/view/12', user: makeUser('Admin'), handler: server });
    expect(await shownAs('Recruitment')).toBe(`paused: target of 120 referrals reached on 2026-12-03 (since ${formatDateTime(SINCE)})`);
    const reach = await screen.findByRole('link', { name: '3 leads within reach' });
    expect(reach.getAttribute('href')).toBe('/leads?engagementId=12&withinReach=true');
  });

  it("shows on its channel's view that participants reach notActive, with the engagement's reason and since when", async () => {
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler: server });
    expect(await shownAs('Recruitment')).toBe(
      `paused (participants reach notActive) — Heart study: paused: target of 120 referrals reached on 2026-12-03 (since ${formatDateTime(SINCE)})`,
    );
  });

  it("shows each linked site's fill against its caps, and why a full one is not offered", async () => {
    renderAdmin({ path: '/engagements/site-locations/12', user: makeUser('Admin'), handler: server });
    const table = await screen.findByRole('table', { name: 'Linked site locations' });
    const row = async (name: string) => (await within(table).findByText(name)).closest('tr')!;
    expect((await row('Manhattan site')).textContent).toContain('2 / 2 this week · 7 in all · weekly cap reached');
    expect((await row('Hoboken site')).textContent).toContain('1 / 5 this week · 12 / 40 in all');
  });

  it("shows on a site's view the leads within reach of it", async () => {
    renderAdmin({ path: '/site-locations/view/4', user: makeUser('Admin'), handler: server });
    const reach = await screen.findByRole('link', { name: '1 lead within reach' });
    expect(reach.getAttribute('href')).toBe('/leads?siteLocationId=4&withinReach=true');
  });
});
