import { describe, expect, it } from 'vitest';
import { REFERRAL_STATUSES, canMoveReferral, nextReferralStatuses, referralMilestones } from '@core/model/referral';
import { FHIR_SUBJECT_STATUSES, callbackStatus } from '@core/model/rmsAudit';

describe('the referral status ladder', () => {
  it('climbs, may skip rungs upwards, never steps down and never leaves a closed status', () => {
    expect(nextReferralStatuses('new')).toEqual([
      'attempting-contact',
      'contacted',
      'scheduled',
      'in-screening',
      'screen-failed',
      'eligible',
      'enrolled',
      'withdrawn',
      'not-reachable',
    ]);
    expect(nextReferralStatuses('in-screening')).toEqual(['screen-failed', 'eligible', 'enrolled', 'withdrawn', 'not-reachable']);
    expect(nextReferralStatuses('eligible')).toEqual(['enrolled', 'withdrawn', 'not-reachable']);
    expect(nextReferralStatuses('enrolled')).toEqual(['withdrawn']);
    for (const closed of ['screen-failed', 'withdrawn', 'not-reachable'] as const) expect(nextReferralStatuses(closed)).toEqual([]);
    expect(canMoveReferral('contacted', 'attempting-contact')).toBe(false);
    for (const status of REFERRAL_STATUSES) expect(canMoveReferral(status, status)).toBe(false);
  });

  it('keeps the milestones each status stands for', () => {
    expect(referralMilestones('contacted')).toEqual({ contacted: true, screened: false, randomized: false });
    expect(referralMilestones('screen-failed')).toEqual({ contacted: true, screened: true, randomized: false });
    expect(referralMilestones('enrolled')).toEqual({ contacted: true, screened: true, randomized: true });
    expect(referralMilestones('withdrawn')).toEqual({ contacted: false, screened: false, randomized: false });
  });

  it('maps every FHIR R4 ResearchSubject status and the older callback flags onto the ladder', () => {
    expect(FHIR_SUBJECT_STATUSES).toEqual({
      candidate: null,
      'potential-candidate': null,
      screening: 'in-screening',
      eligible: 'eligible',
      ineligible: 'screen-failed',
      'not-registered': 'screen-failed',
      'pending-on-study': 'eligible',
      'on-study': 'enrolled',
      'on-study-intervention': 'enrolled',
      'on-study-observation': 'enrolled',
      'follow-up': 'enrolled',
      'off-study': 'enrolled',
      randomized: 'enrolled',
      withdrawn: 'withdrawn',
    });
    expect(callbackStatus({ contactId: 1, randomized: true })).toBe('enrolled');
    expect(callbackStatus({ contactId: 1, screened: true })).toBe('in-screening');
    expect(callbackStatus({ contactId: 1, screened: false })).toBeNull();
    expect(callbackStatus({ contactId: 1, status: 'contacted', randomized: true })).toBe('contacted');
  });
});
