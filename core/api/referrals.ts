import {
  CONTACT_ATTEMPT_TYPE,
  REFERRAL_CONTACT_TYPE,
  REFERRAL_REASON_TYPE,
  REFERRAL_TYPE,
  type ContactAttemptInput,
  type Referral,
  type ReferralContact,
  type ReferralReason,
  type ReferralTimelineEntry,
  type ReferralCounts,
  type ReferralPatch,
} from '../model/referral';
import type { ApiClient } from './client';
import { listApi } from './resourceApi';
import type { SitePerformance } from '../model/sitePerformance';

/** Site performance (GET /api/site-performance). */
export const sitePerformanceApi = (client: ApiClient) => listApi<SitePerformance>(client, 'site-performance');

/** Referrals: the engagement's counts, the work queue, moving a referral and logging attempts. */
export const referralsApi = (client: ApiClient) => ({
  counts: (engagementId: string) => client.get<ReferralCounts>(`referrals/counts/${encodeURIComponent(engagementId)}`),
  ...listApi<Referral>(client, 'referrals'),
  get: (id: string) => client.get<Referral>(`referrals/${encodeURIComponent(id)}`),
  timeline: (id: string) => client.list<ReferralTimelineEntry>(`referrals/${encodeURIComponent(id)}/timeline`),
  reveal: (id: string) => client.create<ReferralContact>(`referrals/${encodeURIComponent(id)}/reveal`, REFERRAL_CONTACT_TYPE, {}),
  move: (id: string, patch: ReferralPatch) => client.update<Referral>(`referrals/${encodeURIComponent(id)}`, REFERRAL_TYPE, id, { ...patch }),
  logAttempt: (id: string, attempt: ContactAttemptInput) =>
    client.create<Referral>(`referrals/${encodeURIComponent(id)}/contact-attempts`, CONTACT_ATTEMPT_TYPE, { ...attempt }),
  reasons: (status: string) => client.list<ReferralReason>(REFERRAL_REASON_TYPE, { limit: 100, status }),
});
