/**
 * The demo's leads: some generated runs that did not qualify, or qualified with no site within
 * reach, leave a (fictional) lead with the consent the demo screener shows for that outcome,
 * sealed like every lead, so the Leads screen and the funnel's leads kept show something on a
 * first start. Never a referral; no site opens near them, so none is within reach.
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { LeadKind } from '@core/model/lead';
import type { PhiCipher } from '../security/phi';
import { FIRST, LAST } from './demoReferrals';
import type { Tx } from '../db/open';
import { leads, oForms, screenerMessages } from '../db/schema';

/**
 * ZIP codes the demo's leads give, with the great-circle miles to the nearest demo site
 * (participant/distance.ts measured them): near for a participant who did not qualify, beyond
 * the demo engagement's 25 miles for one who found no site.
 */
const ZIPS: Record<Exclude<LeadKind, 'notActive'>, { zip: string; miles: number }[]> = {
  notQualified: [
    { zip: '10025', miles: 3.5 },
    { zip: '11215', miles: 1.9 },
    { zip: '07030', miles: 2.4 },
  ],
  noTrialSites: [
    { zip: '19103', miles: 75.3 },
    { zip: '12207', miles: 132.1 },
    { zip: '06103', miles: 97.9 },
    { zip: '18101', miles: 68.3 },
    { zip: '08608', miles: 46.9 },
  ],
};

export interface DemoLeadRun {
  submissionId: number;
  kind: Exclude<LeadKind, 'notActive'>;
  created: Date;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export async function seedDemoLeads(
  tx: Tx,
  phi: PhiCipher,
  demo: { engagementId: number; screenerId: number; mediaChannelId: number; oFormId: number },
  runs: DemoLeadRun[],
  random: () => number,
  now: Date,
): Promise<void> {
  if (runs.length === 0) return;
  const consents = new Map(
    (
      await tx
        .select({ outcome: screenerMessages.outcome, consent: screenerMessages.consentMessage })
        .from(screenerMessages)
        .where(and(eq(screenerMessages.screenerId, demo.screenerId), inArray(screenerMessages.outcome, Object.keys(ZIPS))))
    ).map((m) => [m.outcome, m.consent ?? '']),
  );
  const [form] = await tx.select({ version: oForms.version }).from(oForms).where(eq(oForms.id, demo.oFormId));
  const rows: (typeof leads.$inferInsert)[] = [];
  for (const [i, run] of runs.entries()) {
    const made = new Date(run.created.getTime() + 5 * 60_000);
    if (made.getTime() > now.getTime()) continue;
    const first = FIRST[Math.floor(random() * FIRST.length)]!;
    const last = LAST[Math.floor(random() * LAST.length)]!;
    const place = ZIPS[run.kind][Math.floor(random() * ZIPS[run.kind].length)]!;
    // Told apart from the demo referrals' people by the phone's exchange.
    const values = {
      first_name: first,
      last_name: last,
      email: `${first}.${last}.lead${i}@example.com`.toLowerCase(),
      phone: `212-556-${String(1000 + i).slice(-4)}`,
      zip_code: place.zip,
    };
    const consentText = consents.get(run.kind) ?? '';
    rows.push({
      kind: run.kind,
      submissionId: run.submissionId,
      engagementIds: [demo.engagementId],
      screenerId: demo.screenerId,
      mediaChannelId: demo.mediaChannelId,
      language: 'en',
      valuesCiphertext: phi.seal(JSON.stringify(values)),
      zipCiphertext: phi.seal(place.zip),
      nearestSiteMiles: place.miles,
      consentedAt: made,
      consentText,
      consentTextSha256: sha256(consentText),
      surveyId: demo.oFormId,
      surveyVersion: form?.version ?? null,
      created: made,
    });
  }
  for (let i = 0; i < rows.length; i += 500) await tx.insert(leads).values(rows.slice(i, i + 500));
}
