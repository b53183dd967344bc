export const REFERRAL_COUNTS_TYPE = 'referral-counts';

/** SPEC section 3: an engagement's referrals, and how many were screened and randomized. */
export interface ReferralCounts {
  id: string;
  total: number;
  screened: number;
  randomized: number;
}
