/**
 * Contact attempts: a call, message or visit logged against a referral, with when the next one
 * is due. The first attempt on a new referral moves it to attempting-contact; a reached attempt
 * is the site's first contact when it is the earliest. A closed referral takes no attempts.
 */
import { eq, sql } from 'drizzle-orm';
import { CLOSED_REFERRAL_STATUSES, type ContactChannel, type ContactResult } from '@core/model/referral';
import type { Db } from '../db/open';
import { referralEvents, referrals } from '../db/schema';
import type { PhiCipher } from '../security/phi';
import { ReferralRefused } from './errors';
import { lockReferral, moveLocked, storedStatus, type ReferralActor } from './ladder';

export interface Attempt {
  channel: ContactChannel;
  result: ContactResult;
  note?: string | null;
  attemptedAt?: string;
  nextAttemptDue?: string | null;
}

/** A little slack for a device clock running ahead of the server's. */
const FUTURE_SLACK_MS = 5 * 60_000;

export const ATTEMPT_IN_FUTURE = 'An attempt cannot be logged ahead of the time it is now.';
export const NEXT_ATTEMPT_BEFORE = 'The next attempt must be due after this one.';
export const REFERRAL_CLOSED = 'This referral is closed: it takes no more contact attempts.';

/** Logs the attempt on referral `id`; null when there is no such referral. */
export async function logAttempt(db: Db, phi: PhiCipher, id: number, attempt: Attempt, actor: ReferralActor, now: Date): Promise<{ eventId: number } | null> {
  const at = attempt.attemptedAt ? new Date(attempt.attemptedAt) : now;
  if (at.getTime() > now.getTime() + FUTURE_SLACK_MS) throw new ReferralRefused('attemptedAt', ATTEMPT_IN_FUTURE);
  const next = attempt.nextAttemptDue ? new Date(attempt.nextAttemptDue) : null;
  if (next && next.getTime() <= at.getTime()) throw new ReferralRefused('nextAttemptDue', NEXT_ATTEMPT_BEFORE);
  return db.transaction(async (tx) => {
    const row = await lockReferral(tx, eq(referrals.id, id));
    if (!row) return null;
    const status = storedStatus(row.status);
    if (CLOSED_REFERRAL_STATUSES.includes(status)) throw new ReferralRefused('status', REFERRAL_CLOSED);
    if (status === 'new') await moveLocked(tx, phi, row, { status: 'attempting-contact' }, actor, now, { reasonRequired: false });
    const reached = attempt.result === 'reached';
    await tx
      .update(referrals)
      .set({
        attempts: sql`${referrals.attempts} + 1`,
        lastAttemptAt: sql`greatest(${referrals.lastAttemptAt}, ${at.toISOString()}::timestamptz)`,
        nextAttemptDue: next,
        ...(reached ? { firstContactAt: sql`least(${referrals.firstContactAt}, ${at.toISOString()}::timestamptz)` } : {}),
      })
      .where(eq(referrals.id, id));
    const [event] = await tx
      .insert(referralEvents)
      .values({
        referralId: id,
        occurredAt: at,
        kind: 'attempt',
        actorUserId: actor.userId,
        actorName: actor.name,
        channel: attempt.channel,
        result: attempt.result,
        noteCiphertext: attempt.note ? phi.seal(attempt.note) : null,
      })
      .returning({ id: referralEvents.id });
    return { eventId: event!.id };
  });
}
