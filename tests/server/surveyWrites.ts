/** What a survey of either kind, legacy or versioned, must be written with. */
import { expect } from 'vitest';
import { UNKNOWN_ENGAGEMENT } from '../../server/engagements/access';
import { pointers, type resourceCalls } from './resourceCalls';

/**
 * POST `path` (a resource of that type) without a title, then for an engagement that does not
 * exist: each a 422 naming that attribute.
 */
export async function expectTitleAndKnownEngagementRequired(post: ReturnType<typeof resourceCalls>['post'], path: string, engagementId: string) {
  const missing = await post(path, path, { engagementId: Number(engagementId) });
  expect(missing.res.status).toBe(422);
  expect(pointers(missing.body)).toContain('/data/attributes/title');
  const unknown = await post(path, path, { title: 'X', engagementId: 999999 });
  expect(unknown.res.status).toBe(422);
  expect(unknown.body.errors[0]).toMatchObject({ detail: UNKNOWN_ENGAGEMENT, source: { pointer: '/data/attributes/engagementId' } });
}
