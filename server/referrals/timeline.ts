/**
 * A referral's timeline: the participant's submission (started, qualified), when the referral
 * was made, each attempt to deliver it to the record system (the provider and whether it took,
 * never the payload or the answer's body), then every change of status and every contact
 * attempt, in the order they happened; notes opened for the staff who may see the referral.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/open';
import { contacts, oFormSubmissions, referralEvents, referralReasons, referrals, rmsAudits } from '../db/schema';
import type { PhiCipher } from '../security/phi';
import type { ReferralTimelineEntry } from '@core/model/referral';

type TimelineEntry = ReferralTimelineEntry;

export async function referralTimeline(db: Db, phi: PhiCipher, referral: { id: string; created: string }): Promise<TimelineEntry[]> {
  const rows = await db
    .select({
      id: referralEvents.id,
      kind: referralEvents.kind,
      occurredAt: referralEvents.occurredAt,
      actorName: referralEvents.actorName,
      fromStatus: referralEvents.fromStatus,
      toStatus: referralEvents.toStatus,
      reasonName: referralReasons.name,
      channel: referralEvents.channel,
      result: referralEvents.result,
      noteCiphertext: referralEvents.noteCiphertext,
    })
    .from(referralEvents)
    .leftJoin(referralReasons, eq(referralReasons.id, referralEvents.reasonId))
    .where(eq(referralEvents.referralId, Number(referral.id)))
    .orderBy(asc(referralEvents.occurredAt), asc(referralEvents.id));
  const made: TimelineEntry = {
    id: `made-${referral.id}`,
    kind: 'made',
    occurredAt: referral.created,
    actorName: null,
    fromStatus: null,
    toStatus: 'new',
    reasonName: null,
    channel: null,
    result: null,
    note: null,
  };
  const blank = { actorName: null, fromStatus: null, toStatus: null, reasonName: null, channel: null, result: null, note: null };
  const [run] = await db
    .select({ contactId: contacts.id, started: oFormSubmissions.created, finishedAt: oFormSubmissions.finishedAt, isQualified: oFormSubmissions.isQualified })
    .from(referrals)
    .innerJoin(contacts, eq(contacts.id, referrals.contactId))
    .leftJoin(oFormSubmissions, eq(oFormSubmissions.id, contacts.submissionId))
    .where(eq(referrals.id, Number(referral.id)));
  const before: TimelineEntry[] = [];
  if (run?.started) before.push({ ...blank, id: `submitted-${referral.id}`, kind: 'submitted', occurredAt: run.started.toISOString() });
  if (run?.finishedAt && run.isQualified)
    before.push({ ...blank, id: `qualified-${referral.id}`, kind: 'qualified', occurredAt: run.finishedAt.toISOString() });
  const deliveries = run
    ? await db
        .select({
          id: rmsAudits.id,
          created: rmsAudits.created,
          provider: rmsAudits.rmsProviderName,
          succeeded: rmsAudits.succeeded,
          attempt: rmsAudits.attempt,
        })
        .from(rmsAudits)
        .where(eq(rmsAudits.contactId, run.contactId))
        .orderBy(asc(rmsAudits.created), asc(rmsAudits.id))
    : [];
  const delivered: TimelineEntry[] = deliveries.map((d) => ({
    ...blank,
    id: `delivery-${d.id}`,
    kind: 'delivery',
    occurredAt: d.created.toISOString(),
    actorName: d.provider,
    result: d.succeeded ? 'delivered' : 'failed',
    channel: `attempt ${d.attempt}`,
  }));
  const events: TimelineEntry[] = [
    ...delivered,
    ...rows.map(({ noteCiphertext, ...row }) => ({
      ...row,
      id: String(row.id),
      kind: row.kind === 'attempt' ? ('attempt' as const) : ('status' as const),
      occurredAt: row.occurredAt.toISOString(),
      note: noteCiphertext ? phi.open(noteCiphertext) : null,
    })),
  ].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
  return [...before, made, ...events];
}
