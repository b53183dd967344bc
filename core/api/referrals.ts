import type { ReferralCounts } from '../model/referral';
import type { ApiClient } from './client';

export const referralsApi = (client: ApiClient) => ({
  counts: (engagementId: string) => client.get<ReferralCounts>(`referrals/counts/${encodeURIComponent(engagementId)}`),
});
