/**
 * Moving a referral up its status ladder (the rule itself is core's canMoveReferral): the move,
 * the milestones it reaches (contacted, screened, randomized, kept once reached) and the event
 * on the referral's timeline, in one transaction with the referral's row locked, so two people
 * (or a person and a record system) moving the same referral at once are decided one after the
 * other.
 */
import { and, eq } from 'drizzle-orm';
import * as v from 'valibot';
import {
  REASONED_REFERRAL_STATUSES,
  REFERRAL_REASON_MISMATCH,
  REFERRAL_REASON_REQUIRED,
  REFERRAL_STATUSES,
  REFERRAL_STATUS_REFUSED,
  canMoveReferral,
  referralMilestones,
  type ReferralStatus,
} from '@core/model/referral';
import type { Db, Tx } from '../db/open';
import { referralEvents, referralReasons, referrals } from '../db/schema';
import type { PhiCipher } from '../security/phi';
import { ReferralRefused } from './errors';

/** Who moved the referral: a member of staff, or a record system (no user, its name). */
export interface ReferralActor {
  userId: number | null;
  name: string;
}

export interface StatusMove {
  status: ReferralStatus;
  reasonId?: number | null;
  reasonNote?: string | null;
}

export interface MoveOutcome {
  referralId: number;
  from: ReferralStatus;
  to: ReferralStatus;
  /** False when the referral already stood at `to` and the caller accepts that (a repeated callback). */
  moved: boolean;
}

const StoredStatus = v.picklist(REFERRAL_STATUSES);
/** A status as stored (the table's check constraint holds the same list). */
export const storedStatus = (value: string): ReferralStatus => v.parse(StoredStatus, value);

async function checkReason(tx: Tx, move: StatusMove, reasonRequired: boolean): Promise<number | null> {
  const reasoned = REASONED_REFERRAL_STATUSES.includes(move.status);
  const reasonId = move.reasonId ?? null;
  if (!reasoned) {
    if (reasonId !== null) throw new ReferralRefused('reasonId', REFERRAL_REASON_MISMATCH(move.status));
    return null;
  }
  if (reasonId === null) {
    if (reasonRequired) throw new ReferralRefused('reasonId', REFERRAL_REASON_REQUIRED(move.status));
    return null;
  }
  const [reason] = await tx
    .select({ id: referralReasons.id })
    .from(referralReasons)
    .where(and(eq(referralReasons.id, reasonId), eq(referralReasons.status, move.status), eq(referralReasons.isActive, true)));
  if (!reason) throw new ReferralRefused('reasonId', REFERRAL_REASON_MISMATCH(move.status));
  return reason.id;
}

/**
 * Moves the referral in `tx` (the caller's transaction, its row already locked by lockReferral):
 * throws ReferralRefused when the ladder does not allow it or a reason is missing or wrong.
 */
export async function moveLocked(
  tx: Tx,
  phi: PhiCipher,
  row: { id: number; status: string; firstContactAt: Date | null },
  move: StatusMove,
  actor: ReferralActor,
  now: Date,
  options: { reasonRequired: boolean; sameIsFine?: boolean },
): Promise<MoveOutcome> {
  const from = storedStatus(row.status);
  if (from === move.status && options.sameIsFine) return { referralId: row.id, from, to: from, moved: false };
  if (!canMoveReferral(from, move.status)) throw new ReferralRefused('status', REFERRAL_STATUS_REFUSED(from, move.status));
  const reasonId = await checkReason(tx, move, options.reasonRequired);
  const reached = referralMilestones(move.status);
  const noteCiphertext = reasonId !== null || REASONED_REFERRAL_STATUSES.includes(move.status) ? (move.reasonNote ? phi.seal(move.reasonNote) : null) : null;
  await tx
    .update(referrals)
    .set({
      status: move.status,
      reasonId,
      reasonNoteCiphertext: noteCiphertext,
      statusChanged: now,
      ...(reached.screened ? { isScreened: true } : {}),
      ...(reached.randomized ? { isRandomized: true } : {}),
      ...(reached.contacted && row.firstContactAt === null ? { firstContactAt: now } : {}),
    })
    .where(eq(referrals.id, row.id));
  await tx.insert(referralEvents).values({
    referralId: row.id,
    occurredAt: now,
    kind: 'status',
    actorUserId: actor.userId,
    actorName: actor.name,
    fromStatus: from,
    toStatus: move.status,
    reasonId,
    noteCiphertext,
  });
  return { referralId: row.id, from, to: move.status, moved: true };
}

/** The referral's row, locked for the rest of `tx`; undefined when there is none. */
export async function lockReferral(tx: Tx, where: ReturnType<typeof eq>) {
  const [row] = await tx
    .select({ id: referrals.id, status: referrals.status, firstContactAt: referrals.firstContactAt, lastAttemptAt: referrals.lastAttemptAt })
    .from(referrals)
    .where(where)
    .for('update');
  return row;
}

/** Moves referral `id` as staff asked (a reason required where the status needs one); null when there is none. */
export async function moveReferral(db: Db, phi: PhiCipher, id: number, move: StatusMove, actor: ReferralActor, now: Date): Promise<MoveOutcome | null> {
  return db.transaction(async (tx) => {
    const row = await lockReferral(tx, eq(referrals.id, id));
    return row ? moveLocked(tx, phi, row, move, actor, now, { reasonRequired: true }) : null;
  });
}

/**
 * Moves the referral of contact `contactId` as its record system reported (no reason required;
 * the same status again changes nothing); null when the contact has no referral. A move the
 * ladder refuses throws ReferralRefused, for the callback to answer 409. `firstDelivery`, when
 * given, runs under the referral's lock in the same transaction and says whether this message is
 * new: a message already applied (a replay) leaves the referral as it stands.
 */
export async function moveByRecordSystem(
  db: Db,
  phi: PhiCipher,
  contactId: number,
  move: StatusMove,
  reporter: string,
  now: Date,
  firstDelivery?: (tx: Tx) => Promise<boolean>,
): Promise<MoveOutcome | null> {
  return db.transaction(async (tx) => {
    const row = await lockReferral(tx, eq(referrals.contactId, contactId));
    if (!row) return null;
    if (firstDelivery && !(await firstDelivery(tx))) {
      const at = storedStatus(row.status);
      return { referralId: row.id, from: at, to: at, moved: false };
    }
    return moveLocked(tx, phi, row, move, { userId: null, name: reporter }, now, { reasonRequired: false, sameIsFine: true });
  });
}

/** Where the referral of contact `contactId` stands (what a callback answers). */
export async function statusOfContact(db: Db, contactId: number) {
  const [row] = await db
    .select({
      id: referrals.id,
      engagementId: referrals.engagementId,
      status: referrals.status,
      isScreened: referrals.isScreened,
      isRandomized: referrals.isRandomized,
    })
    .from(referrals)
    .where(eq(referrals.contactId, contactId));
  return row ? { ...row, status: storedStatus(row.status) } : null;
}
