/**
 * Referral counts (SPEC section 7): GET /api/referrals/counts/{engagementId} answers how many
 * delivered referrals the engagement has (rms/delivered.ts), how many of them were screened
 * and randomized, and beside them how many duplicates were kept and not sent (participant/duplicates.ts).
 */
import { Hono } from 'hono';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import { REFERRAL_COUNTS_TYPE, type ReferralCounts } from '@core/model/referral';
import type { AppEnv, Deps } from '../context';
import { contacts, referrals } from '../db/schema';
import { authenticate } from '../auth/guards';
import { findAccessibleEngagement } from '../domain/engagementAccess';
import { notFound } from '../http/errors';
import { parseId } from '../http/query';
import { sendResource, toResource } from '../http/serialize';
import { isDeliveredReferral } from '../rms/delivered';
import { describe } from '../openapi/describe';

export function referralsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/counts/:id', describe({ summary: 'Referral counts of an engagement' }), async (c) => {
    const engagement = await findAccessibleEngagement(db, parseId(c.req.param('id')), c.get('user'));
    if (!engagement) throw notFound('engagement');
    const [row] = await db
      .select({
        total: count(),
        screened: sql<number>`count(*) filter (where ${referrals.isScreened})`.mapWith(Number),
        randomized: sql<number>`count(*) filter (where ${referrals.isRandomized})`.mapWith(Number),
      })
      .from(referrals)
      .where(and(eq(referrals.engagementId, engagement.id), isDeliveredReferral(referrals.contactId)));
    const [duplicates] = await db
      .select({ n: count() })
      .from(contacts)
      .where(and(eq(contacts.engagementId, engagement.id), isNotNull(contacts.duplicateOf)));
    const counts: Omit<ReferralCounts, 'id'> = {
      total: row?.total ?? 0,
      duplicates: duplicates?.n ?? 0,
      screened: row?.screened ?? 0,
      randomized: row?.randomized ?? 0,
    };
    return sendResource(c, toResource(REFERRAL_COUNTS_TYPE, engagement.id, counts));
  });

  return app;
}
