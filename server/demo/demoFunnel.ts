/**
 * Six weeks of generated runs on the demo channel, from two campaign sources, so the recruitment
 * funnel's charts mean something on a first start. Deterministic (a seeded generator): every new
 * installation gets the same shape, ending on the day it was seeded. Runs are written as their
 * outcomes (the funnel's stage facts and views), and the channel's figures count them too, so the
 * two agree. Each run also has the page entries and page timings of the path it took (the demo
 * survey's pages 1, 2 when diagnosed, and 3; a run that never finished stops on page 2 or 3), so
 * the survey's drop-off chart and metrics export have pages to show. No answers are generated.
 * Given the PHI cipher, most runs that chose a site leave a fictional contact, sealed, delivered
 * already (never pushed to a record system) and worked up the referral ladder (demoReferrals.ts),
 * so the funnel reaches randomization; some runs that did not qualify or found no site leave a
 * lead (demoLeads.ts).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { asc, eq } from 'drizzle-orm';
import type { PhiCipher } from '../security/phi';
import { seedDemoLeads, type DemoLeadRun } from './demoLeads';
import { seedDemoReferrals, type DemoReferralRun } from './demoReferrals';
import { funnelViews, mediaChannelFigures, oFormContainerEntries, oFormContainers, oFormPageMetrics, oFormSubmissions } from '../db/schema';
import { DAY_MS } from '@core/time';

const DAYS = 42;
const SOURCES = [
  { utm_source: 'newsletter', utm_campaign: 'heart-month', weight: 0.45, start: 0.6, complete: 0.75 },
  { utm_source: 'facebook', utm_campaign: 'bp-awareness', weight: 0.55, start: 0.45, complete: 0.65 },
] as const;

/** mulberry32: a small seeded generator, so the demo is the same everywhere. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seedDemoFunnel(
  db: Db,
  demo: { mediaChannelId: number; screenerId: number; oFormId: number; engagementId: number; sponsorId: number; identity: string },
  now: Date,
  phi?: PhiCipher,
): Promise<void> {
  const random = generator(20261123);
  // Drawn apart too, so the referrals leave the runs as they were.
  const referralRandom = generator(20261128);
  const leavesContact: boolean[] = [];
  // Drawn apart as well, so the leads leave the runs and referrals as they were.
  const leadRandom = generator(20261129);
  const leavesLead: (DemoLeadRun['kind'] | null)[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const views: (typeof funnelViews.$inferInsert)[] = [];
  const runs: (typeof oFormSubmissions.$inferInsert)[] = [];
  const figures = { views: 0, started: 0, qualified: 0 };
  // Drawn apart from the outcomes, so adding the pages left the runs' outcomes as they were.
  const pathRandom = generator(20261126);
  /** Per run: the pages it reached (0-based), minutes after its creation each was shown, and whether its answers were saved. */
  const paths: { page: number; shownAt: number; answeredAt: number | null }[][] = [];
  for (let d = DAYS - 1; d >= 0; d -= 1) {
    const dayStart = today - d * DAY_MS;
    const day = new Date(dayStart).toISOString().slice(0, 10);
    // Weekdays busier than weekends, and a slow rise as the campaigns run.
    const weekday = new Date(dayStart).getUTCDay() % 6 !== 0;
    const volume = Math.round((weekday ? 22 : 10) * (0.7 + (0.6 * (DAYS - d)) / DAYS) + random() * 8);
    for (const source of SOURCES) {
      const shown = Math.round(volume * source.weight);
      const language = 'en';
      views.push({
        dimensions: JSON.stringify([day, demo.oFormId, demo.mediaChannelId, demo.screenerId, language, source.utm_source, source.utm_campaign]),
        shard: 0,
        day,
        sponsorId: demo.sponsorId,
        engagementId: demo.engagementId,
        screenerId: demo.screenerId,
        mediaChannelId: demo.mediaChannelId,
        oFormId: demo.oFormId,
        oFormIdentity: demo.identity,
        language,
        utmSource: source.utm_source,
        utmCampaign: source.utm_campaign,
        views: shown,
      });
      figures.views += shown;
      for (let i = 0; i < shown; i += 1) {
        if (random() >= source.start) continue;
        const created = new Date(dayStart + Math.floor(random() * (DAY_MS - 3600_000)));
        if (created.getTime() > now.getTime()) continue;
        const completes = random() < source.complete;
        const qualified = completes && random() < 0.55;
        const siteChosen = qualified && random() < 0.7;
        const at = (minutes: number) => new Date(created.getTime() + minutes * 60_000);
        figures.started += 1;
        if (qualified) figures.qualified += 1;
        // Page 1 is answered (that is what started means); those diagnosed see page 2; every finished run answers page 3.
        const diagnosed = pathRandom() < 0.6;
        const reached = diagnosed ? [0, 1, 2] : [0, 2];
        const stopsAt = completes ? reached.length : 1 + Math.floor(pathRandom() * (reached.length - 1));
        let minute = 0;
        paths.push(
          reached.slice(0, stopsAt + (completes ? 0 : 1)).map((page, step) => {
            const shownAt = minute;
            const answered = completes || step < stopsAt;
            minute += (0.3 + pathRandom()) * (page === 1 ? 1.5 : 1);
            return { page, shownAt, answeredAt: answered ? minute : null };
          }),
        );
        leavesContact.push(siteChosen && referralRandom() < 0.85);
        const outcome = siteChosen ? 'trialSiteSelected' : qualified ? (random() < 0.3 ? 'noTrialSites' : 'qualified') : completes ? 'notQualified' : null;
        leavesLead.push(
          outcome === 'notQualified' && leadRandom() < 0.15 ? 'notQualified' : outcome === 'noTrialSites' && leadRandom() < 0.6 ? 'noTrialSites' : null,
        );
        runs.push({
          oFormId: demo.oFormId,
          mediaChannelId: demo.mediaChannelId,
          language,
          utm: { utm_source: source.utm_source, utm_campaign: source.utm_campaign },
          tokenHash: randomBytes(32).toString('hex'),
          startedAt: at(1),
          finishedAt: completes ? at(4) : null,
          isQualified: completes ? qualified : null,
          outcome,
          created,
          modified: at(completes ? 5 : 2),
        });
      }
    }
  }
  await db.transaction(async (tx) => {
    await tx.insert(funnelViews).values(views).onConflictDoNothing();
    const referred: DemoReferralRun[] = [];
    const kept: DemoLeadRun[] = [];
    const pages = await tx
      .select({ id: oFormContainers.id, identity: oFormContainers.identity })
      .from(oFormContainers)
      .where(eq(oFormContainers.oFormId, demo.oFormId))
      .orderBy(asc(oFormContainers.displayOrder));
    for (let i = 0; i < runs.length; i += 500) {
      const ids = await tx
        .insert(oFormSubmissions)
        .values(runs.slice(i, i + 500))
        .returning({ id: oFormSubmissions.id });
      const entries: (typeof oFormContainerEntries.$inferInsert)[] = [];
      const timings: (typeof oFormPageMetrics.$inferInsert)[] = [];
      ids.forEach(({ id }, j) => {
        if (leavesContact[i + j]) referred.push({ submissionId: id, created: runs[i + j]!.created! });
        const lead = leavesLead[i + j];
        if (lead) kept.push({ submissionId: id, kind: lead, created: runs[i + j]!.created! });
        const created = runs[i + j]!.created!.getTime();
        const at = (minutes: number) => new Date(created + minutes * 60_000);
        for (const step of paths[i + j]!) {
          const page = pages[step.page];
          if (!page) continue;
          entries.push({
            submissionId: id,
            containerId: page.id,
            created: at(step.shownAt),
            answeredAt: step.answeredAt === null ? null : at(step.answeredAt),
          });
          timings.push({
            submissionId: id,
            oFormId: demo.oFormId,
            identity: page.identity,
            start: at(step.shownAt),
            stop: step.answeredAt === null ? null : at(step.answeredAt),
          });
        }
      });
      if (entries.length > 0) await tx.insert(oFormContainerEntries).values(entries);
      if (timings.length > 0) await tx.insert(oFormPageMetrics).values(timings);
    }
    if (phi) await seedDemoReferrals(tx, phi, demo.engagementId, referred, referralRandom, now);
    if (phi) await seedDemoLeads(tx, phi, demo, kept, leadRandom, now);
    await tx
      .insert(mediaChannelFigures)
      .values({
        mediaChannelId: demo.mediaChannelId,
        shard: 0,
        views: figures.views,
        submissionsStarted: figures.started,
        submissionsQualified: figures.qualified,
      })
      .onConflictDoUpdate({
        target: [mediaChannelFigures.mediaChannelId, mediaChannelFigures.shard],
        set: {
          views: sql`${mediaChannelFigures.views} + ${figures.views}`,
          submissionsStarted: sql`${mediaChannelFigures.submissionsStarted} + ${figures.started}`,
          submissionsQualified: sql`${mediaChannelFigures.submissionsQualified} + ${figures.qualified}`,
        },
      });
  });
}
