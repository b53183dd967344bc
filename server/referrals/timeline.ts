/**
 * A referral's timeline: when it was made, then every change of status and every contact
 * attempt in the order they happened, notes opened for the staff who may see the referral.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/open';
import { referralEvents, referralReasons } from '../db/schema';
import type { PhiCipher } from '../security/phi';

export interface TimelineEntry {
  id: string;
  kind: 'made' | 'status' | 'attempt';
  occurredAt: string;
  actorName: string | null;
  fromStatus: string | null;
  toStatus: string | null;
  reasonName: string | null;
  channel: string | null;
  result: string | null;
  note: string | null;
}

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
  return [
    made,
    ...rows.map(({ noteCiphertext, ...row }) => ({
      ...row,
      id: String(row.id),
      kind: row.kind === 'attempt' ? ('attempt' as const) : ('status' as const),
      occurredAt: row.occurredAt.toISOString(),
      note: noteCiphertext ? phi.open(noteCiphertext) : null,
    })),
  ];
}
