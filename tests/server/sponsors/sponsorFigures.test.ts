import { describe, expect, it } from 'vitest';
import { engagementSiteLocations, engagements, referrals, siteLocations, sponsors } from '../../../server/db/schema';
import { SPONSOR_HAS_ENGAGEMENTS } from '../../../server/sponsors/routes';
import { useAdminHarness, json, type Harness } from '../harness';

let h: Harness;
let admin: string;

useAdminHarness((server) => ({ h, admin } = server));

const figures = (attributes: Record<string, unknown>) => ({
  activeEngagements: attributes.activeEngagements,
  totalEngagements: attributes.totalEngagements,
  totalSites: attributes.totalSites,
  totalReferrals: attributes.totalReferrals,
  totalScreenedReferrals: attributes.totalScreenedReferrals,
  totalRandomizedReferrals: attributes.totalRandomizedReferrals,
});

describe('sponsor list figures', () => {
  it('counts engagements, distinct linked sites and referrals per sponsor, in the list and the read', async () => {
    const [busy, idle] = await h.db
      .insert(sponsors)
      .values([
        { name: 'Figures Busy', identification: 'FIG-BUSY' },
        { name: 'Figures Idle', identification: 'FIG-IDLE' },
      ])
      .returning({ id: sponsors.id });
    const [e1, e2, e3] = await h.db
      .insert(engagements)
      .values([
        { name: 'E1', identification: 'FIG-E1', sponsorId: busy!.id },
        { name: 'E2', identification: 'FIG-E2', sponsorId: busy!.id },
        { name: 'E3', identification: 'FIG-E3', sponsorId: busy!.id, isActive: false },
      ])
      .returning({ id: engagements.id });
    const [s1, s2] = await h.db
      .insert(siteLocations)
      .values([{ name: 'S1' }, { name: 'S2' }])
      .returning({ id: siteLocations.id });
    // Site 1 is linked to two engagements: it counts once.
    await h.db.insert(engagementSiteLocations).values([
      { engagementId: e1!.id, siteLocationId: s1!.id },
      { engagementId: e2!.id, siteLocationId: s1!.id },
      { engagementId: e3!.id, siteLocationId: s2!.id },
    ]);
    await h.db
      .insert(referrals)
      .values([
        { engagementId: e1!.id, isScreened: true, isRandomized: true },
        { engagementId: e1!.id, isScreened: true },
        { engagementId: e2!.id },
        { engagementId: e3!.id, isScreened: true },
      ]);

    const list = await json(await h.request('GET', '/api/sponsors?searchQuery=Figures&sort=name', { token: admin }));
    expect(list.data.map((s: { attributes: Record<string, unknown> }) => figures(s.attributes))).toEqual([
      { activeEngagements: 2, totalEngagements: 3, totalSites: 2, totalReferrals: 4, totalScreenedReferrals: 3, totalRandomizedReferrals: 1 },
      { activeEngagements: 0, totalEngagements: 0, totalSites: 0, totalReferrals: 0, totalScreenedReferrals: 0, totalRandomizedReferrals: 0 },
    ]);
    const one = await json(await h.request('GET', `/api/sponsors/${busy!.id}`, { token: admin }));
    expect(one.data.attributes.totalSites).toBe(2);
    const only = await json(await h.request('GET', '/api/sponsors?searchQuery=Figures&fields=name,totalEngagements&sort=name', { token: admin }));
    expect(only.data[0].attributes).toEqual({ name: 'Figures Busy', totalEngagements: 3 });
    expect(idle).toBeDefined();
  });

  it('changes as engagements and links are added through the API', async () => {
    const sponsor = await json(
      await h.request('POST', '/api/sponsors', {
        token: admin,
        body: { data: { type: 'sponsors', attributes: { name: 'Live Figures', identification: 'LIVE-FIG' } } },
      }),
    );
    expect(figures(sponsor.data.attributes)).toMatchObject({ totalEngagements: 0, totalSites: 0 });
    const engagement = await json(
      await h.request('POST', '/api/engagements', {
        token: admin,
        body: { data: { type: 'engagements', attributes: { name: 'Live', identification: 'LIVE-1', sponsorId: Number(sponsor.data.id) } } },
      }),
    );
    const site = await json(
      await h.request('POST', '/api/site-locations', { token: admin, body: { data: { type: 'site-locations', attributes: { name: 'Live Site' } } } }),
    );
    await h.request('POST', '/api/engagements-site-locations', {
      token: admin,
      body: { data: { type: 'engagements-site-locations', attributes: { engagementId: Number(engagement.data.id), siteLocationId: Number(site.data.id) } } },
    });
    const list = await json(await h.request('GET', '/api/sponsors?searchQuery=LIVE-FIG', { token: admin }));
    expect(figures(list.data[0].attributes)).toMatchObject({ activeEngagements: 1, totalEngagements: 1, totalSites: 1 });

    const refused = await h.request('DELETE', `/api/sponsors/${sponsor.data.id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect((await json(refused)).errors[0].detail).toBe(SPONSOR_HAS_ENGAGEMENTS(1));
  });
});
