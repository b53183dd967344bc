import { describe, expect, it } from 'vitest';
import { choiceParam, idParam, patternParam, required } from '../../../server/http/params';
import { parseQuery } from '../../../server/http/query';

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

describe('a pattern parameter', () => {
  it('states its pattern as the one it reads with, and refuses another form saying what it must be', () => {
    const code = patternParam(/^[a-z]{2}$/, 'a two-letter code', 'A code.');
    expect(code.schema).toEqual({ type: 'string', pattern: '^[a-z]{2}$' });
    expect(code.parse('en', 'language')).toBe('en');
    expect(refusal(() => code.parse('eng', 'language'))).toBe("'language' must be a two-letter code.");
  });
});

describe("a route's own query", () => {
  const QUERY = { engagementId: required(idParam('engagement')), view: choiceParam(['short', 'long'] as const) };
  const parse = (query: string) => parseQuery(new URLSearchParams(query), QUERY);
  const problem = (query: string) => {
    try {
      parse(query);
    } catch (error) {
      const { detail, source } = (error as { errors: { detail: string; source: unknown }[] }).errors[0]!;
      return { detail, source };
    }
    return 'accepted';
  };

  it('reads each declared parameter with its parser', () => {
    expect(parse('engagementId=3&view=long')).toEqual({ engagementId: 3, view: 'long' });
    expect(parse('engagementId=3&view=')).toEqual({ engagementId: 3 });
  });

  it('refuses an unknown, repeated, missing or unreadable parameter, naming it', () => {
    expect(problem('engagementId=3&viewe=long')).toEqual({
      detail: "Unknown query parameter 'viewe'. Use one of: engagementId, view.",
      source: { parameter: 'viewe' },
    });
    expect(problem('engagementId=3&engagementId=4')).toMatchObject({ source: { parameter: 'engagementId' } });
    expect(problem('view=short')).toEqual({ detail: "'engagementId' is required.", source: { parameter: 'engagementId' } });
    expect(problem('engagementId=3&view=wide')).toEqual({ detail: "'view' must be one of: short, long.", source: { parameter: 'view' } });
  });
});
