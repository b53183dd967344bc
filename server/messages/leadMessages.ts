/**
 * The mail a site opening sends to the leads it was matched to: a participant kept as a
 * noTrialSites lead consented to hear when a site of the study opens within reach, and that is
 * all this says (the study, the site's name and town, how to stop further mail). Written in the
 * transaction that records the matches (leads/siteMatches.ts), so each new match has its mail
 * and a match made once never mails twice. Only when the engagement has siteOpened on, after its
 * delay; not to an address that unsubscribed, and once per address and site.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Conn } from '../db/open';
import { contactFields, contactFieldScreeners, engagements, engagementSiteLocations, leads, siteLocations } from '../db/schema';
import { participantEmail } from './addresses';
import { enqueueMessage, isOptedOut, messageIdDomain, type MessageContext } from './outbox';
import { participantSiteMail } from './participantMail';
import { enabledKinds } from './referralMessages';

const MINUTE = 60_000;

export interface NewLeadMatch {
  leadId: number;
  engagementSiteLocationId: number;
}

async function leadEmail(tx: Conn, ctx: MessageContext, lead: { screenerId: number | null; valuesCiphertext: string }): Promise<string | null> {
  const fields =
    lead.screenerId === null
      ? []
      : await tx
          .select({ name: contactFields.name, fieldType: contactFields.fieldType })
          .from(contactFieldScreeners)
          .innerJoin(contactFields, eq(contactFields.id, contactFieldScreeners.contactFieldId))
          .where(eq(contactFieldScreeners.screenerId, lead.screenerId));
  return participantEmail(fields, JSON.parse(ctx.phi.open(lead.valuesCiphertext)) as Record<string, unknown>);
}

/** Writes the siteOpened mail of each new match; answers how many. Call inside the matches' transaction. */
export async function enqueueSiteOpenedMessages(tx: Conn, ctx: MessageContext, matches: readonly NewLeadMatch[], now: Date): Promise<number> {
  let written = 0;
  const domain = messageIdDomain(ctx.mailFrom);
  for (const linkId of new Set(matches.map((m) => m.engagementSiteLocationId))) {
    const [place] = await tx
      .select({ engagementId: engagements.id, engagement: engagements.name, site: siteLocations.name, town: siteLocations.city })
      .from(engagementSiteLocations)
      .innerJoin(engagements, eq(engagements.id, engagementSiteLocations.engagementId))
      .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
      .where(eq(engagementSiteLocations.id, linkId));
    if (!place) continue;
    const delay = (await enabledKinds(tx, place.engagementId)).get('siteOpened');
    if (delay === undefined) continue;
    const leadIds = matches.filter((m) => m.engagementSiteLocationId === linkId).map((m) => m.leadId);
    const rows = await tx
      .select({ id: leads.id, screenerId: leads.screenerId, valuesCiphertext: leads.valuesCiphertext, emailMatch: leads.emailMatch, language: leads.language })
      .from(leads)
      .where(and(inArray(leads.id, leadIds), eq(leads.kind, 'noTrialSites')))
      .orderBy(leads.id);
    // The same person kept twice (a duplicate lead) hears of the site once.
    const told = new Set<string>();
    for (const lead of rows) {
      if (lead.emailMatch === null || told.has(lead.emailMatch) || (await isOptedOut(tx, lead.emailMatch))) continue;
      const email = await leadEmail(tx, ctx, lead);
      if (!email) continue;
      told.add(lead.emailMatch);
      const mail = await participantSiteMail(tx, ctx.baseUrl, 'siteOpened', { email, match: lead.emailMatch, language: lead.language }, place);
      const dueAt = new Date(now.getTime() + delay * MINUTE);
      await enqueueMessage(tx, ctx.phi, domain, { kind: 'siteOpened', engagementId: place.engagementId, referralId: null, ...mail, dueAt }, now);
      written++;
    }
  }
  return written;
}
