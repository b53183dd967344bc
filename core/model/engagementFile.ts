export const ENGAGEMENT_FILE_TYPE = 'engagements-o-files';

/** A file attached to an engagement (SPEC section 3). `downloadUrl` needs the bearer token. */
export interface EngagementFile {
  id: string;
  engagementId: number;
  created: string;
  filename: string;
  mime: string;
  size: number;
  downloadUrl: string;
}

export const ENGAGEMENT_FILE_SORTS = ['created', 'filename', 'size'] as const;
export const ENGAGEMENT_FILE_DEFAULT_SORT = '-created';
