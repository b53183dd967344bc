/**
 * The recruiters' daily digest: from MESSAGE_DIGEST_HOUR (UTC) each day, every active User with
 * an e-mail address gets one mail counting, over their sponsors' engagements that have the
 * digest on, the referrals made in the last 24 hours and those whose first contact is overdue
 * (the work queue's own rule), by site — counts and site names only, never a participant. Its
 * Message-ID is made of the recipient and the day, and Message-IDs are unique, so however many
 * processes or passes write it, each recruiter gets one digest a day. A day with nothing new or
 * overdue sends nothing.
 */
import { and, count, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { engagementMessageSettings, engagements, engagementSiteLocations, referrals, roles, siteLocations, userRoles, userSponsors, users } from '../db/schema';
import { overdueAt } from '../referrals';
import { enqueueMessage, messageIdDomain, type MessageContext } from './outbox';
import { addressedToStaff } from './recipients';
import { render, templateOf } from './templates';
import { DAY_MS } from '@core/time';

/** The UTC day whose digest is due at `now`, or null before the hour. */
export function digestDay(now: Date, hour: number): string | null {
  return now.getUTCHours() >= hour ? now.toISOString().slice(0, 10) : null;
}

export const digestMessageId = (userId: number, day: string, domain: string) => `<digest.${userId}.${day}@${domain}>`;

/** Writes the day's digests not yet written; answers how many. */
export async function enqueueDigests(db: Db, ctx: MessageContext, now: Date, hour: number): Promise<number> {
  const day = digestDay(now, hour);
  if (day === null) return 0;
  const recruiters = await db
    .selectDistinct({ id: users.id, username: users.username, email: users.email, locale: users.locale, sponsorId: userSponsors.sponsorId })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.name, 'User')))
    .innerJoin(userSponsors, eq(userSponsors.userId, users.id))
    .where(and(eq(users.isActive, true), isNotNull(users.email)));
  const byUser = new Map<number, { username: string; email: string; locale: string; sponsorIds: number[] }>();
  for (const r of recruiters) {
    if (!r.email || r.email.trim() === '') continue;
    const entry = byUser.get(r.id) ?? { username: r.username, email: r.email, locale: r.locale, sponsorIds: [] };
    entry.sponsorIds.push(r.sponsorId);
    byUser.set(r.id, entry);
  }
  const domain = messageIdDomain(ctx.mailFrom);
  const since = new Date(now.getTime() - DAY_MS);
  const isNew = gte(referrals.created, since);
  const isOverdue = overdueAt(now);
  let written = 0;
  for (const [userId, person] of byUser) {
    const sites = await db
      .select({
        site: sql<string | null>`${siteLocations.name}`,
        fresh: count(sql`case when ${isNew} then 1 end`),
        overdue: count(sql`case when ${isOverdue} then 1 end`),
      })
      .from(referrals)
      .innerJoin(engagements, eq(engagements.id, referrals.engagementId))
      .innerJoin(
        engagementMessageSettings,
        and(
          eq(engagementMessageSettings.engagementId, engagements.id),
          eq(engagementMessageSettings.kind, 'recruiterDigest'),
          eq(engagementMessageSettings.isEnabled, true),
        ),
      )
      .leftJoin(engagementSiteLocations, eq(engagementSiteLocations.id, referrals.engagementSiteLocationId))
      .leftJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
      .where(and(inArray(engagements.sponsorId, person.sponsorIds), sql`(${isNew} or ${isOverdue})`))
      .groupBy(siteLocations.name)
      .orderBy(siteLocations.name);
    if (sites.length === 0) continue;
    const fresh = sites.reduce((n, s) => n + Number(s.fresh), 0);
    const overdue = sites.reduce((n, s) => n + Number(s.overdue), 0);
    const lines = sites.map((s) => `${s.site ?? '—'}: ${Number(s.fresh)} new, ${Number(s.overdue)} overdue`).join('\n');
    const filled = render('recruiterDigest', await templateOf(db, 'recruiterDigest', person.locale), {
      date: day,
      new: String(fresh),
      overdue: String(overdue),
      sites: lines,
      link: `${ctx.baseUrl}/referrals`,
    });
    const id = await enqueueMessage(
      db,
      ctx.phi,
      domain,
      {
        kind: 'recruiterDigest',
        engagementId: null,
        referralId: null,
        ...addressedToStaff({ id: userId, ...person }),
        ...filled,
        dueAt: now,
        messageId: digestMessageId(userId, day, domain),
      },
      now,
    );
    if (id !== null) written++;
  }
  return written;
}
