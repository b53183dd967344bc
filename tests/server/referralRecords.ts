/** The referrals a server test writes straight to the database, made at an instant it states. */
import { contacts, engagementSiteLocations, engagements, referrals, rmsDeliveries, siteLocations, sponsors } from '../../server/db/schema';
import type { Harness } from './harness';

/** A sponsor's engagement linked to a new site of each of `siteNames`: named after `name`, identified after `code`. */
export async function engagementAtSites(h: Harness, name: string, code: string, siteNames: string[]) {
  const [sponsor] = await h.db
    .insert(sponsors)
    .values({ name: `${name} sponsor`, identification: code })
    .returning({ id: sponsors.id });
  const [engagement] = await h.db
    .insert(engagements)
    .values({ name: `${name} study`, identification: `${code}-E`, sponsorId: sponsor!.id })
    .returning({ id: engagements.id });
  const sites = await h.db
    .insert(siteLocations)
    .values(siteNames.map((siteName) => ({ name: siteName })))
    .returning({ id: siteLocations.id });
  const links = await h.db
    .insert(engagementSiteLocations)
    .values(sites.map((site) => ({ engagementId: engagement!.id, siteLocationId: site.id })))
    .returning({ id: engagementSiteLocations.id });
  return { sponsorId: sponsor!.id, engagementId: engagement!.id, siteIds: sites.map((site) => site.id), linkIds: links.map((link) => link.id) };
}

/**
 * `n` referrals to the engagement at its site link `linkId`, made at `made`: each of a contact
 * with `names` (sealed), delivered to the record system at that instant. Answers their ids.
 */
export async function referralsMade(
  h: Harness,
  { engagementId, linkId }: { engagementId: number; linkId: number },
  n: number,
  made: string,
  names: { first_name?: string; last_name?: string },
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const [contact] = await h.db
      .insert(contacts)
      .values({ engagementId, engagementSiteLocationId: linkId, valuesCiphertext: h.phi.seal(JSON.stringify(names)) })
      .returning({ id: contacts.id });
    await h.db.insert(rmsDeliveries).values({ contactId: contact!.id, status: 'delivered', deliveredAt: new Date(made) });
    const [row] = await h.db
      .insert(referrals)
      .values({ engagementId, engagementSiteLocationId: linkId, contactId: contact!.id, created: new Date(made) })
      .returning({ id: referrals.id });
    ids.push(row!.id);
  }
  return ids;
}
