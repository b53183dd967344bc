import { describe, expect, it } from 'vitest';
import { idParam } from '../../../server/http/params';

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('an id parameter', () => {
  it('reads a positive id and refuses anything else, naming the parameter and the record', () => {
    expect(idParam('user').parse('12', 'userId')).toBe(12);
    expect(refusal(() => idParam('user').parse('0', 'userId'))).toBe("'userId' must be the user's id.");
    expect(refusal(() => idParam('engagement').parse('x', 'engagementId'))).toBe("'engagementId' must be the engagement's id.");
    expect(refusal(() => idParam('sponsor').parse('2147483648', 'sponsorId'))).toBe("'sponsorId' must be the sponsor's id.");
  });
});
