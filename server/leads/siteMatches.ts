/**
 * A site that opens finds its leads: when a site becomes offerable for an engagement (linked,
 * re-activated, uploaded, moved), the engagement's noTrialSites leads within the link's radius of
 * it are matched to the link (lead_site_matches), so staff can list and export them
 * (GET /api/leads?engagementSiteLocationId=). A match once made stays while both exist. Each
 * new match's mail to the lead (messages/leadMessages.ts) is written in the same transaction as
 * the match, so a match never lacks its mail and never has two.
 */
import { and, eq, sql } from 'drizzle-orm';
import { nowOf, type Deps } from '../context';
import { engagementSiteLocations, engagements, leadSiteMatches, leads, siteLocations } from '../db/schema';
import { haversineMiles, radiusOf, siteAt, zipCentroid } from '../participant';
import { enqueueSiteOpenedMessages, messageContextOf, messageOptionsOf, sendMessagesSoon } from '../messages';
import { phiOf } from '../security/phi';

/** Matches the noTrialSites leads of `engagementIds` to their active sites within reach; answers how many matches are new. */
export async function matchLeadsToSites(deps: Deps, engagementIds: readonly number[]): Promise<number> {
  const { db } = deps;
  const phi = phiOf(deps);
  const context = messageContextOf(deps);
  let added = 0;
  let mailed = 0;
  for (const engagementId of new Set(engagementIds)) {
    const links = await db
      .select({ id: engagementSiteLocations.id, radius: engagementSiteLocations.radius, engagementRadius: engagements.radius, site: siteLocations })
      .from(engagementSiteLocations)
      .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
      .innerJoin(engagements, eq(engagements.id, engagementSiteLocations.engagementId))
      .where(and(eq(engagementSiteLocations.engagementId, engagementId), eq(engagementSiteLocations.isActive, true), eq(siteLocations.isActive, true)));
    if (links.length === 0) continue;
    const waiting = await db
      .select({ id: leads.id, zip: leads.zipCiphertext })
      .from(leads)
      .where(and(eq(leads.kind, 'noTrialSites'), sql`${engagementId} = any(${leads.engagementIds})`));
    const rows: (typeof leadSiteMatches.$inferInsert)[] = [];
    for (const lead of waiting) {
      const from = lead.zip === null ? null : zipCentroid(phi.open(lead.zip));
      if (!from) continue;
      for (const link of links) {
        const at = siteAt(link.site);
        if (!at) continue;
        const miles = haversineMiles(from, at);
        if (miles <= radiusOf(link.radius, link.engagementRadius))
          rows.push({ leadId: lead.id, engagementSiteLocationId: link.id, distanceMiles: Math.round(miles * 10) / 10 });
      }
    }
    if (rows.length === 0) continue;
    await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(leadSiteMatches)
        .values(rows)
        .onConflictDoNothing()
        .returning({ leadId: leadSiteMatches.leadId, engagementSiteLocationId: leadSiteMatches.engagementSiteLocationId });
      added += inserted.length;
      mailed += await enqueueSiteOpenedMessages(tx, context, inserted, nowOf(deps));
    });
  }
  if (mailed > 0) sendMessagesSoon(messageOptionsOf(deps));
  return added;
}
