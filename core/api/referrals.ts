import type { ListParams } from '../jsonapi';
import {
  CONTACT_ATTEMPT_TYPE,
  REFERRAL_REASON_TYPE,
  REFERRAL_TYPE,
  type ContactAttemptInput,
  type Referral,
  type ReferralCounts,
  type ReferralPatch,
} from '../model/referral';
import type { ApiClient } from './client';

export interface ReferralReason {
  id: string;
  name: string;
  status: string;
  isActive: boolean;
}

/** Referrals: the engagement's counts, the work queue, moving a referral and logging attempts. */
export const referralsApi = (client: ApiClient) => ({
  counts: (engagementId: string) => client.get<ReferralCounts>(`referrals/counts/${encodeURIComponent(engagementId)}`),
  list: (params: ListParams = {}) => client.list<Referral>('referrals', params),
  move: (id: string, patch: ReferralPatch) => client.update<Referral>(`referrals/${encodeURIComponent(id)}`, REFERRAL_TYPE, id, { ...patch }),
  logAttempt: (id: string, attempt: ContactAttemptInput) =>
    client.create<Referral>(`referrals/${encodeURIComponent(id)}/contact-attempts`, CONTACT_ATTEMPT_TYPE, { ...attempt }),
  reasons: (status: string) => client.list<ReferralReason>(REFERRAL_REASON_TYPE, { limit: 100, status }),
});
