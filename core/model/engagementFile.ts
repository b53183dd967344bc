import * as v from 'valibot';
import { answered, count, instant, recordId, resourceAnswer } from './answers';

export const ENGAGEMENT_FILE_TYPE = 'engagements-o-files';

/** A file attached to an engagement (SPEC section 3) as the API answers it: the one description of its attributes. */
export const ENGAGEMENT_FILE = resourceAnswer(
  ENGAGEMENT_FILE_TYPE,
  v.object({
    engagementId: recordId(),
    created: instant(),
    filename: v.string(),
    mime: v.string(),
    size: v.pipe(count(), v.description('Bytes.')),
    downloadUrl: v.pipe(v.string(), v.description('Needs the bearer token.')),
  }),
);

/** A file as core's readers flatten it. */
export const EngagementFile = answered(ENGAGEMENT_FILE);
export type EngagementFile = v.InferOutput<typeof EngagementFile>;

export const ENGAGEMENT_FILE_SORTS = ['created', 'filename', 'size'] as const;
export const ENGAGEMENT_FILE_DEFAULT_SORT = '-created';
