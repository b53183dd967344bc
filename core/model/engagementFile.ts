import * as v from 'valibot';

export const ENGAGEMENT_FILE_TYPE = 'engagements-o-files';

/** A file attached to an engagement (SPEC section 3). `downloadUrl` needs the bearer token. */
export const EngagementFile = v.object({
  id: v.string(),
  engagementId: v.number(),
  created: v.string(),
  filename: v.string(),
  mime: v.string(),
  size: v.number(),
  downloadUrl: v.string(),
});
export type EngagementFile = v.InferOutput<typeof EngagementFile>;

export const ENGAGEMENT_FILE_SORTS = ['created', 'filename', 'size'] as const;
export const ENGAGEMENT_FILE_DEFAULT_SORT = '-created';
