/**
 * Referral counts (SPEC section 7): how many delivered referrals an engagement has
 * (./delivered.ts), how many of them reached screening and randomization on the ladder, and
 * beside them how many duplicates were kept and not sent (participant/duplicates.ts).
 */
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { ReferralCounts } from '@core/model/referral';
import type { Db } from '../db/open';
import { contacts, referrals } from '../db/schema';
import { isDeliveredReferral } from './delivered';

export async function referralCounts(db: Db, engagementId: number): Promise<Omit<ReferralCounts, 'id'>> {
  const [row] = await db
    .select({
      total: count(),
      screened: sql<number>`count(*) filter (where ${referrals.isScreened})`.mapWith(Number),
      randomized: sql<number>`count(*) filter (where ${referrals.isRandomized})`.mapWith(Number),
    })
    .from(referrals)
    .where(and(eq(referrals.engagementId, engagementId), isDeliveredReferral(referrals.contactId)));
  const [duplicates] = await db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.engagementId, engagementId), isNotNull(contacts.duplicateOf)));
  return { total: row?.total ?? 0, duplicates: duplicates?.n ?? 0, screened: row?.screened ?? 0, randomized: row?.randomized ?? 0 };
}
