export const REFERRAL_COUNTS_TYPE = 'referral-counts';

/**
 * SPEC section 3: an engagement's referrals, and how many were screened and randomized;
 * `duplicates` (the same person again within the engagement's window, never sent) are not in
 * `total`.
 */
export interface ReferralCounts {
  id: string;
  total: number;
  duplicates: number;
  screened: number;
  randomized: number;
}
