import { describe, expect, it } from 'vitest';
import { REFERRAL_STATUSES, canMoveReferral, nextReferralStatuses, referralMilestones, type ReferralStatus } from '@core/model/referral';
import { FHIR_SUBJECT_STATUSES, callbackStatus } from '@core/model/rmsAudit';

describe('the referral status ladder', () => {
  it('climbs, may skip rungs upwards, never steps down and never leaves a closed status', () => {
    // From new, every other rung, the closed ones included.
    expect(REFERRAL_STATUSES[0]).toBe('new');
    expect(nextReferralStatuses('new')).toEqual(REFERRAL_STATUSES.slice(1));
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
    // Every R4 code, by the rung it lands on (null: still a candidate); `randomized` is the older flag's.
    const onto: [ReferralStatus | null, string[]][] = [
      [null, ['candidate', 'potential-candidate']],
      ['in-screening', ['screening']],
      ['eligible', ['eligible', 'pending-on-study']],
      ['screen-failed', ['ineligible', 'not-registered']],
      ['enrolled', ['on-study', 'on-study-intervention', 'on-study-observation', 'follow-up', 'off-study', 'randomized']],
      ['withdrawn', ['withdrawn']],
    ];
    expect(FHIR_SUBJECT_STATUSES).toEqual(Object.fromEntries(onto.flatMap(([status, codes]) => codes.map((code) => [code, status]))));
    expect(callbackStatus({ contactId: 1, randomized: true })).toBe('enrolled');
    expect(callbackStatus({ contactId: 1, screened: true })).toBe('in-screening');
    expect(callbackStatus({ contactId: 1, screened: false })).toBeNull();
    expect(callbackStatus({ contactId: 1, status: 'contacted', randomized: true })).toBe('contacted');
  });
});
